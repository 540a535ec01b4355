/* gms_emit_load_prog (lane l at base + l*step) records exactly what gms_emit_load records
 * for the same lane addresses built in an array: every field of the instruction and, for a
 * list, the same addresses, over every kind of mask (none, full, one lane, one run, holes). */
#include "test.h"
#include "frontend/emit.h"
#include "util/rng.h"
#include <stdlib.h>

static void same_record(uint32_t mask, uint64_t base, uint64_t step)
{
    gms_warp_trace a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    gms_emit ea, eb;
    gms_emit_begin(&ea, &a);
    gms_emit_begin(&eb, &b);
    uint64_t addrs[32];
    for (int l = 0; l < 32; l++) addrs[l] = base + (uint64_t)l * step;
    uint8_t ra = gms_emit_load(&ea, 0x40, mask, GMS_MEM_LD_GLOBAL, 4, addrs, 12);
    uint8_t rb = gms_emit_load_prog(&eb, 0x40, mask, GMS_MEM_LD_GLOBAL, 4, base, step, 12);
    CHECK_EQ(ra, rb);
    REQUIRE(a.n == 1 && b.n == 1);
    const gms_inst *x = &a.insts[0], *y = &b.insts[0];
    if (memcmp(x, y, sizeof *x)) printf("    mask %08x base %llx step %lld: records differ (modes %d %d)\n", mask,
                                        (unsigned long long)base, (long long)step, x->addr_mode, y->addr_mode);
    CHECK(memcmp(x, y, sizeof *x) == 0);
    CHECK_EQ(a.naddr, b.naddr);
    if (a.naddr == b.naddr && a.naddr) CHECK(memcmp(a.addrs, b.addrs, a.naddr * sizeof *a.addrs) == 0);
    uint64_t la[32], lb[32];
    CHECK_EQ(gms_inst_lane_addrs(&a, x, la), gms_inst_lane_addrs(&b, y, lb));
    for (uint32_t m = mask; m; m &= m - 1) CHECK_EQ(lb[__builtin_ctz(m)], addrs[__builtin_ctz(m)]);
    free(a.insts); free(a.addrs); free(b.insts); free(b.addrs);
}

TEST(emit_load_prog_matches_load)
{
    const uint32_t masks[] = { 0, 0xffffffffu, 1, 0x80000000u, 0xf0u, 0x0ffff000u, 0x5u, 0xff00ff00u, 0x7fffffffu,
                               0xfffffffeu };
    const uint64_t steps[] = { 0, 4, 8, 128, (uint64_t)-4 };
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++)
        for (size_t j = 0; j < sizeof steps / sizeof steps[0]; j++) same_record(masks[i], 0x7f000100, steps[j]);
    gms_rng r;
    gms_rng_seed(&r, 7);
    for (int t = 0; t < 2000; t++) {
        uint32_t mask = (uint32_t)gms_rng_next(&r);
        if (t & 1) {   /* one run of lanes */
            int lo = (int)(gms_rng_next(&r) % 32), n = 1 + (int)(gms_rng_next(&r) % (uint64_t)(32 - lo));
            mask = (uint32_t)(((1ULL << n) - 1) << lo);
        }
        same_record(mask, gms_rng_next(&r) & 0xffffffffffULL, steps[gms_rng_next(&r) % 5]);
    }
}
