/* The common shape of every policy family's registry (DESIGN.md section 4): a list of members,
 * each with a name and a one-line help, chosen by one option. A family keeps its own typed ops
 * table (the simulator calls those ops directly, so the hot path gains no indirection); the
 * registry only knows where each member keeps its name and help, so names, help texts, error
 * lists ("unknown X 'foo'; known: a, b, c"), `gpumemsim list policies` and the config dump
 * all come from the same list.
 *
 * A family's registry file declares it with GMS_REGISTRY_DEFINE next to its member array:
 *     static const gms_l2q_ops *const all[] = { &gms_l2q_fifo, ... };
 *     static long chosen(const struct gms_params *p) { return gms_reg_index(&gms_l2q_reg, p->mem.l2q); }
 *     GMS_REGISTRY_DEFINE(gms_l2q_reg, "L2 input queue policy", "gms_l2_input_queue",
 *                         gms_l2q_ops, all, name, summary, NULL, chosen);
 * Adding a member is then one new file plus one line in that array. */
#ifndef GMS_UTIL_REGISTRY_H
#define GMS_UTIL_REGISTRY_H
#include <stddef.h>
#include <stdio.h>
#include "util/err.h"

struct gms_params;

/* another spelling accepted for a member (UVMSmart's short names, ...) */
typedef struct gms_reg_alias { const char *alias, *name; } gms_reg_alias;

typedef struct gms_registry {
    const char *family;        /* in messages: "warp scheduler" */
    const char *option;        /* the option that selects a member, without the dash */
    size_t n;                  /* members */
    const void *(*at)(size_t i);   /* member i's ops table */
    size_t name_off, help_off;     /* where a member keeps its name and help (const char *) */
    const gms_reg_alias *aliases;  /* NULL or ended by {NULL, NULL} */
    /* families selected by one letter of a cache string (set index, replacement): the offset
     * of the member's `char` letter, or (size_t)-1. The letter is then the member's key. */
    size_t letter_off;
    /* the member a finalized configuration selects (-1: none), for the config dump; for the
     * per-cache families, the L1D's */
    long (*chosen)(const struct gms_params *p);
    /* a member's own options (the offset of its `const char *const *knobs`: option-name
     * prefixes, NULL-ended, or a NULL list), or GMS_REG_NO_KNOBS. Set while no member that
     * claims them is in use, they are named as unused (config/unused_knobs.c). */
    size_t knobs_off;
    /* is `member` in use for `knob`? NULL: member == chosen(p). For families chosen in two
     * roles (the L1D's and the L2's MSHR design, the normal and oversubscribed prefetcher). */
    int (*knob_used)(const struct gms_params *p, size_t member, const char *knob);
} gms_registry;

#define GMS_REG_NO_LETTER ((size_t)-1)
#define GMS_REG_NO_KNOBS ((size_t)-1)
/* a member's knobs: .knobs = GMS_KNOBS("uvm_hpe_", "uvm_policy_refs") */
#define GMS_KNOBS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* defines `const gms_registry var` over the array `arr` of `const type *` */
#define GMS_REGISTRY_DEFINE_ALL(var, fam, opt, type, arr, namef, helpf, aliases, letter_off, chosen, knobs_off, \
                                knob_used)                                                                \
    static const void *var##_at(size_t i) { return arr[i]; }                                              \
    const gms_registry var = { fam, opt, sizeof arr / sizeof arr[0], var##_at, offsetof(type, namef),       \
                               offsetof(type, helpf), aliases, letter_off, chosen, knobs_off, knob_used }
#define GMS_REGISTRY_DEFINE_EX(var, fam, opt, type, arr, namef, helpf, aliases, letter_off, chosen) \
    GMS_REGISTRY_DEFINE_ALL(var, fam, opt, type, arr, namef, helpf, aliases, letter_off, chosen, GMS_REG_NO_KNOBS, NULL)
#define GMS_REGISTRY_DEFINE(var, fam, opt, type, arr, namef, helpf, aliases, chosen) \
    GMS_REGISTRY_DEFINE_EX(var, fam, opt, type, arr, namef, helpf, aliases, GMS_REG_NO_LETTER, chosen)
/* a family whose members declare their own options in `knobsf` (see knobs_off) */
#define GMS_REGISTRY_DEFINE_KNOBS(var, fam, opt, type, arr, namef, helpf, knobsf, aliases, chosen, knob_used) \
    GMS_REGISTRY_DEFINE_ALL(var, fam, opt, type, arr, namef, helpf, aliases, GMS_REG_NO_LETTER, chosen,      \
                            offsetof(type, knobsf), knob_used)

static inline const void *gms_reg_at(const gms_registry *r, size_t i) { return i < r->n ? r->at(i) : NULL; }
const char *gms_reg_name(const gms_registry *r, size_t i);
const char *gms_reg_help(const gms_registry *r, size_t i);
char gms_reg_letter(const gms_registry *r, size_t i);   /* 0 if the family has no letters */
/* member i's option-name prefixes (NULL-ended), NULL if it declares none */
const char *const *gms_reg_knobs(const gms_registry *r, size_t i);

/* index of the member called name[0..len) (len = strlen for the whole string), aliases
 * included; for a letter family, name is the one letter. -1 if unknown. */
long gms_reg_index_n(const gms_registry *r, const char *name, size_t len);
long gms_reg_index(const gms_registry *r, const char *name);
const void *gms_reg_find(const gms_registry *r, const char *name);
/* "a, b, c" (letter families: "L (linear), X (BXOR)"); truncated to fit n */
void gms_reg_known(const gms_registry *r, char *buf, size_t n);
/* fills err with "-OPTION: unknown FAMILY 'name'; known: a, b, c"; returns gms_err's -1 */
int gms_reg_unknown(const gms_registry *r, const char *name, gms_error *err);
/* one line per member: "  name  help" (for `gpumemsim list policies`) */
void gms_reg_print(const gms_registry *r, FILE *out);
/* "family (-option): name - help" for the member p selects (config dump) */
void gms_reg_print_chosen(const gms_registry *r, const struct gms_params *p, FILE *out);

/* every family, in the order `list policies` shows them (registries.c) */
extern const gms_registry *const gms_registries[];
extern const size_t gms_nregistries;

#endif
