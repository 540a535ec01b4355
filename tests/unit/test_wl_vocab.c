/* The one workload vocabulary (wl_util.h, wl_clamp.h; issue 22 merged Rodinia's rw_* helpers
 * into it): the linear-thread warps of wl_block_begin, t0 in wl_warp_begin, the explicit-PC
 * emitters, wl_clamp_scaled with min 0 (Rodinia's old rw_scaled: no clamp), and the two
 * checks that came from rw_cmp_f / rw_cmp_i. Expectations computed by hand. */
#include "test.h"
#include "workloads/wl_clamp.h"
#include "workloads/wl_util.h"
#include "workloads/workload.h"
#include <stdio.h>
#include <string.h>

TEST(wl_block_begin_linear_warps)
{
    gms_block_trace bt;
    memset(&bt, 0, sizeof bt);
    wl_warp W[WL_MAXW];
    /* 40 threads: warp 0 full, warp 1 lanes 0-7 (threads 32..39) */
    CHECK_EQ(wl_block_begin(&bt, 40, W), 2);
    CHECK_EQ(bt.nwarps, 2);
    CHECK_EQ(W[0].live, 0xffffffffu);
    CHECK_EQ(W[1].live, 0xffu);
    CHECK_EQ(W[0].t0, 0);
    CHECK_EQ(W[1].t0, 32);
    CHECK(W[1].sh == NULL);
    uint32_t sum = 0, n = 0;
    WL_TLANES(&W[1], W[1].live, l, t) { sum += t; n++; }
    CHECK_EQ(n, 8);
    CHECK_EQ(sum, 32 + 33 + 34 + 35 + 36 + 37 + 38 + 39);
    /* explicit PCs: the cursor stays where it was */
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = 0x1000 + 4 * (uint64_t)l;
    uint8_t r = wl_int_at(&W[0], 0x40, 0xffffffffu, GMS_REG_NONE, GMS_REG_NONE);
    wl_ldg_at(&W[0], 0x48, 0xffffffffu, 4, a, r);
    wl_exit_at(&W[0], WL_PC_END, 0xffffffffu);
    CHECK_EQ(W[0].pc, 0);
    CHECK_EQ(bt.warps[0].n, 3);
    CHECK_EQ(bt.warps[0].insts[0].pc, 0x40);
    CHECK_EQ(bt.warps[0].insts[1].pc, 0x48);
    CHECK_EQ(bt.warps[0].insts[2].pc, 0xfff0);
    wl_bar_all(W, 2, 0x50);
    CHECK_EQ(bt.warps[0].n, 4);
    CHECK_EQ(bt.warps[1].n, 1);
    CHECK_EQ(bt.warps[1].insts[0].pc, 0x50);
    gms_block_trace_free(&bt);
}

TEST(wl_warp_begin_sets_t0)
{
    gms_block_trace bt;
    memset(&bt, 0, sizeof bt);
    gms_block_trace_reset(&bt, 3);
    wl_kernel k;
    memset(&k, 0, sizeof k);
    k.grid = wl_dim3(4, 1, 1);
    k.block = wl_dim3(16, 5, 1);   /* 80 threads: warps of 32, 32, 16 */
    wl_warp w;
    wl_warp_begin(&w, &bt, &k, 1, 2);
    CHECK_EQ(w.t0, 64);
    CHECK_EQ(w.live, 0xffffu);
    CHECK_EQ(w.tx[0], 0);
    CHECK_EQ(w.ty[0], 4);   /* thread 64 = (0, 4) in a 16-wide block */
    gms_block_trace_free(&bt);
}

/* nw's `dim` (default 2048) through wl_clamp_scaled with granule 16 */
static int scaled(const char *scale, uint64_t min, uint64_t *out, int *clamped, gms_error *e)
{
    const gms_workload_ops *ops = gms_workload_find("nw");
    char sk[32];
    snprintf(sk, sizeof sk, "scale=%s", scale);
    const char *kv[] = { "dim=100", sk, NULL };
    gms_wl_args *a = NULL;
    memset(e, 0, sizeof *e);
    if (!ops || gms_wl_args_parse(ops, kv, 1, &a, e)) return -2;
    gms_wl_args_quiet(a);
    int rc = wl_clamp_scaled(a, "nw", "dim", 16, min, 1 << 15, out, e);
    *clamped = gms_wl_clamped(a);
    gms_wl_args_free(a);
    return rc;
}

TEST(wl_clamp_scaled_min_zero_is_plain_scaling)
{
    uint64_t v;
    int c;
    gms_error e;
    /* 100 * 0.5 = 50, down to a multiple of 16: 48, with or without a minimum below it */
    CHECK_EQ(scaled("0.5", 0, &v, &c, &e), 0);
    CHECK_EQ(v, 48);
    CHECK_EQ(c, 0);
    CHECK_EQ(scaled("0.5", 16, &v, &c, &e), 0);
    CHECK_EQ(v, 48);
    /* 100 * 0.1 = 10 -> 0: min 0 refuses (no clamp), min 16 clamps to 16 and counts it */
    CHECK_EQ(scaled("0.1", 0, &v, &c, &e), -1);
    CHECK_EQ(v, 0);
    CHECK_EQ(c, 0);
    CHECK_CONTAINS(e.msg, "is zero");
    CHECK_EQ(scaled("0.1", 16, &v, &c, &e), 0);
    CHECK_EQ(v, 16);
    CHECK_EQ(c, 1);
}

TEST(wl_check_tol_and_i32)
{
    gms_error e;
    memset(&e, 0, sizeof e);
    /* tolerance 0.01 x max(1, |ref|): 0.009 off 0.5 passes, 0.011 fails; 0.9 off 100 passes */
    const float ref[3] = { 0.5f, 100.0f, -3.0f };
    const float ok[3] = { 0.509f, 100.9f, -3.02f };
    const float bad[3] = { 0.5f, 100.0f, -3.04f };
    CHECK_EQ(wl_check_f32_tol("t", "x", ok, ref, 3, 0.01, &e), 0);
    CHECK(wl_check_f32_tol("t", "x", bad, ref, 3, 0.01, &e) != 0);
    CHECK_CONTAINS(e.msg, "x[2]");
    const int32_t gi[3] = { 1, -2, 3 }, wi[3] = { 1, -2, 4 };
    CHECK_EQ(wl_check_i32("t", "y", gi, gi, 3, &e), 0);
    CHECK(wl_check_i32("t", "y", gi, wi, 3, &e) != 0);
    CHECK_CONTAINS(e.msg, "y[2] = 3, reference 4");
    /* a piece of an array checked at its offset: the error names the array's index */
    const float w4[4] = { 1, 2, 3, 4 }, g4[4] = { 1, 2, 3.5f, 4 };
    CHECK_EQ(wl_check_f32_from("t", "z", w4, w4, 4, 65536, 0, 0, &e), 0);
    CHECK(wl_check_f32_from("t", "z", g4, w4, 4, 65536, 0, 0, &e) != 0);
    CHECK_CONTAINS(e.msg, "z[65538] = 3.5");
}
