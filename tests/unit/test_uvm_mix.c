/* The oversubscription stress harness shared by test_uvm_stress.c (the UVMSmart-era policies)
 * and test_uvm_policy_stress.c (the seeds' policies): many warps issue random or streaming
 * accesses through one UVM instance (test_uvm_mix.h). */
#include "test_uvm_mix.h"
#include "uvm/uvm_internal.h"
#include "util/rng.h"

#define SLOTS 64

static int issue(uvm_h *h, int slot, uint64_t addr, int kind, uint32_t n_sm)
{
    gms_mreq *r = &h->req[slot];
    memset(r, 0, sizeof *r);
    r->addr = addr;
    r->kind = (uint8_t)kind;
    r->sm = (uint16_t)(slot % n_sm);
    r->warp = (uint16_t)slot;
    h->delivered[slot] = 0;
    if (gms_uvm_translate(h->u, r->sm, r, uvm_h_now(h))) { h->delivered[slot] = 1; h->ndel++; }
    return 0;
}

int uvm_run_mix(const char *const *opts, uint64_t footprint, int naccess, int pattern, char *why, size_t nwhy)
{
    uvm_h h;
    uint32_t n_sm = 4;
    if (uvm_h_init(&h, n_sm, opts)) { snprintf(why, nwhy, "init: %.200s", h.err.msg); return -1; }
    gms_uvm_alloc(h.u, UVM_BASE, footprint / 2, 1, "a", &h.err);
    gms_uvm_alloc(h.u, UVM_BASE + (64ULL << 20), footprint / 2 + 12288, 1, "b", &h.err);
    gms_uvm_alloc(h.u, UVM_BASE + (128ULL << 20), 64 << 10, 0, "dev", &h.err);
    gms_uvm_kernel_begin(h.u, 0);
    gms_rng rng;
    gms_rng_seed(&rng, 42);
    for (int s = 0; s < SLOTS; s++) h.delivered[s] = 1;
    int issued = 0, rc = 0;
    uint64_t stream_pos = 0;
    while (issued < naccess) {
        int any = 0;
        for (int s = 0; s < SLOTS && issued < naccess; s++) {
            if (!h.delivered[s]) continue;
            uint64_t off;
            if (pattern == 0) off = gms_rng_below(&rng, footprint / 128) * 128;
            else { off = stream_pos % footprint; stream_pos += 4096 + 128; }
            uint64_t addr = off < footprint / 2 ? UVM_BASE + off : UVM_BASE + (64ULL << 20) + (off - footprint / 2);
            if (issued % 97 == 0) addr = UVM_BASE + (128ULL << 20) + (off & 0xffff);   /* device memory */
            issue(&h, s, addr, gms_rng_below(&rng, 4) == 0 ? GMS_MREQ_WRITE : GMS_MREQ_READ, n_sm);
            issued++;
            any = 1;
        }
        if (!any || issued % SLOTS == 0) {
            h.want = h.ndel + 1;
            if (uvm_h_run_deliveries(&h, h.ndel + 1)) { snprintf(why, nwhy, "run: %.200s", h.err.msg); rc = -1; break; }
        }
    }
    if (!rc && uvm_h_run_idle(&h)) { snprintf(why, nwhy, "idle: %.200s", h.err.msg); rc = -1; }
    if (!rc) {
        for (int s = 0; s < SLOTS; s++)
            if (!h.delivered[s]) { snprintf(why, nwhy, "slot %d never delivered", s); rc = -1; }
        gms_uvm *u = h.u;
        uint64_t resident = 0;
        for (uint32_t p = 0; p < u->npages; p++) {
            if (u->pages[p].state == GMS_PG_RESIDENT) resident++;
            if (u->pages[p].state == GMS_PG_INFLIGHT || u->pages[p].state == GMS_PG_WRITING) {
                snprintf(why, nwhy, "page %u still in transit", p); rc = -1;
            }
        }
        if (u->queued_read || u->pending_free || u->frames_held != resident) {
            snprintf(why, nwhy, "frames: held %llu resident %llu queued %llu pending_free %llu",
                     (unsigned long long)u->frames_held, (unsigned long long)resident,
                     (unsigned long long)u->queued_read, (unsigned long long)u->pending_free);
            rc = -1;
        }
        if (u->cap_limited && resident > u->cap_frames) { snprintf(why, nwhy, "over capacity"); rc = -1; }
        for (uint32_t r = 0; r < u->nregions && !rc; r++) {
            uint32_t v = 0;
            for (uint32_t p = 0; p < u->regions[r].npages; p++)
                v += u->pages[u->regions[r].first_page + p].state == GMS_PG_RESIDENT;
            if (u->regions[r].valid[1] != v) { snprintf(why, nwhy, "tree count of region %u: %u != %u", r, u->regions[r].valid[1], v); rc = -1; }
        }
        if (!rc && uvm_h_stat(&h, "Page_tot_fault") <= 0) { snprintf(why, nwhy, "no fault at all"); rc = -1; }
    }
    uvm_h_free(&h);
    return rc;
}
