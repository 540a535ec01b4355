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
