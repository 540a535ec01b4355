/* Concurrent kernel execution (spec 001 chapter 4, docs/cke.md): several applications share
 * the GPU for a fixed window; a kernel that finishes is followed by the application's next one
 * and the application restarts when its program is over.
 *
 * Two policy families, each a function-pointer table with a registry:
 *  - block partition (-gms_cke_tb): how many thread blocks of each kernel an SM may hold, and
 *    on which SMs (greedy, spatial, manual, Warped-Slicer, SMK-P);
 *  - memory issue (-gms_cke_mi): which kernel's warps may issue an instruction on an SM (none,
 *    RBMI, QBMI, SMIL, DMIL, QBMI+DMIL, SMK-W).
 * The SM calls the hooks below only when a multiprogrammed run gave it a gms_cke_sm. */
#ifndef GMS_CKE_CKE_H
#define GMS_CKE_CKE_H
#include <stdint.h>
#include "cke/cke_params.h"
#include "util/err.h"
#include "util/registry.h"

/* ------------------------------------------------------------- per SM, per application */

/* the request series (Fig. 32-34): requests per kernel in periods of GMS_CKE_SAMPLE_EVERY
 * cycles, the first GMS_CKE_SAMPLES of them (the dissertation plots 100 of 1000 cycles) */
#define GMS_CKE_SAMPLE_EVERY 1000
#define GMS_CKE_SAMPLES 100

typedef struct gms_cke_app_sm {
    /* MIL: in-flight global memory instructions (issued, not every request back) */
    uint32_t inflight, max_inflight;
    uint32_t limit;               /* 0: no limit */
    /* this interval (gms_cke_params.interval requests) */
    uint64_t req_iv, minst_iv, rf_iv;
    uint32_t rpm;                 /* latest requests per memory instruction, rounded, >= 1 */
    /* the latest interval's requests and GMS_CKE_BMI instructions, QBMI's Req/Minst as a
     * fraction (gms_qbmi_rpm); rpm_minst 0: not measured yet, rpm stands (initially 1) */
    uint64_t rpm_req, rpm_minst;
    int64_t quota;                /* QBMI: memory instructions left in this round */
    int64_t wquota;               /* SMK-W: warp instructions left in this epoch */
    uint64_t demand_at;           /* 1 + the last cycle a ready instruction of it met the gate */
    uint64_t last_issue;          /* cycle of its last issued instruction */
    uint32_t blocks_here;         /* its thread blocks resident on the SM (kept by sm.c) */
    /* statistics */
    uint64_t tinst, winst, reqs, l1_acc, l1_miss, l1_rf, lsu_stall, denied;
    uint64_t minst;               /* GMS_CKE_BMI warp instructions: what RBMI/QBMI balance (knob-dependent) */
    uint64_t ginst;               /* global and local memory warp instructions (GMS_CKE_MIL): the requests' */
    uint64_t linst;               /* warp instructions the LSU executes (GMS_CKE_LSU), whatever the knob */
    uint64_t sinst;               /* SFU warp instructions (of winst) */
    uint32_t peak_inflight;       /* most memory instructions in flight at once */
    uint32_t req_t[GMS_CKE_SAMPLES];   /* requests in each of the first sample periods */
} gms_cke_app_sm;

struct gms_cke_mi_ops;
struct gms_ucp;
typedef struct gms_cke_sm {
    const struct gms_cke_mi_ops *mi;
    const gms_cke_params *c;
    uint32_t napps;
    uint32_t rr_turn;             /* RBMI: the kernel whose turn it is */
    uint32_t wq_share[GMS_CKE_MAX_APPS];   /* SMK-W: each kernel's quota per epoch */
    gms_cke_app_sm a[GMS_CKE_MAX_APPS];
    struct gms_ucp *ucp;          /* ws-ucp: the L1D's way partition (cke_ucp.h); else NULL */
} gms_cke_sm;

/* ------------------------------------------------------------- memory-issue family */

/* What an instruction is to the memory-issue schemes (sm.c cke_mem_kind): GMS_CKE_BMI, one that
 * RBMI and QBMI balance (a turn, a quota, Req/Minst's denominator, demand at the gate: global
 * and local accesses, and under -gms_cke_bmi_insts lsu shared, constant and texture ones too);
 * GMS_CKE_MIL, one the in-flight limits count (global and local accesses, whose completion is
 * tracked). At issue only (gms_cke_issued, for the statistics): GMS_CKE_SFU, an SFU
 * instruction; GMS_CKE_LSU, any instruction the LSU executes (GMS_OP_MEM) whatever
 * -gms_cke_bmi_insts says, so that ALU utilisation and Cinst/Minst do not depend on that
 * QBMI knob (an instruction with GMS_CKE_BMI or GMS_CKE_MIL counts as one too). */
enum { GMS_CKE_BMI = 1, GMS_CKE_MIL = 2, GMS_CKE_SFU = 4, GMS_CKE_LSU = 8 };

typedef struct gms_cke_mi_ops {
    const char *name;             /* -gms_cke_mi value (before any ":args") */
    const char *summary;
    const char *const *knobs;     /* its own options' name prefixes, NULL-ended (registry.h knobs_off); may be NULL */
    /* may a ready instruction of kernel `app` issue now? is_mem: what the instruction is to
     * the schemes, GMS_CKE_BMI and/or GMS_CKE_MIL bits (below), 0 for any other. NULL: always. */
    int (*gate)(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now);
    /* an instruction of `app` issued */
    void (*issued)(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now);
    /* `app` issued gms_cke_params.interval requests since the last call (its interval
     * counters are reset after this) */
    void (*interval)(gms_cke_sm *cs, uint32_t app);
    /* set up a fresh SM state (limits, quotas) */
    void (*init)(gms_cke_sm *cs);
    /* the LSU's priority among the kernels' memory instructions waiting for it (larger first;
     * ties to the oldest). NULL: the oldest. */
    int64_t (*prio)(const gms_cke_sm *cs, uint32_t app);
} gms_cke_mi_ops;

extern const gms_registry gms_cke_mi_reg;
const gms_cke_mi_ops *gms_cke_mi_at(long i);

/* ------------------------------------------------------------- block-partition family */

/* what a partition scheme knows of one kernel: its block's static resources */
typedef struct gms_cke_shape {
    uint32_t threads, regs, shmem;   /* per block (threads padded to warps) */
    uint32_t occ;                    /* blocks of it one SM holds alone */
} gms_cke_shape;

typedef struct gms_cke_sm_limits { uint32_t threads, regs, shmem, blocks; } gms_cke_sm_limits;

struct gms_cke_plan_ctx;
typedef struct gms_cke_plan {
    uint32_t cap[GMS_CKE_MAX_APPS];        /* blocks per SM (0: its occupancy) */
    uint32_t sm_lo[GMS_CKE_MAX_APPS], sm_hi[GMS_CKE_MAX_APPS];   /* SMs [lo, hi) */
    double predicted_stp;                  /* Warped-Slicer's prediction (0 otherwise) */
} gms_cke_plan;

typedef struct gms_cke_plan_ctx {
    uint32_t napps, n_sm;
    const char *name[GMS_CKE_MAX_APPS];   /* the applications' abbreviations (messages; may be NULL) */
    gms_cke_shape shape[GMS_CKE_MAX_APPS];
    gms_cke_sm_limits lim;
    const gms_cke_params *c;
    /* Warped-Slicer: IPC of kernel `app` alone on the GPU with at most t blocks per SM */
    int (*profile)(void *ud, uint32_t app, uint32_t t, double *ipc, gms_error *err);
    void *ud;
} gms_cke_plan_ctx;

typedef struct gms_cke_tb_ops {
    const char *name;
    const char *summary;
    const char *const *knobs;     /* its own options' name prefixes, NULL-ended (registry.h knobs_off); may be NULL */
    int (*plan)(const gms_cke_plan_ctx *ctx, gms_cke_plan *out, gms_error *err);
    int l1_ucp;                   /* also partition each L1D's ways by UCP (cke_ucp.h) */
} gms_cke_tb_ops;

extern const gms_registry gms_cke_tb_reg;
const gms_cke_tb_ops *gms_cke_tb_at(long i);

/* ------------------------------------------------------------- the schemes' arithmetic */

/* QBMI quotas: quota_i = LCM(rpm_0..rpm_n-1) / rpm_i (rpm_i >= 1). bp(2) + ks(17): 17 and 2. */
void gms_qbmi_quotas(const uint32_t *rpm, uint32_t n, int64_t *quota);
/* QBMI's integer Req/Minst of each kernel from its measured req[i] / minst[i]: each ratio
 * capped at 32, then, when the smallest is below 1, every ratio multiplied by the same
 * k = round(1 / smallest) (at most GMS_QBMI_MAX_SCALE) before rounding to the nearest integer
 * >= 1, so that the LCM keeps quota x Req/Minst about equal across kernels (docs/cke.md,
 * QBMI). With the smallest >= 2/3, k = 1: the plain rounding. bp 0.37 + ks 17.1: k 3 -> 1
 * and 51 (plain: 0 -> 1 and 17). */
#define GMS_QBMI_MAX_SCALE 1024
void gms_qbmi_rpm(const uint64_t *req, const uint64_t *minst, uint32_t n, uint32_t *rpm);
/* DMIL: the new in-flight limit of a kernel after an interval of 2^ilog2 requests with
 * `rf` reservation fails (counted in an rf_bits-wide saturating counter) and at most
 * max_inflight memory instructions in flight: max_inflight / (rf >> ilog2), at least 1;
 * 0 (no limit) when fewer than one fail per request. */
uint32_t gms_dmil_limit(uint32_t max_inflight, uint64_t rf, uint32_t rf_bits, uint32_t ilog2);
/* DRF (SMK-P): blocks per SM per kernel, one at a time to the kernel with the smallest
 * dominant share that still fits */
void gms_drf_partition(const gms_cke_shape *sh, uint32_t n, const gms_cke_sm_limits *lim, uint32_t *t);
/* does the combination t fit on one SM? */
int gms_cke_fits(const gms_cke_shape *sh, uint32_t n, const gms_cke_sm_limits *lim, const uint32_t *t);
/* Warped-Slicer's sweet point: perf[k][t-1] = kernel k's performance with t blocks per SM
 * (t = 1..sh[k].occ); the feasible combination (every t_k >= 1) maximising the minimum of
 * perf_k(t_k) / perf_k(occ_k), ties to the larger sum (the predicted STP, returned). -1 (t
 * all 0) when no combination fits, i.e. one block of each kernel does not. */
double gms_ws_sweet_point(const gms_cke_shape *sh, uint32_t n, const gms_cke_sm_limits *lim,
                          const double *const *perf, uint32_t *t);
/* the SM resources one block of every kernel together exceeds: bits GMS_CKE_RES_* (0: they
 * fit, so every partition scheme can give each kernel a block) */
enum { GMS_CKE_RES_THREADS = 1, GMS_CKE_RES_REGS = 2, GMS_CKE_RES_SHMEM = 4, GMS_CKE_RES_BLOCKS = 8 };
uint32_t gms_cke_one_each_over(const gms_cke_shape *sh, uint32_t n, const gms_cke_sm_limits *lim);
/* a block-partition scheme's error when one block of every kernel does not fit on an SM (the
 * kernels cannot co-reside): names the kernels and the resources; 0 when they fit */
int gms_cke_check_coresident(const gms_cke_plan_ctx *x, const char *scheme, gms_error *err);

/* ------------------------------------------------------------- SM hooks (sm.c) */

/* mi: the scheme (gms_cke_mi_at); wq_share: SMK-W's quota per kernel (NULL: 1 each) */
void gms_cke_sm_init(gms_cke_sm *cs, const gms_cke_params *c, uint32_t napps, const gms_cke_mi_ops *mi,
                     const uint32_t *wq_share);
/* may a ready instruction issue (the scheme's gate)? */
static inline int gms_cke_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    return !cs->mi->gate || cs->mi->gate(cs, app, is_mem, now);
}
void gms_cke_issued(gms_cke_sm *cs, uint32_t app, int is_mem, uint32_t threads, uint64_t now);
/* a memory instruction of app reached the LSU with nreq requests at core cycle now */
void gms_cke_requests(gms_cke_sm *cs, uint32_t app, uint32_t nreq, uint64_t now);
/* the LSU's priority for a waiting memory instruction of app */
static inline int64_t gms_cke_take_prio(const gms_cke_sm *cs, uint32_t app)
{
    return cs->mi->prio ? cs->mi->prio(cs, app) : 0;
}
/* a memory instruction of app was ready for the LSU in cycle now (taken or not): demand at the
 * issue gate in this cycle and the next */
static inline void gms_cke_waiting(gms_cke_sm *cs, uint32_t app, uint64_t now) { cs->a[app].demand_at = now + 1; }
/* an in-flight memory instruction of app completed */
static inline void gms_cke_mem_done(gms_cke_sm *cs, uint32_t app) { if (cs->a[app].inflight) cs->a[app].inflight--; }
/* UCP (ws-ucp, cke_ucp.c): before an L1D access of app, restrict the cache's victims to the
 * kernel's ways; after one that was not a reservation fail, let its UMON see the address */
struct gms_cache;
void gms_cke_ucp_before(gms_cke_sm *cs, struct gms_cache *l1, uint32_t app);
void gms_cke_ucp_after(gms_cke_sm *cs, uint32_t app, uint64_t addr);
/* an L1D access of app: hit (0), miss (1) or reservation fail (2) */
static inline void gms_cke_l1(gms_cke_sm *cs, uint32_t app, int outcome)
{
    gms_cke_app_sm *a = &cs->a[app];
    if (outcome == 2) { a->l1_rf++; a->rf_iv++; return; }
    a->l1_acc++;
    a->l1_miss += (uint64_t)outcome;
}

#endif
