/* Helpers for the Parboil workloads (parboil_*.c, docs/workloads-parboil.md): a declarative
 * table of device arrays (4-byte float or integer elements, or 2-byte ones), and the generic
 * create / next / verify / destroy / footprint around a workload's own sizes, input
 * generator, launches and CPU reference.
 *
 *   create:  def->sizes() reads the size parameters (scaled, clamped: wl_clamp.h), repeat is
 *            checked, every array is allocated on the host and def->init() generates the
 *            inputs from the seed (the Parboil input files become generators, see the docs)
 *   next:    cudaMalloc of every array in table order, its host contents to the shadow memory
 *            (wl_shadow.h), H2D of the inputs, `repeat` x def->launch(), D2H of the outputs
 *   verify:  fresh arrays, def->init(), `repeat` x def->cpu(), and the arrays marked `check`
 *            compared (floats with rtol/atol, integers exactly), read from the shadow memory
 *            at their device addresses in functional verify runs
 * PBL_WORKLOAD(sym, ...) defines `const gms_workload_ops gms_wl_parboil_<sym>`. */
#ifndef GMS_WORKLOADS_PARBOIL_UTIL_H
#define GMS_WORKLOADS_PARBOIL_UTIL_H
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"

#define PBL_MAX_DIMS 16
#define PBL_MAX_ARRS 12

enum { PBL_F32 = 0, PBL_U32, PBL_U16, PBL_U8 };

typedef struct pbl_arr_def {
    const char *name;
    int copy_in, copy_out;   /* cudaMemcpy H2D before the kernels / D2H after */
    int check;               /* compared with the CPU reference by verify */
    int type;                /* PBL_F32, PBL_U32 (any 4-byte integer), PBL_U16, PBL_U8 */
    int host;                /* 1: host-only data of the program (no device allocation) */
} pbl_arr_def;

typedef struct pbl_state pbl_state;

typedef struct pbl_def {
    const char *name;
    pbl_arr_def arrs[PBL_MAX_ARRS];                       /* cudaMalloc order, {NULL}-terminated */
    /* dim[] from the parameters (wl_clamp_scaled etc.); error naming the parameter */
    int (*sizes)(const gms_wl_args *a, uint64_t *dim, gms_error *err);
    uint64_t (*elems)(const uint64_t *dim, int arr);       /* elements of array `arr` */
    void (*init)(const pbl_state *s, void **h);            /* generate the inputs in h[] */
    /* one repetition (number rep, from 0) of the kernels, and of the CPU reference */
    void (*launch)(pbl_state *s, gms_program *p, uint64_t rep);
    void (*cpu)(const pbl_state *s, void **h, uint64_t rep);
    double rtol, atol;                                     /* float comparison tolerance */
} pbl_def;

struct pbl_state {
    const pbl_def *def;
    uint64_t dim[PBL_MAX_DIMS];
    uint64_t repeat, seed;
    int narr;
    uint64_t n[PBL_MAX_ARRS];    /* elements per array */
    void *h[PBL_MAX_ARRS];       /* host copy = device contents (the kernels update it) */
    uint64_t d[PBL_MAX_ARRS];    /* device address */
    wl_shadow *sh;
    int done;
    void *aux;                   /* the workload's host-only data (freed with the state) */
};

int pbl_create(const pbl_def *def, const gms_wl_args *a, void **state, gms_error *err);
int pbl_next(void *state, gms_program *p, gms_error *err);
int pbl_verify(void *state, gms_error *err);
void pbl_destroy(void *state);
uint64_t pbl_footprint(const pbl_def *def, const gms_wl_args *a);

static inline size_t pbl_esize(int type) { return type == PBL_U16 ? 2 : type == PBL_U8 ? 1 : 4; }
#define PBL_F(s, k) ((float *)(s)->h[k])
#define PBL_I(s, k) ((int32_t *)(s)->h[k])
#define PBL_U(s, k) ((uint32_t *)(s)->h[k])
/* device address of element e of array k */
static inline uint64_t pbl_addr(const pbl_state *s, int k, uint64_t e)
{
    return s->d[k] + e * pbl_esize(s->def->arrs[k].type);
}

/* a*b + c as the kernels' FFMA: rounded twice here (x86-64's baseline has no FMA instruction,
 * so fmaf is a libm call, a third of sgemm's generation time); the model and the CPU
 * reference use the same expression, so their results agree bit for bit */
#define PBL_MAD(a, b, c) ((a) * (b) + (c))

/* a counted loop's back edge as nvcc emits it: IADD3 (counter), ISETP, BRA (`more`: lanes
 * that loop again) */
static inline void pbl_loop_back(wl_warp *w, uint32_t mask, uint32_t more, uint8_t ctr)
{
    uint8_t c = wl_int(w, mask, ctr, GMS_REG_NONE);
    wl_pred(w, mask, c, GMS_REG_NONE);
    wl_bra(w, more);
}

#define PBL_WORKLOAD(sym, wname, DEF, PARAMS, DOMAIN, RI, SUMMARY)                                  \
    static int pbl_##sym##_create(const gms_wl_args *a, void **st, gms_error *e) { return pbl_create(&DEF, a, st, e); } \
    static uint64_t pbl_##sym##_footprint(const gms_wl_args *a) { return pbl_footprint(&DEF, a); } \
    const gms_workload_ops gms_wl_parboil_##sym = {                                                 \
        .name = wname, .suite = "parboil", .domain = DOMAIN, .ri = RI, .summary = SUMMARY,          \
        .params = PARAMS, .create = pbl_##sym##_create, .next = pbl_next, .verify = pbl_verify,     \
        .destroy = pbl_destroy, .footprint = pbl_##sym##_footprint,                                 \
    }

#endif
