/* MRPB's prioritization buffer (src/mem/mrpb.c, docs/mrpb.md): the warp signature, the queue
 * size limit and the two drain policies, by hand. Requests are tagged by their address. */
#include "test.h"
#include "mem/mrpb.h"
#include <string.h>

static gms_mrpb *mk(uint32_t queues, uint32_t size, const char *drain)
{
    gms_mrpb_params p = {0};
    gms_error err = {0};
    p.queues = queues;
    p.queue_size = size;
    p.width = 1;
    snprintf(p.drain_str, sizeof p.drain_str, "%s", drain);
    snprintf(p.bypass_str, sizeof p.bypass_str, "any");
    if (gms_mrpb_params_finalize(&p, &err)) return NULL;
    return gms_mrpb_new(&p, 48);
}

/* reserve and push request r (warp w, tag a) */
static int put(gms_mrpb *m, gms_mreq *r, uint32_t w, uint64_t a)
{
    memset(r, 0, sizeof *r);
    r->warp = (uint16_t)w;
    r->addr = a;
    if (!gms_mrpb_reserve(m, w)) return 0;
    gms_mrpb_push(m, r);
    return 1;
}
static uint64_t take(gms_mrpb *m)
{
    gms_mreq *r = gms_mrpb_pop(m);
    return r ? r->addr : 0;
}

TEST(mrpb_signature_is_warp_mod_queues_and_a_full_queue_refuses)
{
    gms_mrpb *m = mk(4, 2, "fixed");
    REQUIRE(m);
    CHECK_EQ(gms_mrpb_queue_of(m, 1), 1u);
    CHECK_EQ(gms_mrpb_queue_of(m, 5), 1u);
    CHECK_EQ(gms_mrpb_queue_of(m, 6), 2u);
    gms_mreq r[4];
    CHECK(put(m, &r[0], 1, 0x100));
    CHECK(put(m, &r[1], 5, 0x500));      /* same queue as warp 1: its second entry */
    CHECK(!gms_mrpb_reserve(m, 9));      /* 9 mod 4 = 1: full */
    CHECK(put(m, &r[2], 6, 0x600));      /* another queue has room */
    CHECK_EQ(m->n, 3u);
    CHECK_EQ(m->st.max_occupancy, 3u);
    /* one queue keeps its warps' arrival order */
    CHECK_EQ(take(m), 0x100u);
    CHECK_EQ(take(m), 0x500u);
    CHECK(gms_mrpb_reserve(m, 9));       /* room again; a reserved slot counts until pushed */
    CHECK(gms_mrpb_reserve(m, 13));
    CHECK(!gms_mrpb_reserve(m, 1));
    CHECK_EQ(take(m), 0x600u);
    CHECK(gms_mrpb_peek(m) == NULL);     /* reserved slots are not requests yet */
    gms_mrpb_free(m);
    /* 0 queues: one per warp slot (48 here) */
    m = mk(0, 8, "fixed");
    REQUIRE(m);
    CHECK_EQ(m->nq, 48u);
    CHECK_EQ(gms_mrpb_queue_of(m, 47), 47u);
    gms_mrpb_free(m);
}

/* warps 2, 2, 1 arrive; warp 1's second request arrives after two drains. Fixed: the
 * lowest-numbered non-empty queue every time (w1a, w2a, then w1b jumps ahead of w2b).
 * Sticky: queue 1 first (the first non-empty after queue 0), then queue 2 until it is empty
 * (w2b before w1b), then round-robin back to queue 1. */
TEST(mrpb_drain_fixed_and_sticky_orders)
{
    const char *pol[2] = { "fixed", "sticky" };
    const uint64_t want[2][4] = { { 0x1a, 0x2a, 0x1b, 0x2b }, { 0x1a, 0x2a, 0x2b, 0x1b } };
    for (int k = 0; k < 2; k++) {
        gms_mrpb *m = mk(4, 8, pol[k]);
        REQUIRE(m);
        gms_mreq r[4];
        put(m, &r[0], 2, 0x2a);
        put(m, &r[1], 2, 0x2b);
        put(m, &r[2], 1, 0x1a);
        uint64_t got[4];
        got[0] = take(m);
        got[1] = take(m);
        put(m, &r[3], 1, 0x1b);
        got[2] = take(m);
        got[3] = take(m);
        for (int i = 0; i < 4; i++) CHECK_EQ(got[i], want[k][i]);
        CHECK_EQ(take(m), 0u);
        CHECK_EQ(m->st.requests, 4u);
        /* switches (the drain starts at queue 0): fixed 0->1->2->1->2 = 4, sticky
         * 0->1->2->2->1 = 3 */
        CHECK_EQ(m->st.switches, k == 0 ? 4u : 3u);
        gms_mrpb_free(m);
    }
}

/* sticky round-robin past the end of a word of the non-empty bitmap and back to the start */
TEST(mrpb_sticky_wraps_around_many_queues)
{
    gms_mrpb *m = mk(70, 4, "sticky");
    REQUIRE(m);
    gms_mreq r[3];
    put(m, &r[0], 66, 0x66);
    put(m, &r[1], 3, 0x3);
    CHECK_EQ(take(m), 0x3u);             /* cur 0: the first non-empty after it */
    put(m, &r[2], 2, 0x2);
    CHECK_EQ(take(m), 0x66u);            /* after 3: 66 (in the second word), not 2 */
    CHECK_EQ(take(m), 0x2u);             /* after 66: wraps to 2 */
    CHECK(gms_mrpb_peek(m) == NULL);
    gms_mrpb_free(m);
}

TEST(mrpb_params_reject_bad_values)
{
    gms_mrpb_params p = {0};
    gms_error err = {0};
    p.queue_size = 8;
    p.width = 1;
    snprintf(p.drain_str, sizeof p.drain_str, "oldest");
    snprintf(p.bypass_str, sizeof p.bypass_str, "any");
    CHECK(gms_mrpb_params_finalize(&p, &err));
    CHECK(strstr(err.msg, "-gms_mrpb_drain") != NULL);
    snprintf(p.drain_str, sizeof p.drain_str, "sticky");
    snprintf(p.bypass_str, sizeof p.bypass_str, "assoc");
    CHECK(gms_mrpb_params_finalize(&p, &err));
    CHECK(strstr(err.msg, "-gms_mrpb_bypass") != NULL);
    snprintf(p.bypass_str, sizeof p.bypass_str, "line");
    CHECK(!gms_mrpb_params_finalize(&p, &err));
    CHECK_EQ(p.bypass, (uint32_t)GMS_MRPB_BYPASS_LINE);
    p.queue_size = 0;
    CHECK(gms_mrpb_params_finalize(&p, &err));
}
