/* The arithmetic of the CKE schemes, apart from the simulator so that tests can check it by
 * hand: QBMI's quotas, DMIL's limit update, SMK-P's dominant-resource-fair partition and
 * Warped-Slicer's sweet point (spec 001 sections 4.3-4.5). */
#include "cke/cke.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) { uint64_t t = a % b; a = b; b = t; }
    return a;
}

void gms_qbmi_quotas(const uint32_t *rpm, uint32_t n, int64_t *quota)
{
    uint64_t l = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t r = rpm[i] ? rpm[i] : 1;
        /* gms_qbmi_rpm gives at most 32 x GMS_QBMI_MAX_SCALE = 2^15: the LCM of 3 is below 2^45 */
        l = l / gcd64(l, r) * r;
    }
    for (uint32_t i = 0; i < n; i++) quota[i] = (int64_t)(l / (rpm[i] ? rpm[i] : 1));
}

void gms_qbmi_rpm(const uint64_t *req, const uint64_t *minst, uint32_t n, uint32_t *rpm)
{
    /* each ratio as r[i] / m[i], capped at 32 requests per instruction; the smallest is
     * r[lo] / m[lo] (compared by cross-multiplying: no floating point, so the rounding is
     * the same on every host) */
    uint64_t r[GMS_CKE_MAX_APPS], m[GMS_CKE_MAX_APPS];
    uint32_t lo = 0;
    for (uint32_t i = 0; i < n; i++) {
        m[i] = minst[i] ? minst[i] : 1;
        r[i] = req[i] ? req[i] : 1;   /* (an interval has >= 1 request; a guard against 0 / m) */
        if (r[i] > 32 * m[i]) r[i] = 32 * m[i];
        if (r[i] * m[lo] < r[lo] * m[i]) lo = i;
    }
    /* below 1 request per instruction (shared-memory instructions counted, -gms_cke_bmi_insts
     * lsu) rounding alone sends a ratio to 0, clamped to 1, and breaks the LCM's balance: scale
     * all by one factor, which leaves their proportions, the integer nearest 1 / smallest
     * (k x smallest >= 1 - smallest / 2 >= 0.5: it rounds to >= 1). Nearest, not ceil: above
     * 2/3 k stays 1, so a ratio of global accesses a hair under 1 (instructions issued at the
     * end of an interval whose requests count in the next) keeps the plain rounding */
    uint64_t k = 1;
    if (n && r[lo] < m[lo]) k = (2 * m[lo] + r[lo]) / (2 * r[lo]);
    if (k > GMS_QBMI_MAX_SCALE) k = GMS_QBMI_MAX_SCALE;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = (k * r[i] + m[i] / 2) / m[i];
        rpm[i] = v ? (uint32_t)v : 1;   /* (0 only when k was capped) */
    }
}

uint32_t gms_dmil_limit(uint32_t max_inflight, uint64_t rf, uint32_t rf_bits, uint32_t ilog2)
{
    uint64_t cap = rf_bits >= 63 ? UINT64_MAX : (1ULL << rf_bits) - 1;
    if (rf > cap) rf = cap;                  /* the hardware counter saturates */
    uint64_t per = rf >> ilog2;              /* reservation fails per request, rounded down */
    if (per == 0) return 0;                  /* under one per request: the goal is met, no limit */
    uint64_t lim = max_inflight / per;
    return lim < 1 ? 1 : (uint32_t)lim;
}

int gms_cke_fits(const gms_cke_shape *sh, uint32_t n, const gms_cke_sm_limits *lim, const uint32_t *t)
{
    uint64_t th = 0, rg = 0, sm = 0, bl = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (t[k] > sh[k].occ) return 0;
        th += (uint64_t)t[k] * sh[k].threads;
        rg += (uint64_t)t[k] * sh[k].regs;
        sm += (uint64_t)t[k] * sh[k].shmem;
        bl += t[k];
    }
    return th <= lim->threads && rg <= lim->regs && sm <= lim->shmem && bl <= lim->blocks;
}

/* a kernel's dominant share with t blocks: its largest fraction of any SM resource */
static double dominant_share(const gms_cke_shape *s, const gms_cke_sm_limits *lim, uint32_t t)
{
    double f[4] = { (double)t * s->threads / lim->threads, (double)t * s->regs / (lim->regs ? lim->regs : 1),
                    (double)t * s->shmem / (lim->shmem ? lim->shmem : 1), (double)t / lim->blocks };
    double m = 0;
    for (int i = 0; i < 4; i++) if (f[i] > m) m = f[i];
    return m;
}

void gms_drf_partition(const gms_cke_shape *sh, uint32_t n, const gms_cke_sm_limits *lim, uint32_t *t)
{
    int blocked[GMS_CKE_MAX_APPS] = {0};
    for (uint32_t k = 0; k < n; k++) t[k] = 0;
    for (;;) {
        /* the kernel with the smallest dominant share that can still take a block (ties: the
         * first kernel) */
        int best = -1;
        double bs = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (blocked[k]) continue;
            double d = dominant_share(&sh[k], lim, t[k]);
            if (best < 0 || d < bs) { best = (int)k; bs = d; }
        }
        if (best < 0) return;
        t[best]++;
        if (!gms_cke_fits(sh, n, lim, t)) { t[best]--; blocked[best] = 1; }
    }
}

double gms_ws_sweet_point(const gms_cke_shape *sh, uint32_t n, const gms_cke_sm_limits *lim,
                          const double *const *perf, uint32_t *t)
{
    uint32_t cur[GMS_CKE_MAX_APPS];
    double best_min = -1, best_sum = -1;
    for (uint32_t k = 0; k < n; k++) { cur[k] = 1; t[k] = 0; }
    for (;;) {
        if (gms_cke_fits(sh, n, lim, cur)) {
            double mn = 1e300, sum = 0;
            for (uint32_t k = 0; k < n; k++) {
                double alone = perf[k][sh[k].occ - 1];
                double v = alone > 0 ? perf[k][cur[k] - 1] / alone : 0;
                if (v < mn) mn = v;
                sum += v;
            }
            if (mn > best_min + 1e-12 || (mn > best_min - 1e-12 && sum > best_sum + 1e-12)) {
                best_min = mn;
                best_sum = sum;
                for (uint32_t k = 0; k < n; k++) t[k] = cur[k];
            }
        }
        /* next combination (odometer over 1..occ_k) */
        uint32_t k = 0;
        while (k < n && ++cur[k] > sh[k].occ) cur[k++] = 1;
        if (k == n) break;
    }
    return best_sum < 0 ? -1 : best_sum;   /* nothing fits: t stays 0 */
}

uint32_t gms_cke_one_each_over(const gms_cke_shape *sh, uint32_t n, const gms_cke_sm_limits *lim)
{
    uint64_t th = 0, rg = 0, sm = 0;
    for (uint32_t k = 0; k < n; k++) { th += sh[k].threads; rg += sh[k].regs; sm += sh[k].shmem; }
    return (th > lim->threads ? GMS_CKE_RES_THREADS : 0u) | (rg > lim->regs ? GMS_CKE_RES_REGS : 0u) |
           (sm > lim->shmem ? GMS_CKE_RES_SHMEM : 0u) | (n > lim->blocks ? GMS_CKE_RES_BLOCKS : 0u);
}

int gms_cke_check_coresident(const gms_cke_plan_ctx *x, const char *scheme, gms_error *err)
{
    uint32_t over = gms_cke_one_each_over(x->shape, x->napps, &x->lim);
    if (!over) return 0;
    char names[64] = "", res[160] = "";
    size_t nl = 0, rl = 0;
    uint64_t need[4] = {0};
    for (uint32_t k = 0; k < x->napps; k++) {
        nl += (size_t)snprintf(names + nl, nl < sizeof names ? sizeof names - nl : 0, "%s%s", k ? "+" : "",
                               x->name[k] ? x->name[k] : "?");
        need[0] += x->shape[k].threads; need[1] += x->shape[k].regs; need[2] += x->shape[k].shmem; need[3]++;
    }
    static const char *const what[4] = { "threads", "registers", "bytes of shared memory", "block slots" };
    const uint64_t have[4] = { x->lim.threads, x->lim.regs, x->lim.shmem, x->lim.blocks };
    for (int i = 0; i < 4; i++)
        if (over >> i & 1)
            rl += (size_t)snprintf(res + rl, rl < sizeof res ? sizeof res - rl : 0, "%s%llu %s (an SM has %llu)", rl ? ", " : "",
                                   (unsigned long long)need[i], what[i], (unsigned long long)have[i]);
    return gms_err(err, "-gms_cke_tb %s: the kernels of %s cannot share an SM: one block of each needs %s, "
                   "and the scheme gives every kernel at least one block beside the others", scheme, names, res);
}
