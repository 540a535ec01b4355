/* -gms_l1d_index_latency (spec 001 3.2: a hashed set index may cost cycles; "make it a
 * parameter"): one pipeline stage more in front of the L1D's tag lookup, so every access to
 * the L1D takes that many cycles more. One warp: load a line, use it, load it again (a hit),
 * use it, exit: two accesses on the dependent chain, so N cycles of index latency make the
 * run exactly 2N cycles longer. */
#include "test.h"
#include "sim_test_util.h"
#include "frontend/emit.h"

static int lfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = 0x10000ULL + 4u * (uint64_t)l;
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t v = gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, GMS_REG_NONE);
    uint8_t r = gms_emit_alu(&e, 0x20, 0xffffffffu, GMS_OP_INT, v, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t w = gms_emit_load(&e, 0x30, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    gms_emit_alu(&e, 0x40, 0xffffffffu, GMS_OP_INT, w, GMS_REG_NONE, GMS_REG_NONE);
    gms_emit_exit(&e, 0x50, 0xffffffffu);
    return 0;
}

/* the run's cycles; *hits its L1D hits */
static double lcycles(const char *index_latency, double *hits)
{
    simt_run r;
    double cyc = -1;
    if (!simt_run1(&r, "index_latency", 32, lfill,
                   (const char *const[]){ "gpgpu_clock_domains", "1000:1000:1000:1000", "gms_l1d_index_latency",
                                          index_latency, NULL })) {
        cyc = simt_stat(&r, "gpu_tot_sim_cycle");
        *hits = simt_stat(&r, "L1D_total_cache_accesses") - simt_stat(&r, "L1D_total_cache_misses");
    }
    simt_free(&r);
    return cyc;
}

TEST(l1d_index_latency_adds_to_every_access)
{
    double h0 = -1, h5 = -1;
    double c0 = lcycles("0", &h0), c5 = lcycles("5", &h5);
    printf("    %.0f -> %.0f cycles, hits %.0f / %.0f\n", c0, c5, h0, h5);
    CHECK(c0 > 0);
    CHECK_EQ(h0, 1);   /* the second load hits */
    CHECK_EQ(h5, 1);
    CHECK_EQ((long long)(c5 - c0), 10);
}
