/* PCIe: one host-to-device and one device-to-host lane, each serial (one transfer at a time)
 * with a FIFO staging queue. Transfer time is UVMSmart's curve fit
 *     speed(S) = (2a/pi) atan(0.07292 S/1KiB) GB/s,  a = 0.75 x -pcie_bandwidth (12 for 16 GB/s)
 *     cycles   = floor(S f_core / (speed 2^30))
 * (explicit memcpy of >= 2 MiB at half speed, as UVMSmart's calculate_transfer_time), or a plain
 * latency + S / bandwidth model. A migration or bulk-prefetch read starts only when the device
 * has free frames for all of its pages; a migration's fault time (uvmsmart runtime) goes
 * before it on the lane, as UVMSmart's 1-page PAGE_FAULT item, needing one free frame. */
#include <math.h>
#include <stdlib.h>
#include "uvm/uvm_internal.h"

#define XFER_SLAB 256

gms_uvm_xfer *gms_uvm_xfer_new(gms_uvm *u)
{
    if (!u->xfer_free) {
        gms_uvm_xfer *slab = gms_xcalloc(XFER_SLAB, sizeof *slab);
        u->xfer_slabs = gms_xrealloc(u->xfer_slabs, (u->nxfer_slabs + 1) * sizeof *u->xfer_slabs);
        u->xfer_slabs[u->nxfer_slabs++] = slab;
        for (int i = 0; i < XFER_SLAB; i++) { slab[i].next = u->xfer_free; u->xfer_free = &slab[i]; }
    }
    gms_uvm_xfer *x = u->xfer_free;
    u->xfer_free = x->next;
    *x = (gms_uvm_xfer){ 0 };
    x->batch = x->bulk = GMS_UVM_NONE;
    return x;
}

void gms_uvm_xfer_release(gms_uvm *u, gms_uvm_xfer *x)
{
    x->next = u->xfer_free;
    u->xfer_free = x;
}

uint64_t gms_uvm_pcie_cycles(const gms_uvm *u, int lane, uint64_t bytes, int memcpy_rule, double *util)
{
    double gbps = u->lane[lane].gbps;
    if (u->prm->pcie_compress != 1.0)   /* -gms_pcie_compress: fewer bytes on the link */
        bytes = (uint64_t)ceil((double)bytes / u->prm->pcie_compress);
    double hz = u->core_mhz * 1e6;
    uint64_t cyc;
    if (u->prm->pcie_linear) {
        uint64_t data = (uint64_t)ceil((double)bytes * hz / (gbps * 1e9));
        cyc = u->prm->pcie_latency + data;
        if (util) *util = cyc ? (double)data / (double)cyc : 1.0;
    } else {
        double a = gbps * 0.75;
        float speed = (float)(2.0 * a / M_PI * atan(0.07292 * ((double)bytes / 1024.0)));
        if (memcpy_rule && u->prm->memcpy_half_speed && bytes >= GMS_UVM_LP_SIZE) speed /= 2;
        cyc = (uint64_t)((double)bytes * hz / (double)speed / (1024.0 * 1024.0 * 1024.0));
        if (util) *util = (double)speed / gbps;
    }
    return cyc ? cyc : 1;
}

void gms_uvm_lane_push(gms_uvm *u, gms_uvm_xfer *x)
{
    gms_uvm_lane *l = &u->lane[x->lane];
    x->next = NULL;
    if (l->tail) l->tail->next = x; else l->head = x;
    l->tail = x;
}

static gms_uvm_xfer *lane_pop(gms_uvm_lane *l)
{
    gms_uvm_xfer *x = l->head;
    l->head = x->next;
    if (!l->head) l->tail = NULL;
    x->next = NULL;
    return x;
}

static void lane_try_start(gms_uvm *u, int li, uint64_t now)
{
    gms_uvm_lane *l = &u->lane[li];
    gms_uvm_xfer *x = l->head;
    if (l->cur || !x) return;
    /* -gms_uvm_evict_serial: the driver's evict -> update -> migrate, one direction at a time */
    if (u->prm->evict_serial && u->lane[!li].cur) return;
    /* UVMSmart's PAGE_FAULT item (-gms_uvm_fault_frames data): the fault time is its own
     * 1-page item ahead of the data; the read lane starts it when one frame is free (its check
     * of the front item's pages) and it takes none: the data's frames are checked and taken
     * when the data starts, after it (gmmu_t::cycle, alloc_pages for PCIE_READ only) */
    int fault_item = li == GMS_LANE_H2D && x->pre_latency && !u->prm->fault_frames_at_fault;
    uint64_t need = fault_item ? 1 : x->npages;
    if (li == GMS_LANE_H2D && x->kind != GMS_XF_MEMCPY && u->cap_limited && u->frames_held + need > u->cap_frames) {
        gms_uvm_ba_h2d_wait(u, x, 1, now);
        return;   /* waits for free frames */
    }
    if (li == GMS_LANE_H2D) gms_uvm_ba_h2d_wait(u, x, 0, now);
    if (fault_item) {
        l->cur = lane_pop(l);
        x->in_fault = 1;
        if (u->prm->fault_item_counted) u->queued_faults--;
        gms_uvm_schedule(u, now + x->pre_latency, GMS_UEV_LANE_DONE, (uint32_t)li, NULL);
        return;
    }
    l->cur = lane_pop(l);
    x->t_start = now;
    gms_uvm_xfer_started(u, x, now);
    double util = 0;
    uint64_t dur = gms_uvm_pcie_cycles(u, li, x->bytes, x->kind == GMS_XF_MEMCPY, &util);
    x->t_end = now + x->pre_latency + dur;
    l->busy_cycles += dur;
    l->bytes += x->bytes;
    l->transfers++;
    if (x->kind != GMS_XF_MEMCPY) {
        l->util_weighted += util * (double)dur;
        l->util_cycles += dur;
    }
    gms_uvm_schedule(u, x->t_end, GMS_UEV_LANE_DONE, (uint32_t)li, NULL);
}

void gms_uvm_lanes_kick(gms_uvm *u, uint64_t now)
{
    if (u->prm->evict_serial) {
        /* a read that has its frame goes first; else the write-back that frees one */
        lane_try_start(u, GMS_LANE_H2D, now);
        lane_try_start(u, GMS_LANE_D2H, now);
        return;
    }
    /* D2H first: a write-back that starts may free the frames a read is waiting for */
    lane_try_start(u, GMS_LANE_D2H, now);
    lane_try_start(u, GMS_LANE_H2D, now);
}

void gms_uvm_lane_done(gms_uvm *u, int li, uint64_t now)
{
    gms_uvm_lane *l = &u->lane[li];
    gms_uvm_xfer *x = l->cur;
    if (!x) return;
    l->cur = NULL;
    if (x->in_fault) {
        /* its fault time is over: the data is next in the queue (UVMSmart queues the two
         * items back to back, and the lane served nothing in between) */
        x->in_fault = 0;
        x->pre_latency = 0;
        x->next = l->head;
        l->head = x;
        if (!l->tail) l->tail = x;
        gms_uvm_lanes_kick(u, now);
        return;
    }
    gms_uvm_xfer_finished(u, x, now);
    gms_uvm_xfer_release(u, x);
    gms_uvm_lanes_kick(u, now);
}

int gms_uvm_pcie_busy(const gms_uvm *u)
{
    return u->lane[0].cur || u->lane[0].head || u->lane[1].cur || u->lane[1].head;
}

void gms_uvm_pcie_free(gms_uvm *u)
{
    for (size_t i = 0; i < u->nxfer_slabs; i++) free(u->xfer_slabs[i]);
    free(u->xfer_slabs);
}
