/* Global atomics as GPGPU-Sim coalesces them (memory_coalescing_arch_atomic): lanes whose
 * bytes overlap never share a request. Every expectation below is counted by hand from the
 * lane pattern: a segment costs as many requests as the most lanes on any one of its bytes. */
#include "test.h"
#include "core/sm.h"

/* lane i at base + (i % period) * step */
static void pattern(uint64_t a[32], uint64_t base, uint32_t period, uint32_t step)
{
    for (uint32_t i = 0; i < 32; i++) a[i] = base + (uint64_t)(i % period) * step;
}

/* every request of t[0..n) is one 32 B sector at `addr`, chunk bit `mask`, `bytes` bytes */
static int all_sector(const gms_txn *t, int n, uint64_t addr, uint8_t mask, uint16_t bytes)
{
    for (int i = 0; i < n; i++)
        if (t[i].addr != addr || t[i].sector_mask != mask || t[i].nbytes_sectors != 1 || t[i].bytes != bytes) {
            printf("    request %d: addr %#llx mask %#x sectors %u bytes %u\n", i, (unsigned long long)t[i].addr,
                   t[i].sector_mask, t[i].nbytes_sectors, t[i].bytes);
            return 0;
        }
    return 1;
}

TEST(atomic_segment_sizes_follow_gpgpusim)
{
    CHECK_EQ(gms_atomic_segment(70, 4), 32);    /* Volta: sectors */
    CHECK_EQ(gms_atomic_segment(70, 8), 32);
    CHECK_EQ(gms_atomic_segment(70, 2), 32);
    CHECK_EQ(gms_atomic_segment(30, 4), 32);    /* Kepler: atomics are CACHE_GLOBAL -> sectors */
    CHECK_EQ(gms_atomic_segment(39, 4), 128);   /* the gap in GPGPU-Sim's ranges */
    CHECK_EQ(gms_atomic_segment(13, 4), 128);   /* GT200 */
    CHECK_EQ(gms_atomic_segment(13, 16), 128);
    CHECK_EQ(gms_atomic_segment(13, 2), 64);
    CHECK_EQ(gms_atomic_segment(13, 1), 32);
}

/* 32 lanes on one word: 32 one-lane requests (a load would be one) */
TEST(atomic_all_lanes_one_address)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x1000, 1, 0);
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 32);
    CHECK(all_sector(t, 32, 0x1000, 0x1, 4));
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 1, t), 1);
    pattern(a, 0x1000, 1, 0);                 /* 3 active lanes: 3 requests */
    CHECK_EQ(gms_coalesce_atomic(a, 0x80000101u, 4, 32, t), 3);
    CHECK_EQ(gms_coalesce_atomic(a, 0u, 4, 32, t), 0);
}

/* atomic_reduce's pattern: 4 words of one sector (the third, chunk bit 0x4), 8 lanes each:
 * 8 requests of 4 lanes = 16 bytes */
TEST(atomic_eight_lanes_per_address)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x2040, 4, 4);
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 8);
    CHECK(all_sector(t, 8, 0x2040, 0x4, 16));
    /* only even lanes: lanes 0,4,8.. on word 0 and 2,6,10.. on word 2: 8 of each -> 8 requests
     * of 2 lanes */
    CHECK_EQ(gms_coalesce_atomic(a, 0x55555555u, 4, 32, t), 8);
    CHECK(all_sector(t, 8, 0x2040, 0x4, 8));
}

/* every lane its own word: one request per sector, as for a load */
TEST(atomic_distinct_words_share_a_request)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x3000, 8, 4);                 /* lanes 0..7 on the 8 words of one sector, x4 */
    CHECK_EQ(gms_coalesce_atomic(a, 0x000000ffu, 4, 32, t), 1);
    CHECK(all_sector(t, 1, 0x3000, 0x1, 32));
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 4);   /* each word 4 lanes */
    CHECK(all_sector(t, 4, 0x3000, 0x1, 32));
    pattern(a, 0x3000, 32, 4);                /* 128 B unit stride: 4 sectors, 1 request each */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(t[i].addr, 0x3000 + 32u * (uint32_t)i);     /* ascending (access-queue order) */
        CHECK_EQ(t[i].sector_mask, 1u << i);
        CHECK_EQ(t[i].bytes, 32);
    }
}

/* the width decides what overlaps: the same 32 addresses at 2, 4 and 8 bytes */
TEST(atomic_width_decides_overlap)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x4000, 16, 2);                /* 16 halfwords of one sector, 2 lanes each */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 2, 32, t), 2);
    CHECK(all_sector(t, 2, 0x4000, 0x1, 32));
    /* the same addresses as 4-byte atomics (without offset 30, whose word would leave the
     * sector): each word overlaps its neighbours 2 B away, so offsets 0,4,..,28 (8 lanes,
     * 32 B) share one request and 2,6,..,26 (7 lanes, 28 B) another; lanes 16..30 repeat
     * the offsets of lanes 0..14 and need two more */
    CHECK_EQ(gms_coalesce_atomic(a, 0x7fff7fffu, 4, 32, t), 4);
    CHECK(all_sector(t, 1, 0x4000, 0x1, 32));
    CHECK(all_sector(t + 1, 1, 0x4000, 0x1, 28));
    CHECK(all_sector(t + 2, 1, 0x4000, 0x1, 32));
    CHECK(all_sector(t + 3, 1, 0x4000, 0x1, 28));
    pattern(a, 0x5000, 4, 8);                 /* 4 doublewords of one sector, 8 lanes each */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 8, 32, t), 8);
    CHECK(all_sector(t, 8, 0x5000, 0x1, 32));
    pattern(a, 0x6000, 32, 8);                /* 256 B unit stride: 8 sectors in 2 lines */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 8, 32, t), 8);
    CHECK_EQ(t[0].addr, 0x6000);
    CHECK_EQ(t[7].addr, 0x60e0);
    CHECK_EQ(t[7].sector_mask, 0x8);
}

/* requests come in access-queue order: ascending segment, then the order they were opened */
TEST(atomic_request_order)
{
    uint64_t a[32];
    gms_txn t[128];
    for (int i = 0; i < 32; i++) a[i] = (i & 1) ? 0x9000 : 0x9020;   /* odd lanes the lower sector */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 32);
    CHECK(all_sector(t, 16, 0x9000, 0x1, 4));
    CHECK(all_sector(t + 16, 16, 0x9020, 0x2, 4));
}

/* 128 B segments (GT200 rule): a request shrinks to the half or the chunk it uses */
TEST(atomic_line_segments_shrink)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x8000, 32, 4);                /* the whole line: one 128 B request */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 128, t), 1);
    CHECK_EQ(t[0].addr, 0x8000);
    CHECK_EQ(t[0].sector_mask, 0xf);
    CHECK_EQ(t[0].nbytes_sectors, 4);
    CHECK_EQ(t[0].bytes, 128);
    pattern(a, 0x8040, 16, 4);                /* upper half, 2 lanes a word: 2 x 64 B */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 128, t), 2);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(t[i].addr, 0x8040);
        CHECK_EQ(t[i].sector_mask, 0xc);
        CHECK_EQ(t[i].nbytes_sectors, 2);
        CHECK_EQ(t[i].bytes, 64);
    }
    pattern(a, 0x8060, 8, 4);                 /* the last chunk, 4 lanes a word: 4 x 32 B */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 128, t), 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(t[i].addr, 0x8060);
        CHECK_EQ(t[i].sector_mask, 0x8);
        CHECK_EQ(t[i].nbytes_sectors, 1);
    }
    a[0] = 0x8000;                            /* chunks 0 and 3: both halves, stays 128 B */
    a[1] = 0x8060;
    CHECK_EQ(gms_coalesce_atomic(a, 0x3u, 4, 128, t), 1);
    CHECK_EQ(t[0].addr, 0x8000);
    CHECK_EQ(t[0].sector_mask, 0x9);
    CHECK_EQ(t[0].nbytes_sectors, 4);
    CHECK_EQ(t[0].bytes, 8);
}

/* GPGPU-Sim asserts that an atomic stays in one segment; a misaligned one (not seen in real
 * traces) is split here at the segment boundary, each piece placed by the same rule */
TEST(atomic_misaligned_lane_split_at_segment)
{
    uint64_t a[32];
    gms_txn t[128];
    a[0] = 0xa01c;                            /* 8 B: bytes 28..31 of one sector, 0..3 of the next */
    a[1] = 0xa020;                            /* 4 B at the next sector's start: overlaps lane 0 */
    CHECK_EQ(gms_coalesce_atomic(a, 0x1u, 8, 32, t), 2);
    CHECK(all_sector(t, 1, 0xa000, 0x1, 4));
    CHECK(all_sector(t + 1, 1, 0xa020, 0x2, 4));
    CHECK_EQ(gms_coalesce_atomic(a, 0x3u, 8, 32, t), 3);   /* lane 1's 8 B overlap lane 0's piece */
    CHECK(all_sector(t, 1, 0xa000, 0x1, 4));
    CHECK(all_sector(t + 1, 1, 0xa020, 0x2, 4));
    CHECK(all_sector(t + 2, 1, 0xa020, 0x2, 8));
}

/* ---------------------------------------------------------------- the warp's atomic wait */

#include "config/params.h"
#include "frontend/emit.h"
#include "frontend/program.h"

/* one warp: an atomic on one word from all 32 lanes (global: 32 requests; shared: 1 cycle,
 * a broadcast word), then `nalu` independent INT ops, then EXIT */
typedef struct aprog { gms_mem_kind kind; int nalu; int launched; } aprog;

static int afill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    aprog *p = self;
    gms_emit e;
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = p->kind == GMS_MEM_ATOM_SHARED ? 0x40 : 0x7f0000000040ULL;
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    gms_emit_atomic(&e, 0x10, 0xffffffffu, p->kind, 4, a, r, r);
    for (int i = 0; i < p->nalu; i++)
        gms_emit_alu(&e, 0x20 + 16u * (uint32_t)i, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    gms_emit_exit(&e, 0x400, 0xffffffffu);
    (void)b;
    (void)err;
    return 0;
}

static int anext(void *self, gms_program *prog, gms_error *err)
{
    aprog *p = self;
    (void)err;
    if (p->launched) return 0;
    p->launched = 1;
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "atomic_wait");
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
    k.regs_per_thread = 16;
    k.shmem_bytes = p->kind == GMS_MEM_ATOM_SHARED ? 1024 : 0;
    k.fill_block = afill;
    k.self = p;
    gms_prog_launch(prog, &k);
    return 1;
}

static void anodestroy(void *self) { (void)self; }

/* cycles of the one-warp program on one SM with the fixed-latency memory (100 cycles) */
static double acycles(gms_mem_kind kind, int nalu)
{
    gms_params *pp = gms_params_new();
    gms_error err = {0};
    int bad = 0;
    bad |= gms_params_set(pp, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(pp, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(pp, "gpgpu_clock_domains", "1000:1000:1000:1000", &err);
    bad |= gms_params_set(pp, "trace_opcode_latency_initiation_int", "4,1", &err);
    bad |= gms_params_set(pp, "gpgpu_perfect_mem", "1", &err);
    bad |= gms_params_set(pp, "gms_alu_collector", "none", &err);   /* registers released after the latency */
    bad |= gms_params_set(pp, "gms_inst_fetch", "none", &err);      /* the next instruction always there */
    if (bad || gms_params_finalize(pp, &err)) { printf("    %s\n", err.msg); gms_params_free(pp); return -1; }
    aprog p = { kind, nalu, 0 };
    gms_program_src src = { anext, anodestroy, &p };
    gms_workload_spec w = { 0 };
    w.program = &src;
    w.seed = 1;
    double cyc = -1;
    gms_sim *s = gms_sim_new(pp, &w, &err);
    if (s && !gms_sim_run(s, &err)) gms_stats_total(gms_sim_stats(s), "gpu_tot_sim_cycle", &cyc);
    else printf("    %s\n", err.msg);
    if (s) gms_sim_free(s);
    gms_params_free(pp);
    return cyc;
}

/* GPGPU-Sim's warp issues nothing while an atomic of its is in flight (m_n_atomic > 0), so
 * 10 independent INT ops after the atomic start only when it is done: the first issues when
 * EXIT would have, the last 9 cycles later, and the warp ends when its result is written 4
 * cycles after that: the run is 13 cycles longer. Were they free to issue,
 * they would hide under the atomic's 32 requests to memory (fixed latency 100) and cost
 * nothing. The same holds for a shared-memory atomic, whose wait ends when it writes back. */
TEST(atomic_warp_waits_for_its_atomic)
{
    double g0 = acycles(GMS_MEM_ATOM_GLOBAL, 0), g10 = acycles(GMS_MEM_ATOM_GLOBAL, 10);
    double s0 = acycles(GMS_MEM_ATOM_SHARED, 0), s10 = acycles(GMS_MEM_ATOM_SHARED, 10);
    printf("    global %.0f -> %.0f, shared %.0f -> %.0f\n", g0, g10, s0, s10);
    CHECK(g0 > 100);
    CHECK_EQ((long long)(g10 - g0), 13);
    CHECK(s0 > 0);
    CHECK_EQ((long long)(s10 - s0), 13);
}
