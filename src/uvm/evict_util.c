/* Services the policies share: free frames, and eviction at a policy's own initiative. */
#include "uvm/uvm_internal.h"

uint64_t gms_uvm_free_frames(const gms_uvm *u)
{
    if (!u->cap_limited) return UINT64_MAX;
    uint64_t used = u->frames_held + u->queued_read;
    used = used > u->pending_free ? used - u->pending_free : 0;
    return used < u->cap_frames ? u->cap_frames - used : 0;
}

int gms_uvm_migration_on_link(const gms_uvm *u)
{
    const gms_uvm_xfer *x = u->lane[GMS_LANE_H2D].cur;
    return x && x->kind != GMS_XF_MEMCPY;
}

void gms_uvm_evict_now(gms_uvm *u, const uint32_t *pages, size_t n, uint64_t now)
{
    if (!n) return;
    gms_uvm_evict_pages(u, pages, n, now);
    gms_uvm_lanes_kick(u, now);
}
