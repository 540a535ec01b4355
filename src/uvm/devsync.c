/* UVMSmart's cudaDeviceSynchronize (libcuda/cuda_runtime_api.cc, -uvm_sync_writeback 1): when
 * the kernels are over, every dirty page of the managed allocations is copied back to the host
 * (the program reads its results there) and invalidated, so its next use far-faults again. The
 * copy is timed by gmmu_t::calculate_devicesync_time: the dirty bytes go in turns of a 4 KiB
 * piece followed by the rest of a chunk, the chunks cycling 64, 64, 128, 256, 512 KiB, 1 MiB,
 * each piece at the atan curve's speed for its size, one after another (here on the D2H lane).
 * Clean pages stay valid. UVMSmart then also resets its frame count, LRU list and tree counts
 * as if the clean pages were gone while they stay valid; that bookkeeping artefact is not
 * reproduced (the clean pages keep their frames here). Caches are untouched, as in UVMSmart
 * (GPGPU-Sim flushes them only with -gpgpu_flush_l1_cache / _l2_cache at kernel end). */
#include "uvm/uvm_internal.h"

size_t gms_uvm_devsync_pieces(uint64_t bytes, uint64_t *out, size_t cap)
{
    static const uint64_t chunk[6] = { 64 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20 };
    size_t n = 0;
    for (unsigned turn = 0; bytes && n < cap; turn = (turn + 1) % 6) {
        if (bytes < 4096) { out[n++] = bytes; break; }
        out[n++] = 4096;
        bytes -= 4096;
        uint64_t rest = chunk[turn] - 4096;
        if (bytes < rest) {
            if (bytes && n < cap) out[n++] = bytes;   /* UVMSmart times a 0-byte tail as nothing */
            break;
        }
        if (n < cap) out[n++] = rest;
        bytes -= rest;
    }
    return n;
}

static void push_piece(gms_uvm *u, uint64_t bytes, uint32_t b, uint64_t now)
{
    gms_uvm_xfer *x = gms_uvm_xfer_new(u);
    x->kind = GMS_XF_MEMCPY;       /* a plain copy: ends the bulk operation, frees nothing */
    x->lane = GMS_LANE_D2H;
    x->bytes = bytes;
    x->bulk = b;
    x->t_queued = now;
    u->bulk[b].outstanding++;
    gms_uvm_lane_push(u, x);
}

int gms_uvm_device_sync(gms_uvm *u, gms_uvm_done_fn done, void *ud)
{
    if (!gms_uvm_libcuda(u, u->prm->sync_writeback)) return 0;
    uint64_t now = gms_uvm_now(u);
    uint32_t b = gms_uvm_bulk_new(u, done, ud, GMS_BULK_SYNC, now);
    uint64_t dirty = 0;
    for (uint32_t p = 0; p < u->npages; p++) {
        gms_uvm_page *pg = &u->pages[p];
        if (pg->state != GMS_PG_RESIDENT || !pg->dirty) continue;
        u->ev->removed(u->ev_st, p);
        gms_uvm_tree_update(u, p, -1);
        if (u->prm->tree_fill_uvmsmart) gms_uvm_leaf_size_shrink(u, p);
        gms_uvm_shootdown(u, pg->vpn);
        pg->dirty = pg->accessed = 0;
        pg->pf_unused = 0;
        pg->state = GMS_PG_HOST;
        u->frames_held--;
        dirty++;
    }
    u->c.devsyncs++;
    u->c.devsync_pages += dirty;
    uint64_t piece[64];
    uint64_t left = dirty << u->page_shift;
    while (left) {
        /* 64 pieces at a time; when the sequence goes on, queue the first 60 (30 turns = five
         * whole cycles of six chunks, all full pieces) and restart the sequence at turn 0 */
        size_t n = gms_uvm_devsync_pieces(left, piece, 64);
        uint64_t sent = 0;
        size_t whole = n == 64 ? 60 : n;
        for (size_t i = 0; i < whole; i++) { push_piece(u, piece[i], b, now); sent += piece[i]; }
        left -= sent;
    }
    gms_uvm_lanes_kick(u, now);
    gms_uvm_schedule(u, now + 1, GMS_UEV_BULK_DONE, b, NULL);
    return 1;
}
