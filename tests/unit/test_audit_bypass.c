/* The L1D bypass path's limits and what feeds PDP and CCWS, hand-computed on one warp (or a
 * hand-built SM): RACB's bypass needs a bypass slot and room in the bypass queue; a bypassed
 * transaction that could not go this cycle anyway is a coalescer stall, not a BpR fail; PDP's
 * sampler hears the set accesses that lower RPDs (stores too); CCWS ranks warps by age across
 * the SM's schedulers. */
#include "test.h"
#include "sim_test_util.h"
#include "cache_test_util.h"
#include "frontend/emit.h"
#include "core/sm_internal.h"
#include "core/ccws.h"
#include "core/pdp.h"
#include <stdlib.h>

/* lanes split over n lines (32 / n lanes each, 4 B apart) starting at line[0..n-1] */
static void lanes_over(uint64_t *a, const uint64_t *line, int n)
{
    for (int l = 0; l < 32; l++) a[l] = line[l * n / 32] + 4u * (uint64_t)(l % (32 / n));
}

/* warp 0: one load of three lines, in L1D banks 2, 0 and 1 of three (bank = (addr >> 5) % 3:
 * 0x10000 -> 2, 0x10080 -> 0, 0x10100 -> 1), so the three reach the L1D in the same cycle and
 * are tried in bank order: 0x10080, 0x10100, 0x10000 */
static int fill_three_lines(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    static const uint64_t lines[3] = { 0x10000, 0x10080, 0x10100 };
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (int l = 0; l < 32; l++) a[l] = lines[l < 11 ? 0 : l < 22 ? 1 : 2] + 4u * (uint64_t)l;
    gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    gms_emit_exit(&e, 0x20, 0xffffffffu);
    return 0;
}

typedef struct racb_out { double bypassed, rf, max, rsfail; } racb_out;

/* RACB at the L1D with one MSHR entry: the first line tried (0x10080) misses and takes the
 * entry, the other two are refused (MSHR entry fail) and may bypass */
static int racb_run(const char *slots, const char *dl1, racb_out *o)
{
    const char *opts[] = {"gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", dl1, "gpgpu_l1_banks", "3",
                          "gms_racb", "1", "gms_l1d_bypass_slots", slots, NULL};
    simt_run r;
    int rc = simt_run1(&r, "racb3", 32, fill_three_lines, opts);
    if (!rc) {
        o->bypassed = simt_stat(&r, "gms_bypassed_reads");
        o->rf = simt_stat(&r, "L1D_total_cache_reservation_fails");
        o->max = simt_stat(&r, "gms_bpr_inflight_max");
        o->rsfail = simt_stat(&r, "gms_bpr_rsfail");
    }
    simt_free(&r);
    return rc;
}

#define DL1_MQ8 "N:32:128:4,L:L:m:N:L,A:1:8,8"
#define DL1_MQ2 "N:32:128:4,L:L:m:N:L,A:1:8,2"

/* room everywhere (unlimited slots, an 8-entry queue): both refused reads bypass at their
 * first refusal, both in flight at once */
TEST(racb_bypasses_while_the_path_has_room)
{
    racb_out o;
    REQUIRE(!racb_run("0", DL1_MQ8, &o));
    CHECK_EQ(o.bypassed, 2);
    CHECK_EQ(o.rf, 2);
    CHECK_EQ(o.max, 2);
    CHECK_EQ(o.rsfail, 0);
}

/* one bypass slot: 0x10100 takes it; 0x10000 finds none (a BpR fail) and stays a reservation
 * fail that retries, so never more than one bypassed read is in flight (it was two: RACB took
 * no slot) */
TEST(racb_bypass_needs_a_bypass_slot)
{
    racb_out o;
    REQUIRE(!racb_run("1", DL1_MQ8, &o));
    CHECK_EQ(o.max, 1);
    CHECK(o.rsfail >= 1);
    CHECK(o.rf >= 3);   /* 0x10100 once, 0x10000 at least twice */
}

/* a 2-entry L1D miss queue bounds the bypass queue as it bounds a read miss (room while it
 * holds fewer than 2 - 1 = 1): 0x10100 goes in; 0x10000, tried next in the same cycle, finds
 * the queue holding one and is refused again next cycle at least once before it goes (it went
 * at its first refusal: 2 fails) */
TEST(racb_bypass_queue_is_bounded_like_the_miss_queue)
{
    racb_out o;
    REQUIRE(!racb_run("0", DL1_MQ2, &o));
    CHECK_EQ(o.bypassed, 2);
    CHECK(o.rf >= 3);
    CHECK_EQ(o.rsfail, 0);   /* not a slot fail */
}

/* warp 0: one load of two lines (two transactions) */
static int fill_two_lines(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    static const uint64_t lines[2] = { 0x10000, 0x10080 };
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    lanes_over(a, lines, 2);
    gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    gms_emit_exit(&e, 0x20, 0xffffffffu);
    return 0;
}

/* both transactions bypass (MDB before its first decision). The LSU sends one bypassed
 * transaction a cycle, so the second waits one cycle as a coalescer stall whatever the slots;
 * with one slot it then waits for the first's reply as BpR fails. Every waiting cycle is one
 * memory stall: stalls = 1 + BpR fails. (The second's first wait was counted a BpR fail.) */
TEST(bypass_second_transaction_waits_as_a_coalescer_stall)
{
    for (int k = 0; k < 2; k++) {
        const char *opts[] = {"gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:L,A:32:8,8",
                              "gms_l1d_bypass", "mdb-local", "gms_mdb_start", "bypass",
                              "gms_l1d_bypass_slots", k ? "1" : "0", NULL};
        simt_run r;
        REQUIRE(!simt_run1(&r, "coal", 32, fill_two_lines, opts));
        double coal = simt_stat(&r, "gpgpu_stall_shd_mem[gl_mem][coal_stall]");
        double stalls = simt_stat(&r, "gpgpu_n_stall_shd_mem");
        double rsfail = simt_stat(&r, "gms_bpr_rsfail");
        CHECK_EQ(simt_stat(&r, "gms_bpr_reads"), 2);
        CHECK_EQ(coal, 1);
        CHECK_EQ(stalls, 1 + rsfail);
        if (k) CHECK(rsfail >= 1);
        else CHECK_EQ(rsfail, 0);
        simt_free(&r);
    }
}

/* the sampler of one set, by hand: A B A C B A -> distances 0 0 2 0 3 3 (A's second access is
 * the set's third, its first the first: 3 - 1 = 2; B at 5 after 2; A at 6 after 3) */
TEST(pdp_sampler_distances_by_hand)
{
    gms_pdp_set *set = calloc(1, sizeof *set);
    REQUIRE(set);
    static const uint64_t seq[6] = { 0xA, 0xB, 0xA, 0xC, 0xB, 0xA };
    static const uint32_t want[6] = { 0, 0, 2, 0, 3, 3 };
    for (int i = 0; i < 6; i++) CHECK_EQ(gms_pdp_set_access(set, seq[i]), want[i]);
    free(set);
}

/* warp 0, all in L1D set 0 (32 sets of 128 B): load A, store B, load A, then load C, whose
 * address comes from the second load (so it is fed once that load's L1D access is done) */
static int fill_ld_st_ld(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    uint64_t la = 0x10000, lb = 0x11000, lc = 0x12000;
    lanes_over(a, &la, 1);
    gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    lanes_over(a, &lb, 1);
    gms_emit_store(&e, 0x20, 0xffffffffu, GMS_MEM_ST_GLOBAL, 4, a, r, r);
    lanes_over(a, &la, 1);
    uint8_t v = gms_emit_load(&e, 0x30, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    lanes_over(a, &lc, 1);
    gms_emit_load(&e, 0x40, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, v);
    gms_emit_exit(&e, 0x50, 0xffffffffu);
    return 0;
}

/* PDP with a period of 3 global-load transactions: PD is computed once, when C is fed, from
 * the set's accesses A, B (the store), A: A reused at distance 2, of 3 sampled accesses. With
 * 4 ways (de = 4): E(1) = 0, E(2) = 1 / (2 + 2 * 6) = 1/14, E(3) = 1 / (2 + 2 * 7) = 1/16, ...
 * -> PD 2. (Sampling the loads alone, A's distance was 1 of 2 accesses: PD 1, while the
 * store lowered every RPD of the set by one more.) */
TEST(pdp_sampler_counts_the_set_accesses_that_lower_rpds)
{
    const char *opts[] = {"gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:L,A:32:8,8",
                          "gms_l1d_bypass", "pdp", "gms_mdb_period", "3", NULL};
    simt_run r;
    REQUIRE(!simt_run1(&r, "pdp", 32, fill_ld_st_ld, opts));
    CHECK_EQ(simt_stat(&r, "gms_pdp_transactions"), 3);
    CHECK_EQ(simt_stat(&r, "gms_pdp_pd_avg"), 2);
    simt_free(&r);
}

/* CCWS by hand on an SM built for it (two schedulers, warp w on scheduler w % 2): an older
 * block (launched 5th) holds slots 4-5, a younger one (6th) slots 0-3, so by age the warps
 * are 4 5 0 1 2 3 (each scheduler's list: 4 0 2 and 5 1 3). */
static gms_sm *ccws_sm(gms_params **pp, gms_mreq_pool *pool)
{
    gms_error err = {0};
    gms_params *p = *pp = gms_params_new();
    if (gms_params_set(p, "gms_ccws", "1", &err) || gms_params_finalize(p, &err)) return NULL;
    gms_sm *s = calloc(1, sizeof *s);
    block_slot *bl = calloc(2, sizeof *bl);
    if (!s || !bl) { free(s); free(bl); return NULL; }
    s->p = p;
    s->l1 = tu_l1_one_set(pool, 1);
    s->nwarps_max = 8;
    s->nsched = 2;
    s->blocks = bl;
    s->nblock_slots = 2;
    bl[0] = (block_slot){ .used = 1, .first_warp = 4, .nwarps = 2, .seq = 5 };
    bl[1] = (block_slot){ .used = 1, .first_warp = 0, .nwarps = 4, .seq = 6 };
    static const uint16_t launch[6] = { 4, 5, 0, 1, 2, 3 };
    for (int i = 0; i < 6; i++) {
        uint32_t wi = launch[i];
        s->w[wi].state = W_ACTIVE;
        s->w[wi].blk = wi >= 4 ? 0 : 1;
        sched *q = &s->sc[wi % 2];
        q->order[q->n++] = (uint16_t)wi;
    }
    memset(s->swl_ok, 0xff, sizeof s->swl_ok);
    s->ccws = s->l1 ? gms_ccws_new(s) : NULL;
    return s;
}

/* Warp 3 loses locality once: line A, which it brought into the one-line L1D, is evicted by
 * warp 0's line B and missed again by warp 3 (a VTA hit: score 32). Ranked by base 100 +
 * score: 132 (warp 3), then the five at 100 oldest first, 4 5 0 1 2; the cutoff 6 x 100 =
 * 600 is passed by the sixth (632): the youngest of the tied, warp 2, is barred. (Ranked
 * scheduler 0's warps first, 4 0 2 5 1, it was warp 1, of scheduler 1.) */
TEST(ccws_ties_go_to_the_oldest_across_schedulers)
{
    gms_params *p = NULL;
    gms_mreq_pool pool;
    gms_mreq_pool_init(&pool);
    gms_sm *s = ccws_sm(&p, &pool);
    REQUIRE(s && s->ccws);
    uint32_t idx[MAX_WARPS];
    static const uint32_t age[6] = { 4, 5, 0, 1, 2, 3 };
    REQUIRE(gms_ccws_age_order(s, idx) == 6);
    for (int i = 0; i < 6; i++) CHECK_EQ(idx[i], age[i]);
    gms_cache_set_alloc_owner(s->l1, 3);
    tu_read_line(s->l1, &pool, 0x000, 1);   /* A, warp 3's */
    gms_cache_set_alloc_owner(s->l1, 0);
    tu_read_line(s->l1, &pool, 0x080, 2);   /* B evicts A: A to warp 3's VTA */
    gms_ccws_access(s, 3, 0x000, 1);        /* warp 3 misses A again */
    uint64_t barred = s->ccws_barred[0];
    CHECK_EQ(barred, 1u << 2);
    gms_ccws_free(s->ccws);
    gms_cache_free(s->l1);
    free(s->blocks);
    free(s);
    gms_params_free(p);
    gms_mreq_pool_free(&pool);
}
