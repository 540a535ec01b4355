/* Built-in workloads. Each is one file defining a `const gms_workload_ops gms_wl_<name>`,
 * listed in one of the registry files (registry_micro.c, registry_polybench.c,
 * registry_rodinia.c, registry_parboil.c, registry_lonestar.c, registry_sdk.c,
 * registry_graphbig.c). A workload computes its real result while it emits each lane's
 * addresses (in the kernels' fill_block), and verify() checks the result against a plain
 * CPU implementation. Parameters are named; unknown names are rejected before create().
 *
 * Parameters every workload accepts (handled by the framework, see workload.c):
 *   uvm=0|1       managed allocations and no copies (1) or device allocations + copies (0)
 *   prefetch=0|1  bulk cudaMemPrefetchAsync of every managed allocation before each launch
 *   seed=N        input-data seed (default from the run's --seed)
 *   chunk=N       instructions a long-running warp generates at a time (0: GMS_WARP_CHUNK;
 *                 4294967295: whole streams at once, as before chunking); see warp_refill.h
 * Workload-specific ones (sizes, iterations, `scale`, `repeat`) are in each ops->params. */
#ifndef GMS_WORKLOADS_WORKLOAD_H
#define GMS_WORKLOADS_WORKLOAD_H
#include <stdint.h>
#include "frontend/program.h"
#include "frontend/emit.h"

typedef struct gms_wl_param {
    const char *name;
    const char *defval;   /* numbers as text; "" for an optional string (e.g. a file) */
    const char *help;
} gms_wl_param;

typedef struct gms_wl_args gms_wl_args;  /* parsed name=value list, validated */

typedef struct gms_workload_ops {
    const char *name;      /* as typed on the command line: "stream", "2mm", "bfs", ... */
    const char *suite;     /* "micro", "polybench", "rodinia", "ml", ... */
    const char *domain;    /* "linear algebra", "graph", ... */
    const char *ri;        /* "R" regular, "I" irregular, "-" not classified */
    const char *summary;   /* one line */
    const gms_wl_param *params;  /* terminated by {NULL} */
    /* parse parameters, generate input data; *state owns everything */
    int (*create)(const gms_wl_args *a, void **state, gms_error *err);
    /* push the next commands (allocations, copies, launches, syncs); 1 = pushed, 0 = done */
    int (*next)(void *state, gms_program *prog, gms_error *err);
    /* after the run: compare results with the CPU reference; 0 = ok */
    int (*verify)(void *state, gms_error *err);
    void (*destroy)(void *state);
    /* bytes of device memory the default (or given) parameters allocate */
    uint64_t (*footprint)(const gms_wl_args *a);
} gms_workload_ops;

/* registry */
const gms_workload_ops *gms_workload_find(const char *name);
size_t gms_workload_count(void);
const gms_workload_ops *gms_workload_at(size_t i);

/* argument access: the value given on the command line or the param's default.
 * Values accept decimal, 0x hex, and K/M/G suffixes (1024-based) for integers. */
int gms_wl_args_parse(const gms_workload_ops *ops, const char *const *kv, uint64_t seed,
                      gms_wl_args **out, gms_error *err);
void gms_wl_args_free(gms_wl_args *a);
/* after create: -1 and the error when an integer parameter (read with gms_wl_u64) was given
 * a value that is not a whole number (n=2.5), which would otherwise be cut down silently */
int gms_wl_args_check(const gms_wl_args *a, gms_error *err);
uint64_t gms_wl_u64(const gms_wl_args *a, const char *name);
double gms_wl_f64(const gms_wl_args *a, const char *name);
const char *gms_wl_str(const gms_wl_args *a, const char *name);
int gms_wl_uvm(const gms_wl_args *a);
int gms_wl_prefetch(const gms_wl_args *a);
uint32_t gms_wl_chunk(const gms_wl_args *a);   /* chunk=N (0: default), for gms_program.chunk */
uint64_t gms_wl_seed(const gms_wl_args *a);
/* range check helper: error "workload W: parameter P=V must be in [lo, hi]" */
int gms_wl_check_range(const gms_wl_args *a, const char *name, uint64_t lo, uint64_t hi, gms_error *err);

/* Size notes (wl_clamp.h): the value a workload uses for size parameter `name` and the value
 * the parameters asked for (scaled); they differ when a tiny `scale` was clamped to the
 * smallest valid problem. Args are const in create(); the notes live beside them. At most 16
 * parameters are noted. */
void gms_wl_note_size(const gms_wl_args *a, const char *name, uint64_t used, uint64_t asked);
/* number of clamped parameters */
int gms_wl_clamped(const gms_wl_args *a);
/* stats: gms_workload_clamped (parameters clamped) and gms_workload_size_<param> (the value
 * used) for every noted size */
struct gms_stats;
void gms_wl_report(const gms_wl_args *a, struct gms_stats *st);
/* a copy of a with name=value pairs kv (NULL-terminated) appended; the values are not checked
 * (the copy is for a workload's own create helper). No size notes are copied. */
gms_wl_args *gms_wl_args_with(const gms_wl_args *a, const char *const *kv);
/* no clamp message from gms_workload_program (a second, functional instance of a run's
 * workload, e.g. Belady's recording pass: the run itself says it once) */
void gms_wl_args_quiet(gms_wl_args *a);
/* 0: no clamp message from this thread until 1 again (a second timing run of the same
 * program, e.g. Belady's recording run, core/belady_prepass.h) */
void gms_wl_clamp_messages(int on);

/* A program source that runs a workload (used by the simulator and by the functional runner).
 * When create() clamped sizes, one line on stderr says which (unless gms_wl_args_quiet). */
int gms_workload_program(const gms_workload_ops *ops, const gms_wl_args *a, gms_program_src *out,
                         void **state, gms_error *err);

/* Functional run without timing: executes every command, fills every block in order (which
 * computes the results), then calls verify. Counts warp instructions emitted. Used by tests
 * and by the generation-rate benchmark. */
typedef struct gms_functional_result {
    uint64_t kernels, blocks, warp_insts, thread_insts, mem_insts;
    uint64_t max_warp_buffer;   /* most instructions any warp held at once (chunk bound) */
    uint64_t allocs;            /* device allocations (ALLOC commands) of the program */
    /* shadow memory (wl_shadow.h): global loads checked and stores applied at their emitted
     * addresses; overflow = 1 when the shadow passed its bound and verify used host arrays */
    uint64_t shadow_loads, shadow_stores;
    int shadow_overflow;
    uint64_t shadow_digest;     /* wl_shadow_digest at the end (opts.digest only, else 0) */
} gms_functional_result;
/* With a shadow memory (on): verify() sees the values at the emitted addresses. */
int gms_workload_run_functional(const gms_workload_ops *ops, const char *const *kv, uint64_t seed,
                                gms_functional_result *res, gms_error *err);
typedef struct gms_functional_opts {
    int shadow;                     /* 1: run with a shadow memory (wl_shadow.h) */
    uint64_t shadow_max_bytes;      /* its bound (0: WL_SHADOW_MAX_BYTES) */
    /* test hook: add perturb_delta bytes to one lane address of the nth store / load */
    uint64_t perturb_store, perturb_load;
    int64_t perturb_delta;
    int digest;                     /* 1: fill res->shadow_digest (hashes the whole shadow) */
} gms_functional_opts;
int gms_workload_run_functional_opts(const gms_workload_ops *ops, const char *const *kv, uint64_t seed,
                                     const gms_functional_opts *opts, gms_functional_result *res, gms_error *err);

#endif
