/* The "-best" variant form of claim metrics (A|B|C: per workload, the variant with the highest
 * IPC), used by the mdb study's SWL-best and CBWT-best, on hand-made values. */
#include "test.h"
#include "harness/claims.h"
#include <math.h>
#include <string.h>

/* two workloads w0 (hcc) and w1 (hcc); IPC and hits per variant */
static const char *const wl[] = { "w0", "w1" }, *const grp[] = { "hcc", "hcc" };
static int fake_vec(void *ctx, const char *stat, const char *variant, gms_cvec *out, char *msg, size_t msgn)
{
    static double v[2];
    (void)ctx;
    int ipc = !strcmp(stat, "gpu_tot_ipc");
    if (!strcmp(variant, "base")) { v[0] = 1; v[1] = 2; }
    else if (!strcmp(variant, "k1")) { v[0] = ipc ? 3 : 30; v[1] = ipc ? 2 : 20; }
    else if (!strcmp(variant, "k2")) { v[0] = ipc ? 2 : 40; v[1] = ipc ? 4 : 10; }
    else { snprintf(msg, msgn, "no variant '%s'", variant); return -1; }
    *out = (gms_cvec){ 2, v, wl, grp };
    return 0;
}

static double eval(const char *text)
{
    char msg[256] = "";
    const char *end;
    gms_cexpr *e = gms_cexpr_parse(text, &end, msg, sizeof msg);
    if (!e) { printf("    %s\n", msg); return NAN; }
    gms_cenv env = { .vec = fake_vec };
    double r = gms_cexpr_eval(e, &env, msg, sizeof msg);
    if (isnan(r)) printf("    %s\n", msg);
    gms_cexpr_free(e);
    return r;
}

TEST(claims_best_of_variants)
{
    /* best IPC: w0 k1 (3), w1 k2 (4) -> speedups 3/1 and 4/2, geometric mean sqrt(6) */
    CHECK_NEAR(eval("speedup(gpu_tot_ipc, k1|k2, base, hcc)"), sqrt(6.0), 1e-12);
    /* another stat follows the IPC winner: hits 30 (w0 under k1) and 10 (w1 under k2) */
    CHECK_NEAR(eval("sum(hits, k1|k2)"), 40, 1e-12);
    CHECK(isnan(eval("sum(hits, k1|k9)")));   /* an unknown alternative is an error */
}

/* r2(): the cubic RF model's fit (claim C2.4). Base RF {8, 4}; static points s1: RF {1, 1},
 * model {1/8, 1/8}; s2: RF {4, 4}, model {1/2, 1}. Ratios y = 1/8, 1/4, 1/2, 1 against 1/8,
 * 1/8, 1/2, 1: residual sum 1/64; mean y 15/32, total sum of squares 85/64 - 4 (15/32)^2 =
 * 115/256; R^2 = 1 - (1/64) / (115/256) = 1 - 4/115. */
static int fit_vec(void *ctx, const char *stat, const char *variant, gms_cvec *out, char *msg, size_t msgn)
{
    static double v[2];
    (void)ctx;
    int model = !strcmp(stat, "model");
    if (!model && strcmp(stat, "rf")) { snprintf(msg, msgn, "no stat '%s'", stat); return -1; }
    if (!strcmp(variant, "base")) { v[0] = model ? 1 : 8; v[1] = model ? 1 : 4; }
    else if (!strcmp(variant, "s1")) { v[0] = model ? 0.125 : 1; v[1] = model ? 0.125 : 1; }
    else if (!strcmp(variant, "s2")) { v[0] = model ? 0.5 : 4; v[1] = model ? 1 : 4; }
    else { snprintf(msg, msgn, "no variant '%s'", variant); return -1; }
    *out = (gms_cvec){ 2, v, wl, grp };
    return 0;
}

static double eval_fit(const char *text)
{
    char msg[256] = "";
    const char *end;
    gms_cexpr *e = gms_cexpr_parse(text, &end, msg, sizeof msg);
    if (!e) { printf("    %s\n", msg); return NAN; }
    gms_cenv env = { .vec = fit_vec };
    double r = gms_cexpr_eval(e, &env, msg, sizeof msg);
    gms_cexpr_free(e);
    return r;
}

TEST(claims_r2_cubic_fit)
{
    CHECK_NEAR(eval_fit("r2(rf, s1+s2, base, model)"), 1.0 - 4.0 / 115.0, 1e-12);
    CHECK_NEAR(eval_fit("r2(rf, s1+s2, base, model, hcc)"), 1.0 - 4.0 / 115.0, 1e-12);
    /* w0 alone: y = 1/8, 1/2, predicted exactly */
    CHECK_NEAR(eval_fit("r2(rf, s1+s2, base, model, w0)"), 1.0, 1e-12);
    /* w1 alone: y = 1/4, 1 against 1/8, 1: 1 - (1/64) / (9/32) = 1 - 1/18 */
    CHECK_NEAR(eval_fit("r2(rf, s1+s2, base, model, w1)"), 1.0 - 1.0 / 18.0, 1e-12);
    CHECK(isnan(eval_fit("r2(rf, s1+s9, base, model)")));    /* an unknown variant */
    CHECK(isnan(eval_fit("r2(rf, s1, base, model, w0)")));    /* one point: no spread */
    CHECK(isnan(eval_fit("r2(rf, s1+s2, base, model, lcc)")));  /* no workload selected */
}
