/* Option registry. Each module declares a static table of gms_option (name as GPGPU-Sim
 * spells it, without the leading '-'; type; offset into gms_params; default; help) and a
 * gms_config_module with optional finalize (decode packed strings, check geometry, report
 * errors) and dump (print decoded values in plain words). The modules are listed once in
 * src/config/registry.c. Adding an option = one row in the owning module's table. */
#ifndef GMS_CONFIG_OPTION_H
#define GMS_CONFIG_OPTION_H
#include <stddef.h>
#include <stdio.h>
#include "util/err.h"

#define GMS_OPT_STRLEN 256

typedef enum {
    GMS_OPT_BOOL,   /* int: 0/1 (accepts 0 1 true false) */
    GMS_OPT_INT,    /* int */
    GMS_OPT_U32,    /* uint32_t */
    GMS_OPT_U64,    /* uint64_t */
    GMS_OPT_DOUBLE, /* double */
    GMS_OPT_STRING, /* char[GMS_OPT_STRLEN], decoded by the module's finalize */
} gms_opt_type;

/* What a value may look like beyond its type's plain number. A number is only ever followed
 * by a unit the option declares here (scaled into the option's own unit); anything else after
 * it is an error, never silently cut off. Declared per option in its module's table. */
typedef enum {
    GMS_SYN_PLAIN = 0,  /* the type alone: an integer is digits (or 0x hex), a double a number */
    GMS_SYN_BYTES,      /* U64 bytes: B, KB/K/KiB, MB/M/MiB, GB/G/GiB (1024-based); bare = bytes */
    GMS_SYN_GBPS,       /* DOUBLE GB/s: GB/s, MB/s, KB/s (1000-based); bare = GB/s */
    GMS_SYN_USEC,       /* DOUBLE microseconds: us, ns, ms; bare = us */
    GMS_SYN_INT_LIST,   /* STRING: comma-separated integers (GPGPU-Sim strtok(",") + sscanf("%d")) */
} gms_opt_syntax;

struct gms_params;
typedef struct gms_option {
    const char *name;    /* e.g. "gpgpu_n_mem" */
    gms_opt_type type;
    size_t offset;       /* offsetof(gms_params, ...) */
    const char *defval;  /* GPGPU-Sim default where the option is GPGPU-Sim's */
    const char *help;
    gms_opt_syntax syntax;
    /* non-NULL: accepted (and its syntax checked) but not modelled; says what happens instead.
     * A run that sets it to a non-default value warns once and lists it in its statistics
     * (gms_unmodelled_options); `config --dump` marks it. */
    const char *unmodelled;
    /* non-NULL (with `unmodelled`): the option is modelled in part, `unmodelled` says which part
     * is not, and the value puts that part to use when this returns non-zero for the field (e.g.
     * -specialized_unit_N: when its <enabled> field is not 0), instead of when it differs from
     * the default. The warning calls it "only partly modelled". */
    int (*unmodelled_in_use)(const struct gms_params *p, const void *field);
    /* bytes of the field (GMS_OPT_X fills it): a string value must fit it with its NUL; 0 means
     * GMS_OPT_STRLEN */
    size_t size;
} gms_option;

struct gms_params;
typedef struct gms_config_module {
    const char *name;                 /* "core", "l1d", "dram", "uvm", ... */
    const gms_option *options;
    size_t noptions;
    /* decode strings into derived fields and validate; errors name the option */
    int (*finalize)(struct gms_params *p, gms_error *err);
    /* print decoded values in plain words, one "Label: text" per line */
    void (*dump)(const struct gms_params *p, FILE *out);
} gms_config_module;

/* registry.c */
extern const gms_config_module *const gms_config_modules[];
extern const size_t gms_config_nmodules;

#define GMS_OPT(name, type, field, def, help) GMS_OPT_X(name, type, field, def, help, GMS_SYN_PLAIN, NULL)
/* an option with a unit or syntax of its own, or one that is not modelled */
#define GMS_OPT_X(name, type, field, def, help, syntax, unmodelled) \
    { name, type, offsetof(struct gms_params, field), def, help, syntax, unmodelled, NULL, \
      sizeof(((struct gms_params *)0)->field) }
/* an option modelled in part: `unmodelled` says which part is not, `in_use` when it matters */
#define GMS_OPT_PARTLY(name, type, field, def, help, unmodelled, in_use) \
    GMS_OPT_PARTLY_X(name, type, field, def, help, GMS_SYN_PLAIN, unmodelled, in_use)
#define GMS_OPT_PARTLY_X(name, type, field, def, help, syntax, unmodelled, in_use) \
    { name, type, offsetof(struct gms_params, field), def, help, syntax, unmodelled, in_use, \
      sizeof(((struct gms_params *)0)->field) }

#endif
