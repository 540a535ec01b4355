/* The per-SM TLB (uvm/tlb.c): its arrays are made at the first fill, so a run without managed
 * memory never pays for 80 SMs' TLBs. Before the first fill it behaves as an empty TLB; after,
 * as before: LRU within a set, a capacity victim named, invalidation frees the slot. */
#include "test.h"
#include "uvm/uvm_internal.h"

TEST(uvm_tlb_empty_until_filled)
{
    gms_tlb t;
    gms_tlb_init(&t, 4, 2);   /* 2 sets of 2 */
    uint32_t page = 7;
    CHECK_EQ(t.ready, 0);
    CHECK_EQ(gms_tlb_lookup(&t, 10, &page), 0);
    CHECK_EQ(page, 7);                        /* untouched on a miss */
    CHECK_EQ(gms_tlb_invalidate(&t, 10), 0);
    gms_tlb_flush(&t);
    CHECK_EQ(t.ready, 0);                     /* nothing made by lookups, flushes, invalidations */
    uint64_t vv;
    uint32_t vp;
    CHECK_EQ(gms_tlb_fill(&t, 10, 1, &vv, &vp), 1);   /* set 0 */
    CHECK_EQ(t.ready, 1);
    CHECK_EQ(vv, UINT64_MAX);
    CHECK_EQ(gms_tlb_fill(&t, 12, 2, &vv, &vp), 1);   /* set 0, full */
    CHECK_EQ(gms_tlb_lookup(&t, 10, &page), 1);       /* 10 becomes MRU */
    CHECK_EQ(page, 1);
    CHECK_EQ(gms_tlb_fill(&t, 14, 3, &vv, &vp), 1);   /* set 0: the LRU, 12, leaves */
    CHECK_EQ(vv, 12);
    CHECK_EQ(vp, 2);
    CHECK_EQ(gms_tlb_fill(&t, 14, 4, &vv, &vp), 0);   /* already there: updated, no fill */
    CHECK_EQ(gms_tlb_lookup(&t, 14, &page), 1);
    CHECK_EQ(page, 4);
    CHECK_EQ(gms_tlb_invalidate(&t, 10), 1);
    CHECK_EQ(gms_tlb_fill(&t, 16, 5, &vv, &vp), 1);   /* the freed slot: no victim */
    CHECK_EQ(vv, UINT64_MAX);
    CHECK_EQ(t.evictions, 1);
    gms_tlb_flush(&t);
    CHECK_EQ(gms_tlb_lookup(&t, 14, &page), 0);
    gms_tlb_free(&t);
}

/* The last-lookup shortcut (last_vpn) must not outlive its page: a page looked up, then
 * evicted by capacity, invalidated or flushed, misses on the next lookup; a slot reused by
 * another page answers for that page only. */
TEST(uvm_tlb_repeat_lookup_forgets_a_page_that_left)
{
    gms_tlb t;
    gms_tlb_init(&t, 2, 2);   /* one set of 2 */
    uint64_t vv;
    uint32_t vp, page = 0;
    CHECK_EQ(gms_tlb_fill(&t, 100, 1, &vv, &vp), 1);
    CHECK_EQ(gms_tlb_fill(&t, 101, 2, &vv, &vp), 1);
    CHECK_EQ(gms_tlb_lookup(&t, 100, &page), 1);      /* 100 MRU, and the shortcut's page */
    CHECK_EQ(gms_tlb_lookup(&t, 100, &page), 1);      /* a repeat */
    CHECK_EQ(page, 1);
    CHECK_EQ(gms_tlb_lookup(&t, 101, &page), 1);      /* 101 MRU: 100 is the LRU */
    CHECK_EQ(gms_tlb_lookup(&t, 100, &page), 1);      /* 100 MRU again, shortcut on 100 */
    CHECK_EQ(gms_tlb_fill(&t, 102, 3, &vv, &vp), 1);  /* the LRU, 101, leaves */
    CHECK_EQ(vv, 101);
    CHECK_EQ(gms_tlb_fill(&t, 103, 4, &vv, &vp), 1);  /* now 100 is the LRU and leaves */
    CHECK_EQ(vv, 100);
    CHECK_EQ(gms_tlb_lookup(&t, 100, &page), 0);      /* not answered from the shortcut */
    CHECK_EQ(gms_tlb_lookup(&t, 103, &page), 1);      /* 103 took 100's slot */
    CHECK_EQ(page, 4);
    CHECK_EQ(gms_tlb_invalidate(&t, 103), 1);
    CHECK_EQ(gms_tlb_lookup(&t, 103, &page), 0);
    CHECK_EQ(gms_tlb_lookup(&t, 102, &page), 1);
    gms_tlb_flush(&t);
    CHECK_EQ(gms_tlb_lookup(&t, 102, &page), 0);
    CHECK_EQ(gms_tlb_fill(&t, 102, 9, &vv, &vp), 1);  /* a new fill after the flush */
    CHECK_EQ(gms_tlb_lookup(&t, 102, &page), 1);
    CHECK_EQ(page, 9);
    gms_tlb_free(&t);
}
