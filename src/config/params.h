/* All options of a simulation, grouped by the module that owns them. */
#ifndef GMS_CONFIG_PARAMS_H
#define GMS_CONFIG_PARAMS_H
#include "config/option.h"
#include "core/core_params.h"
#include "mem/icnt_params.h"
#include "mem/l1d_params.h"
#include "mem/memsys_params.h"
#include "uvm/uvm_params.h"
#include "cke/cke_params.h"
#include "config/g3_params.h"

#define GMS_MAX_SOURCES 16

struct gms_params {
    gms_core_params core;
    gms_sim_params sim;
    gms_icnt_params icnt;
    gms_l1d_params l1d;
    gms_memsys_params mem;
    gms_uvm_params uvm;
    gms_cke_params cke;
    gms_g3_params g3;          /* GPGPU-Sim 3.x options of UVMSmart configs, accepted (g3_options.c) */

    /* bookkeeping */
    int ignore_unknown;
    char **ignored;            /* "file:line: -name" of ignored unknown options */
    char **ignored_names;      /* their names alone, "-name" */
    size_t nignored;
    char *sources[GMS_MAX_SOURCES]; /* config files loaded, in order */
    size_t nsources;
    unsigned char *is_set;     /* per option (registry order): given explicitly */
    char **set_where;          /* per option: "FILE:LINE: " of its last setting, or NULL */
    int finalized;
};

/* config.c: loads len bytes of config text as if read from the file path (relative -config
 * includes are found next to it); for tests and the config fuzzer */
int gms_params_load_text(gms_params *p, const char *path, const char *text, size_t len, gms_error *err);

/* unmodelled.c: the options set to a non-default value that gpumemsim does not model
 * (gms_option.unmodelled), in registry order; returns how many, stores at most cap names */
size_t gms_params_unmodelled(const gms_params *p, const char **names, size_t cap);
/* one warning line naming them; nothing when there are none */
void gms_params_warn_unmodelled(const gms_params *p, FILE *out);
/* 0 if `enabled`, or if no option whose name starts with one of `prefixes` (NULL-terminated)
 * differs from its default; otherwise an error naming it and saying it needs `needs` (the
 * options of a mechanism that is off would be accepted and never used: requires.c) */
/* requires.c: 0 if v <= max, else "-name: v is more than max (why)": an upper bound where a
 * larger value, accepted, would exhaust memory or stall the run past the watchdog */
int gms_param_at_most(uint64_t v, uint64_t max, const char *name, const char *why, gms_error *err);
/* the same for a latency the engine waits out without a timer: at most 100,000 cycles */
int gms_param_wait_at_most(uint64_t cycles, const char *name, gms_error *err);
/* was option `name` given explicitly (a config file, --set or -NAME), not left at its default? */
int gms_params_is_set(const gms_params *p, const char *name);
int gms_params_require(const gms_params *p, const char *const *prefixes, int enabled, const char *needs,
                       gms_error *err);

/* unused_knobs.c: options a policy-family member declares as its own (util/registry.h,
 * knobs), set to a non-default value while no member claiming them is in use */
struct gms_registry;
typedef struct gms_unused_knob { const char *option; const struct gms_registry *family; } gms_unused_knob;
/* returns how many, stores at most cap (registry order of the options) */
size_t gms_params_unused_knobs(const gms_params *p, gms_unused_knob *out, size_t cap);
/* one warning line each: "-X is set, but it has no effect unless -FAMILY is a or b (this run: c)" */
void gms_params_warn_unused_knobs(const gms_params *p, FILE *out);

#endif
