/* SM pieces with hand-computed expectations: coalescer, shared-memory banks, occupancy. */
#include "test.h"
#include <string.h>
#include "core/sm.h"
#include "core/memq.h"

static void lanes(uint64_t a[32], uint64_t base, int64_t stride)
{
    for (int i = 0; i < 32; i++) a[i] = base + (uint64_t)((int64_t)i * stride);
}

TEST(coalescer_unit_stride)
{
    uint64_t a[32];
    gms_txn t[128];
    lanes(a, 0x1000, 4);                     /* 32 x 4 B = 128 B = one line, 4 sectors */
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 0, t), 1);
    CHECK_EQ(t[0].addr, 0x1000);
    CHECK_EQ(t[0].sector_mask, 0xf);
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 1, t), 4);
    CHECK_EQ(t[3].addr, 0x1060);
    lanes(a, 0x1040, 4);                     /* misaligned by 64 B: two lines */
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 0, t), 2);
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 1, t), 4);
    lanes(a, 0x2000, 8);                     /* 8-byte elements: 256 B = 2 lines, 8 sectors */
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 8, 0, t), 2);
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 8, 1, t), 8);
}

TEST(coalescer_stride2_random_broadcast)
{
    uint64_t a[32];
    gms_txn t[128];
    lanes(a, 0x0, 8);                        /* stride 2 floats: 256 B span = 2 lines, 8 sectors */
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 0, t), 2);
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 1, t), 8);
    lanes(a, 0x0, 128);                      /* one line per lane */
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 0, t), 32);
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 1, t), 32);
    lanes(a, 0x5000, 0);                     /* broadcast: one sector */
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 0, t), 1);
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 1, t), 1);
    CHECK_EQ(t[0].addr, 0x5000);
    /* random scatter over 4 lines (lanes pick lines 0,3,1,2 repeatedly) */
    for (int i = 0; i < 32; i++) a[i] = (uint64_t)((i * 3) % 4) * 128 + (uint64_t)(i % 4) * 4;
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 0, t), 4);
    /* only the active lanes count: 2 lanes on 2 lines */
    lanes(a, 0x0, 128);
    CHECK_EQ(gms_coalesce(a, 0x00000101u, 4, 0, t), 2);
    CHECK_EQ(gms_coalesce(a, 0u, 4, 0, t), 0);
}

TEST(shmem_bank_conflicts)
{
    uint64_t a[32];
    lanes(a, 0, 4);
    CHECK_EQ(gms_shmem_conflict_degree(a, 0xffffffffu, 4, 32), 1);    /* one word per bank */
    lanes(a, 0, 8);
    CHECK_EQ(gms_shmem_conflict_degree(a, 0xffffffffu, 4, 32), 2);    /* stride 2 words: 2-way */
    lanes(a, 0, 128);
    CHECK_EQ(gms_shmem_conflict_degree(a, 0xffffffffu, 4, 32), 32);   /* all lanes on bank 0 */
    lanes(a, 64, 0);
    CHECK_EQ(gms_shmem_conflict_degree(a, 0xffffffffu, 4, 32), 1);    /* broadcast */
    lanes(a, 0, 4);
    CHECK_EQ(gms_shmem_conflict_degree(a, 0xffffffffu, 4, 16), 2);    /* 16 banks: 32 words -> 2 per bank */
}

TEST(occupancy_known_shapes)
{
    gms_core_params c = {0};
    c.max_threads_per_sm = 2048;
    c.shader_cta = 32;
    c.shader_registers = 65536;
    c.shmem_size = 98304;
    CHECK_EQ(gms_occupancy(&c, 256, 12, 0), 8);       /* threads: 2048 / 256 */
    CHECK_EQ(gms_occupancy(&c, 256, 64, 0), 4);       /* registers: 65536 / (256 x 64) */
    CHECK_EQ(gms_occupancy(&c, 256, 30, 0), 8);       /* 30 -> 32 registers: 65536/(256*32) = 8 */
    CHECK_EQ(gms_occupancy(&c, 64, 8, 16384), 6);     /* shared memory: 98304 / 16384 */
    CHECK_EQ(gms_occupancy(&c, 32, 8, 0), 32);        /* block limit */
    CHECK_EQ(gms_occupancy(&c, 100, 8, 0), 16);       /* 100 threads pad to 128: 2048/128 */
    CHECK_EQ(gms_occupancy(&c, 4096, 8, 0), 0);       /* does not fit */
    CHECK_EQ(gms_occupancy(&c, 256, 8, 200000), 0);
}

TEST(coalescer_counts_bytes_written)
{
    uint64_t a[32];
    gms_txn t[128];
    lanes(a, 0x1000, 4);
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 1, t), 4);
    CHECK_EQ(t[0].bytes, 32);                 /* 8 lanes x 4 B fill a sector */
    CHECK_EQ(gms_coalesce(a, 0x0000000fu, 4, 1, t), 1);
    CHECK_EQ(t[0].bytes, 16);                 /* 4 lanes x 4 B */
    lanes(a, 0x1000, 0);
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 0, t), 1);
    CHECK_EQ(t[0].bytes, 4);                  /* all lanes write the same word */
}

/* the unit-stride fast path gives exactly the transactions of the per-lane coalescer */
TEST(coalesce_range_matches_lanes)
{
    static const uint32_t widths[5] = { 1, 2, 4, 8, 16 };
    uint64_t x = 12345;
    for (int it = 0; it < 4000; it++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t width = widths[(x >> 33) % 5];
        uint32_t mask = (uint32_t)(x >> 7) | (it & 1 ? 0 : 0xffffffffu);
        if (!mask) mask = 1;
        uint64_t base = 0x7f0000000000ULL + ((x >> 20) & 0xffff);
        uint64_t a[32];
        int k = 0;
        for (int l = 0; l < 32; l++) a[l] = mask >> l & 1u ? base + (uint64_t)(k++) * width : 0;
        for (int sector = 0; sector < 2; sector++) {
            gms_txn t1[128], t2[128];
            int n1 = gms_coalesce(a, mask, width, sector, t1);
            int n2 = gms_coalesce_range(base, base + (uint64_t)k * width - 1, width, sector, t2);
            CHECK_EQ(n1, n2);
            for (int i = 0; i < n1 && i < n2; i++) {
                CHECK_EQ(t1[i].addr, t2[i].addr);
                CHECK_EQ(t1[i].sector_mask, t2[i].sector_mask);
                CHECK_EQ(t1[i].nbytes_sectors, t2[i].nbytes_sectors);
                CHECK_EQ(t1[i].bytes, t2[i].bytes);
            }
        }
    }
}

/* GPGPU-Sim sends a warp's transactions highest address first (std::map order, taken from
 * the back of the access queue): lanes 0..3 reading 0x1000, 0x80, 0x2000, 0x80 give the lines
 * 0x1000, 0x80, 0x2000 in lane order, issued as 0x2000, 0x1000, 0x80. */
TEST(txn_issue_order_descending_address)
{
    uint64_t a[32] = { 0x1000, 0x80, 0x2000, 0x80 };
    gms_txn t[128];
    int n = gms_coalesce(a, 0xfu, 4, 0, t);
    REQUIRE(n == 3);
    CHECK_EQ(t[0].addr, 0x1000);
    gms_txn_issue_order(t, n);
    CHECK_EQ(t[0].addr, 0x2000);
    CHECK_EQ(t[1].addr, 0x1000);
    CHECK_EQ(t[2].addr, 0x80);
    /* a unit-stride line in sectors: 0x60, 0x40, 0x20, 0x00 */
    n = gms_coalesce_range(0, 127, 4, 1, t);
    REQUIRE(n == 4);
    gms_txn_issue_order(t, n);
    for (int i = 0; i < 4; i++) CHECK_EQ(t[i].addr, (uint64_t)(3 - i) * 32);
}

/* The path from issue to the LSU (GPGPU-Sim ID_OC_MEM -> collector unit -> OC_EX_MEM ->
 * oldest first). Two schedulers, at most 2 of a scheduler's instructions past ID_OC_MEM:
 *   push w0 (s0), w1 (s1): both slots taken; nothing to take before collection;
 *   collect: both move on (mask 0b11);  push w2 (s0), collect: it moves on (s0 now at 2);
 *   push w4 (s0), collect: it stays (s0 full), slot 0 stays taken;
 *   push w3 (s1), collect: it moves on (mask 0b10);
 *   take: w0, w1, w2, then w3 (w4, older, is not collected), then none;
 *   collect: w4 moves on; take: w4. */
TEST(memq_issue_order_and_slots)
{
    static gms_memq q;
    memset(&q, 0, sizeof q);
    gms_inst in = { 0 };
    CHECK(gms_memq_slot_free(&q, 0));
    gms_memq_push(&q, 0, 0, &in);
    gms_memq_push(&q, 1, 1, &in);
    CHECK(!gms_memq_slot_free(&q, 0));
    CHECK(!gms_memq_slot_free(&q, 1));
    CHECK(gms_memq_take(&q, 1) == NULL);
    CHECK_EQ(gms_memq_collect(&q, 2, 1), 3);
    CHECK(gms_memq_slot_free(&q, 0));
    gms_memq_push(&q, 2, 0, &in);
    CHECK_EQ(gms_memq_collect(&q, 2, 1), 1);
    gms_memq_push(&q, 4, 0, &in);
    CHECK_EQ(gms_memq_collect(&q, 2, 1), 0);
    CHECK(!gms_memq_slot_free(&q, 0));
    gms_memq_push(&q, 3, 1, &in);
    CHECK_EQ(gms_memq_collect(&q, 2, 1), 2);
    static const int order[4] = { 0, 1, 2, 3 };
    for (int i = 0; i < 4; i++) {
        const gms_memq_ent *e = gms_memq_take(&q, 1);
        REQUIRE(e);
        CHECK_EQ(e->warp, order[i]);
    }
    CHECK(gms_memq_take(&q, 1) == NULL);
    CHECK_EQ(gms_memq_collect(&q, 2, 1), 1);
    const gms_memq_ent *e = gms_memq_take(&q, 1);
    REQUIRE(e);
    CHECK_EQ(e->warp, 4);
    CHECK_EQ(q.n, 0);
}

/* Without sub-cores GPGPU-Sim's schedulers share ONE ID_OC_MEM set (register_set::has_free
 * looks at all of its registers) and one pool of collector units + OC_EX_MEM; the collector's
 * port takes the oldest on. Width 1, cap 3 (2 units + 1 OC_EX_MEM), one move per cycle:
 *   push w0 (s0): the slot is taken for s1 too; collect: w0 moves on, the slot frees;
 *   push w1 (s1), collect: moves (2 past); push w2 (s0), collect: moves (3 past);
 *   push w3 (s1), collect: stays (3 = cap), the slot stays taken for both;
 *   take: w0; collect: w3 moves on; take: w1, w2, w3.
 * Width 2, one move per cycle: w4 and w5 (both s0) fit in the set; the first collect moves
 * only w4, the second w5. */
TEST(memq_shared_id_oc_mem_set)
{
    static gms_memq q;
    memset(&q, 0, sizeof q);
    q.shared_w = 1;
    gms_inst in = { 0 };
    CHECK(gms_memq_slot_free(&q, 0) && gms_memq_slot_free(&q, 1));
    gms_memq_push(&q, 0, 0, &in);
    CHECK(!gms_memq_slot_free(&q, 0) && !gms_memq_slot_free(&q, 1));
    CHECK_EQ(gms_memq_collect_shared(&q, 3, 1, 1), 1u);
    CHECK(gms_memq_slot_free(&q, 1));
    gms_memq_push(&q, 1, 1, &in);
    CHECK_EQ(gms_memq_collect_shared(&q, 3, 1, 1), 1u);
    gms_memq_push(&q, 2, 0, &in);
    CHECK_EQ(gms_memq_collect_shared(&q, 3, 1, 1), 1u);
    CHECK_EQ(gms_memq_past_idoc(&q), 3u);
    gms_memq_push(&q, 3, 1, &in);
    CHECK_EQ(gms_memq_collect_shared(&q, 3, 1, 1), 0u);
    CHECK(!gms_memq_slot_free(&q, 0) && !gms_memq_slot_free(&q, 1));
    const gms_memq_ent *e = gms_memq_take(&q, 1);
    REQUIRE(e);
    CHECK_EQ(e->warp, 0);
    CHECK_EQ(gms_memq_collect_shared(&q, 3, 1, 2), 1u);
    CHECK(gms_memq_slot_free(&q, 0));
    for (int w = 1; w <= 3; w++) {
        e = gms_memq_take(&q, 2);
        REQUIRE(e);
        CHECK_EQ(e->warp, w);
    }
    CHECK(gms_memq_take(&q, 2) == NULL);
    CHECK_EQ(q.idoc, 0u);   /* the set has room: no scheduler is refused */

    q.shared_w = 2;
    gms_memq_push(&q, 4, 0, &in);
    CHECK(gms_memq_slot_free(&q, 0));
    gms_memq_push(&q, 5, 0, &in);
    CHECK(!gms_memq_slot_free(&q, 1));
    CHECK_EQ(gms_memq_collect_shared(&q, 3, 1, 3), 1u);
    e = gms_memq_take(&q, 3);
    REQUIRE(e);
    CHECK_EQ(e->warp, 4);
    CHECK(gms_memq_take(&q, 3) == NULL);   /* w5 is still in ID_OC_MEM */
    CHECK_EQ(gms_memq_collect_shared(&q, 3, 1, 3), 1u);
    e = gms_memq_take(&q, 3);
    REQUIRE(e);
    CHECK_EQ(e->warp, 5);
}

/* The sub-core operand collector's memory path (opndcoll_rfu_t::allocate_cu,
 * dispatch_unit_t::find_ready), 2 units per scheduler, hand-worked:
 *   push w0 (s0), w1 (s1); allocate at 10 (dispatchable from 11): w0 -> s0 unit 0, w1 -> s1
 *   unit 0, then nothing is left; push w4 (s0): s0 unit 1.
 *   push w8 (s0), then w5 (s1): the oldest, w8, finds s0 without a free unit, so NOTHING moves,
 *   though s1 has a free unit (the port takes only the oldest instruction).
 *   dispatch s0 at 10: nothing ready; at 11: w0 (unit 0) into OC_EX_MEM, again: slot taken.
 *   allocate at 11 (ready 12): w8 -> s0 unit 0, then w5 -> s1 unit 1.
 *   take at 12: w0. dispatch s0 at 12: w8 (unit 0) before the older w4 (unit 1).
 *   dispatch s1 at 12: w1 (unit 0). take at 13: w1 (older than w8), then w8, then none. */
/* Lane addresses attached to an entry stay readable through the take that returns it, and
 * its row is reused only after the next take: w0 (addresses 0..31) and w1 (100..131) pushed;
 * w0 taken (its addresses read back), w2 pushed with 200..231 while w0's are still in use
 * (another row); the next take (w1) frees w0's row, which w3 then gets. */
TEST(memq_lane_addresses_kept_until_next_take)
{
    static gms_memq q;
    memset(&q, 0, sizeof q);
    gms_inst in = { 0 };
    uint64_t *a;
    gms_memq_ent *e = gms_memq_push(&q, 0, 0, &in);
    a = gms_memq_attach_addrs(&q, e);
    for (int l = 0; l < 32; l++) a[l] = (uint64_t)l;
    e = gms_memq_push(&q, 1, 1, &in);
    a = gms_memq_attach_addrs(&q, e);
    for (int l = 0; l < 32; l++) a[l] = 100 + (uint64_t)l;
    CHECK_EQ(gms_memq_collect(&q, 4, 5), 3u);
    const gms_memq_ent *t = gms_memq_take(&q, 5);
    REQUIRE(t);
    CHECK_EQ(t->warp, 0);
    const uint64_t *ta = gms_memq_ent_addrs(&q, t);
    REQUIRE(ta);
    e = gms_memq_push(&q, 2, 2, &in);
    a = gms_memq_attach_addrs(&q, e);
    CHECK(a != ta);
    for (int l = 0; l < 32; l++) a[l] = 200 + (uint64_t)l;
    CHECK_EQ(ta[0], 0);
    CHECK_EQ(ta[31], 31);
    uint32_t row0 = t->aslot;
    t = gms_memq_take(&q, 5);
    REQUIRE(t);
    CHECK_EQ(t->warp, 1);
    CHECK_EQ(gms_memq_ent_addrs(&q, t)[5], 105);
    e = gms_memq_push(&q, 3, 3, &in);
    CHECK(gms_memq_ent_addrs(&q, e) == NULL);   /* none attached */
    gms_memq_attach_addrs(&q, e);
    CHECK_EQ(e->aslot, row0);                    /* w0's row, free again */
}

TEST(memq_subcore_oldest_blocks_lowest_unit_first)
{
    static gms_memq q;
    memset(&q, 0, sizeof q);
    gms_inst in = { 0 };
    uint8_t held[GMS_MEMQ_MAX_SCHED] = { 0 };   /* no unit holds another instruction */
    gms_memq_push(&q, 0, 0, &in);
    gms_memq_push(&q, 1, 1, &in);
    CHECK_EQ(gms_memq_alloc_cu(&q, held, 2, 11), 0);
    CHECK_EQ(gms_memq_alloc_cu(&q, held, 2, 11), 1);
    CHECK_EQ(gms_memq_alloc_cu(&q, held, 2, 11), -1);
    gms_memq_push(&q, 4, 0, &in);
    CHECK_EQ(gms_memq_alloc_cu(&q, held, 2, 11), 0);
    /* cu_mem: the units holding memory instructions */
    CHECK_EQ(q.cu_mem[0], 3);
    CHECK_EQ(q.cu_mem[1], 1);
    gms_memq_push(&q, 8, 0, &in);
    gms_memq_push(&q, 5, 1, &in);
    CHECK_EQ(gms_memq_alloc_cu(&q, held, 2, 11), -1);
    CHECK_EQ(q.cu_mem[1], 1);
    CHECK(gms_memq_dispatch(&q, 0, 10) == NULL);
    gms_memq_ent *e = gms_memq_dispatch(&q, 0, 11);
    REQUIRE(e);
    CHECK_EQ(e->warp, 0);
    CHECK_EQ(e->cu, 0);
    CHECK_EQ(q.cu_mem[0], 2);   /* unit 0 freed by the dispatch, unit 1 still holds w4 */
    CHECK(gms_memq_dispatch(&q, 0, 11) == NULL);
    CHECK_EQ(gms_memq_alloc_cu(&q, held, 2, 12), 0);
    CHECK_EQ(gms_memq_alloc_cu(&q, held, 2, 12), 1);
    CHECK_EQ(q.cu_mem[1], 3);
    const gms_memq_ent *t = gms_memq_take(&q, 12);
    REQUIRE(t);
    CHECK_EQ(t->warp, 0);
    e = gms_memq_dispatch(&q, 0, 12);
    REQUIRE(e);
    CHECK_EQ(e->warp, 8);
    CHECK_EQ(q.cu_mem[0], 2);   /* w8 left unit 0; w4 holds unit 1 */
    e = gms_memq_dispatch(&q, 1, 12);
    REQUIRE(e);
    CHECK_EQ(e->warp, 1);
    CHECK_EQ(q.cu_mem[1], 2);   /* w1 left unit 0; w5 holds unit 1 */
    t = gms_memq_take(&q, 13);
    REQUIRE(t);
    CHECK_EQ(t->warp, 1);
    t = gms_memq_take(&q, 13);
    REQUIRE(t);
    CHECK_EQ(t->warp, 8);
    CHECK(gms_memq_take(&q, 13) == NULL);
}

/* the sub-core collector's dispatch (a count of in_ex entries per scheduler, the scan stopped
 * at the scheduler's last unit-holding entry) against the plain scan of every entry, and
 * alloc_cu's mask of uncollected entries against the entries, on random push / alloc_cu /
 * dispatch / take sequences */
static int ref_dispatch(const gms_memq *q, uint32_t sched, uint64_t now)
{
    int best = -1;
    for (uint32_t k = 0; k < q->n; k++) {
        const gms_memq_ent *e = &q->e[k];
        if (e->sched != sched) continue;
        if (e->in_ex) return -1;
        if (!e->collected || e->ready_at > now) continue;
        if (best < 0 || e->cu < q->e[best].cu) best = (int)k;
    }
    return best;
}

TEST(memq_dispatch_matches_scan)
{
    static gms_memq q;
    memset(&q, 0, sizeof q);
    gms_inst in = {0};
    uint64_t x = 0x853c49e6748fea9bULL, now = 1;
    int dispatched = 0, taken = 0;
    for (int step = 0; step < 50000; step++, now += (x >> 9) % 2) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint32_t sched = (uint32_t)(x >> 20) % 4;
        switch ((x >> 30) % 4) {
        case 0:
            if (gms_memq_slot_free(&q, sched)) gms_memq_push(&q, (uint32_t)step % 64, sched, &in);
            break;
        case 1: {
            int oldest = -1;
            for (uint32_t k = 0; k < q.n && oldest < 0; k++) if (!q.e[k].collected) oldest = (int)k;
            static const uint8_t held[GMS_MEMQ_MAX_SCHED];   /* units held by other instructions: none */
            int si = gms_memq_alloc_cu(&q, held, 2, now + (x >> 40) % 3);
            if (si >= 0) CHECK(q.e[oldest].collected && q.e[oldest].sched == (uint32_t)si);
            else CHECK(oldest < 0 || !q.e[oldest].collected);
            break;
        }
        case 2: {
            uint32_t un = 0;   /* the uncollected-entry mask follows the entries */
            for (uint32_t k = 0; k < q.n; k++) un |= (uint32_t)!q.e[k].collected << k;
            CHECK_EQ(q.uncoll, un);
            int want = ref_dispatch(&q, sched, now);
            gms_memq_ent *e = gms_memq_dispatch(&q, sched, now);
            CHECK_EQ(e ? (int)(e - q.e) : -1, want);
            dispatched += e != NULL;
            break;
        }
        default:
            taken += gms_memq_take(&q, now) != NULL;
        }
    }
    CHECK(dispatched > 1000);
    CHECK(taken > 1000);
}
