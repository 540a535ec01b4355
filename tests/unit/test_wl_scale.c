/* `scale` on the workloads whose sizes are given directly (the seven microbenchmarks and cnn):
 * it multiplies their size parameters (the footprint shows the sizes used, hand-computed
 * below), a size it takes to zero clamps to the smallest valid problem and is counted in
 * gms_wl_clamped, a size given as zero without scale is still refused, and every one runs and
 * verifies at scale=0.01 (issue 19: every workload at scale=0.01). */
#include "test.h"
#include "wl_test_util.h"
#include "workloads/workload.h"
#include <string.h>

/* parse kv for `name`, create the workload; returns the footprint (0 on a refusal, the error
 * in *e) and the number of clamped sizes in *clamped */
static uint64_t fp_of(const char *name, const char *const *kv, int *clamped, gms_error *e)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    gms_wl_args *a = NULL;
    memset(e, 0, sizeof *e);
    *clamped = -1;
    if (!ops || gms_wl_args_parse(ops, kv, 1, &a, e)) return 0;
    gms_wl_args_quiet(a);
    void *st = NULL;
    uint64_t fp = 0;
    if (ops->create(a, &st, e) == 0) {
        fp = ops->footprint(a);
        *clamped = gms_wl_clamped(a);
        ops->destroy(st);
    }
    gms_wl_args_free(a);
    return fp;
}

TEST(wl_scale_micro_sizes)
{
    int c;
    gms_error e;
    /* stream: 3 arrays of n floats; n = 1000 * 0.5 */
    const char *s1[] = { "n=1000", "scale=0.5", NULL };
    CHECK_EQ(fp_of("stream", s1, &c, &e), 3 * 500 * 4);
    CHECK_EQ(c, 0);
    /* n = 1000 * 0.0001 = 0.1 rounds to 0: clamped to one element */
    const char *s2[] = { "n=1000", "scale=0.0001", NULL };
    CHECK_EQ(fp_of("stream", s2, &c, &e), 3 * 1 * 4);
    CHECK_EQ(c, 1);
    /* strided: a holds n*stride floats, b n; stride is not scaled */
    const char *s3[] = { "n=1000", "stride=8", "scale=0.25", NULL };
    CHECK_EQ(fp_of("strided", s3, &c, &e), 250 * 8 * 4 + 250 * 4);
    /* gather: 2 arrays of n + asize floats, both scaled */
    const char *s4[] = { "n=1000", "asize=4000", "scale=0.1", NULL };
    CHECK_EQ(fp_of("gather", s4, &c, &e), 2 * 100 * 4 + 400 * 4);
    /* pointer_chase: nodes*spacing bytes + n results; steps not scaled */
    const char *s5[] = { "n=100", "nodes=1000", "spacing=8", "scale=0.5", NULL };
    CHECK_EQ(fp_of("pointer_chase", s5, &c, &e), 500 * 8 + 50 * 4);
    /* transpose: 2 N x N matrices, N = 100 * 0.3 */
    const char *s6[] = { "N=100", "scale=0.3", NULL };
    CHECK_EQ(fp_of("transpose", s6, &c, &e), 2 * 30 * 30 * 4);
    /* reduce: blocks*block*k floats in, blocks*block out; blocks = 10 * 0.01 -> clamped to 1 */
    const char *s7[] = { "blocks=10", "block=32", "k=2", "scale=0.01", NULL };
    CHECK_EQ(fp_of("reduce", s7, &c, &e), 1 * 32 * 2 * 4 + 1 * 32 * 4);
    CHECK_EQ(c, 1);
    /* matvec: N x N matrix + 2 vectors; N = 200 * 0.5, cols = 64 * 0.5 */
    const char *s8[] = { "N=200", "scale=0.5", NULL };
    CHECK_EQ(fp_of("matvec", s8, &c, &e), 100 * 100 * 4 + 2 * 100 * 4);
    /* without scale the sizes are as given, and a size given as zero is refused, not clamped */
    const char *s9[] = { "n=1000", NULL };
    CHECK_EQ(fp_of("stream", s9, &c, &e), 3 * 1000 * 4);
    const char *z[] = { "n=0", "scale=0.5", NULL };
    CHECK_EQ(fp_of("stream", z, &c, &e), 0);
    CHECK(strstr(e.msg, "size of 0") != NULL);
    /* a scale that is not a positive number */
    const char *bad[] = { "scale=0", NULL };
    CHECK_EQ(fp_of("transpose", bad, &c, &e), 0);
    CHECK(strstr(e.msg, "scale=0 must be a positive number") != NULL);
}

TEST(wl_scale_cnn_images)
{
    int c;
    gms_error e;
    /* train=0 stays 0 (no clamp); test=1 * 0.01 rounds to 0 and clamps to one image */
    const char *k1[] = { "scale=0.01", NULL };
    CHECK(fp_of("cnn", k1, &c, &e) > 0);
    CHECK_EQ(c, 1);
    const char *k2[] = { "test=4", "scale=0.5", NULL };   /* 2 images: nothing clamped */
    CHECK(fp_of("cnn", k2, &c, &e) > 0);
    CHECK_EQ(c, 0);
    const char *bad[] = { "scale=0", NULL };
    CHECK_EQ(fp_of("cnn", bad, &c, &e), 0);
    CHECK(strstr(e.msg, "scale=0 must be a positive number") != NULL);
    WL_RUN("cnn", k1, 13);
}

TEST(wl_scale_micro_runs_at_0_01)
{
    static const char *const names[] = { "stream", "strided", "gather", "pointer_chase", "transpose", "reduce",
                                         "matvec" };
    const char *kv[] = { "scale=0.01", NULL };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) WL_RUN_BOTH(names[i], kv, 13);
}
