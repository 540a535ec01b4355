/* Internals of the UVM model shared by the files of src/uvm (not part of the public contract).
 *
 * Objects: pages (one record per managed page, indices contiguous per allocation, so a run of
 * consecutive indices is a run of consecutive addresses), regions (UVMSmart's 2 MiB trees with
 * 64 KiB leaves, counts of valid pages per node), per-SM TLBs, pending translations (the TLB
 * MSHR of a walk, which also holds the far fault until the page arrives), PCIe transfers on two
 * serial lanes, and an event heap that drives everything (the UVM component sleeps between
 * events, so a 45 us fault latency is a single engine wake-up). Policies plug in through three
 * function-pointer tables: fault runtimes, prefetchers and eviction policies. */
#ifndef GMS_UVM_INTERNAL_H
#define GMS_UVM_INTERNAL_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "uvm/uvm.h"
#include "uvm/uvm_params.h"
#include "util/hashmap.h"
#include "util/rng.h"
#include "util/registry.h"

#define GMS_UVM_NONE UINT32_MAX
#define GMS_UVM_BB_SIZE (64u * 1024u)            /* basic block: tree leaf, SE unit */
#define GMS_UVM_LP_SIZE (2u * 1024u * 1024u)     /* large page: tree root, NE unit */

typedef struct gms_uvm_runtime_ops gms_uvm_runtime_ops;
typedef struct gms_uvm_prefetch_ops gms_uvm_prefetch_ops;
typedef struct gms_uvm_evict_ops gms_uvm_evict_ops;

/* ---------------- growable vector of page indices ---------------- */
typedef struct gms_uvm_vec { uint32_t *v; size_t n, cap; } gms_uvm_vec;
static inline void gms_uvm_vec_push(gms_uvm_vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 64;
        a->v = gms_xrealloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = x;
}

/* ---------------- pages, allocations, regions (page_table.c) ---------------- */
enum { GMS_PG_HOST = 0, GMS_PG_INFLIGHT, GMS_PG_RESIDENT, GMS_PG_WRITING };

/* gms_uvm_page.wb_flags: what a victim's eviction counts once its write-back starts, the
 * moment UVMSmart counts Page_evict_dirty / _not_dirty (gmmu_t::cycle); a write-back cancelled
 * before (-uvm_evict_rescue) is never counted, as there */
#define GMS_WB_DIRTY 1u
#define GMS_WB_PF_UNUSED 2u

typedef struct gms_uvm_page {
    uint64_t vpn;
    uint64_t t_fault;        /* first demand fault of the current migration (latency stats) */
    uint32_t alloc;          /* allocation index (page group) */
    uint32_t region;         /* region index */
    uint32_t block;          /* global 64 KiB basic-block index */
    uint32_t pend;           /* pending translation (waiters), GMS_UVM_NONE if none */
    uint32_t n_in;           /* times migrated to the device */
    uint32_t batch;          /* batch that migrates it (while in flight) */
    uint8_t state;           /* GMS_PG_* */
    uint8_t dirty, accessed;
    uint8_t pf;              /* migrated (or being migrated) by the hardware prefetcher */
    uint8_t pf_unused;       /* prefetched and not yet accessed */
    uint8_t demand;          /* in flight because of a demand fault */
    uint8_t touched;         /* accessed at least once in the run (page touch rate) */
    uint8_t wb_flags;        /* while its write-back waits to start: GMS_WB_* (counted at the start) */
    uint8_t evicted;         /* left by an eviction since it last arrived (Page_tot_thrash: UVM Smart
                              * marks a page at its write-back's start; a device sync's
                              * invalidation and a rescued write-back leave no mark) */
    uint64_t t_in;           /* batch-aware: cycle it last became resident (page lifetime) */
} gms_uvm_page;

typedef struct gms_uvm_alloc_rec {
    uint64_t base, bytes;
    int managed;
    char name[64];
    uint32_t first_page, npages;     /* managed only */
    uint32_t first_region, nregions; /* managed only */
} gms_uvm_alloc_rec;

typedef struct gms_uvm_region {
    uint64_t base, size;      /* UVMSmart rounding: 2 MiB, or the remainder rounded up to 2^k >= 64 KiB */
    uint32_t first_page;      /* page index of base */
    uint32_t npages;          /* pages that exist (inside the allocation) */
    uint32_t first_block;     /* global index of leaf 0 */
    uint32_t nleaves;         /* power of two */
    uint32_t leaf_pages;      /* pages per leaf */
    uint32_t depth;           /* log2(nleaves) */
    uint32_t *valid;          /* per tree node (heap order, root = 1): pages in flight or resident */
    uint32_t *lsize;          /* per leaf, -uvm_tree_fill uvmsmart: UVMSmart's valid_size in pages (may pass leaf_pages) */
    uint64_t last_use;        /* for eviction orderings */
} gms_uvm_region;

/* ---------------- TLB (tlb.c) ---------------- */
typedef struct gms_tlb {
    uint32_t nsets, assoc;
    gms_u64map map;          /* vpn -> slot */
    uint64_t *vpn;           /* per slot */
    uint32_t *page;          /* per slot: page index or GMS_UVM_NONE (device memory) */
    uint32_t *prev, *next;   /* per slot: LRU list of its set (head = MRU) */
    uint32_t *head, *tail, *used, *free_head; /* per set */
    uint64_t evictions;
    /* host speed: the arrays are made at the first fill (80 SMs' TLBs are about 18 MB, and a
     * run without managed memory never fills one); before it the TLB is empty */
    int ready;
    /* host speed: the slot of the page looked up or filled last (an SM's transactions come
     * in runs on one page), so that a repeat skips the hash map; last_vpn is UINT64_MAX when
     * unset, and is unset when its page leaves the TLB */
    uint64_t last_vpn;
    uint32_t last_i;
} gms_tlb;

void gms_tlb_init(gms_tlb *t, uint32_t entries, uint32_t assoc);
void gms_tlb_free(gms_tlb *t);
/* 1 on hit (and *page set, entry made MRU) */
int gms_tlb_lookup(gms_tlb *t, uint64_t vpn, uint32_t *page);
/* 1 when the entry was not there (a fill), 0 when it only became MRU; a capacity victim's vpn
 * and page go to *victim_vpn / *victim_page (UINT64_MAX when none; either may be NULL) */
int gms_tlb_fill(gms_tlb *t, uint64_t vpn, uint32_t page, uint64_t *victim_vpn, uint32_t *victim_page);
int gms_tlb_invalidate(gms_tlb *t, uint64_t vpn);
void gms_tlb_flush(gms_tlb *t);

/* ---------------- events (uvm.c) ---------------- */
enum {
    GMS_UEV_DELIVER = 0,     /* p = request: deliver to its SM (TLB hit latency) */
    GMS_UEV_L2TLB,           /* p = request: L2 TLB lookup done */
    GMS_UEV_WALK_DONE,       /* a = pending-translation index */
    GMS_UEV_LANE_DONE,       /* a = lane */
    GMS_UEV_RT_TIMER,        /* a = tag: fault runtime timer */
    GMS_UEV_BULK_DONE,       /* a = bulk index: nothing to transfer */
    GMS_UEV_INTAKE,          /* p = request: the GMMU takes it from its cluster's queue */
    GMS_UEV_REFAULT,         /* a = page: a walk that waited on its write-back faults (outside a tick) */
};
typedef struct gms_uvm_ev { uint64_t t, seq; void *p; uint32_t kind, a; } gms_uvm_ev;

/* ---------------- pending translations (gmmu.c) ---------------- */
enum { GMS_PEND_WALK_WAIT = 0, GMS_PEND_WALKING, GMS_PEND_FAULT };
typedef struct gms_uvm_pend {
    uint64_t vpn;
    gms_mreq *head, *tail;   /* waiters, linked through req->next; req->t_ready = time joined */
    uint32_t nwait;
    uint32_t page;           /* page index or GMS_UVM_NONE */
    uint32_t next;           /* free list / walk queue link */
    uint8_t state;
    uint8_t in_use;
} gms_uvm_pend;

/* ---------------- PCIe (pcie.c) ---------------- */
enum { GMS_LANE_H2D = 0, GMS_LANE_D2H = 1 };
enum { GMS_XF_MIGRATE = 0, GMS_XF_BULK, GMS_XF_MEMCPY, GMS_XF_WRITEBACK };
typedef struct gms_uvm_xfer {
    uint32_t first_page, npages;   /* pages (migrations, bulk prefetch, write-backs) */
    uint64_t bytes;
    uint64_t pre_latency;          /* lane occupied before the data moves (UVMSmart fault latency) */
    uint64_t t_queued, t_start, t_end;
    uint32_t batch, bulk;          /* owners or GMS_UVM_NONE */
    uint32_t nfault;               /* demand-faulted pages in it */
    uint8_t kind, lane;
    uint8_t in_fault;              /* on the lane for its fault time only (-gms_uvm_fault_frames data) */
    struct gms_uvm_xfer *next;
} gms_uvm_xfer;

typedef struct gms_uvm_lane {
    gms_uvm_xfer *head, *tail;     /* staging FIFO */
    gms_uvm_xfer *cur;             /* in flight */
    double gbps;                   /* -pcie_bandwidth of this direction */
    uint64_t bytes, busy_cycles, transfers;
    /* UVM Smart's Pcie_read/write_utilization: speed / nominal bandwidth recorded for every
     * busy cycle of a migration or write-back (explicit copies, the device-sync copy-back and
     * HPE's HIR records are not on its GMMU lanes), averaged over those cycles */
    double util_weighted;          /* sum over those transfers of util x cycles */
    uint64_t util_cycles;
} gms_uvm_lane;

uint64_t gms_uvm_pcie_cycles(const gms_uvm *u, int lane, uint64_t bytes, int memcpy_rule, double *util);

/* ---------------- bulk operations (prefetch, memcpy) ---------------- */
typedef struct gms_uvm_bulk {
    gms_uvm_done_fn done; void *ud; uint32_t outstanding; uint32_t next_free;
    int kind;                 /* GMS_BULK_PREFETCH, _H2D, _D2H: which Tot_*_time it adds to */
    uint64_t t_start;         /* issue cycle */
    uint64_t last_arrival;    /* prefetch: end of its previous chunk (UVMSmart serialises chunks) */
} gms_uvm_bulk;
enum { GMS_BULK_PREFETCH, GMS_BULK_H2D, GMS_BULK_D2H, GMS_BULK_SYNC };

/* ---------------- batches (batch.c) ---------------- */
typedef struct gms_uvm_batch {
    /* first_xfer: start of its first CPU->GPU transfer (spec 004 1.4 step 5, 1.5: the end of
     * fault handling); first_any: of its first transfer of either direction (a victim's
     * write-back counts: gms_uvm_batch_handling_any_xfer_mean) */
    uint64_t start, first_xfer, first_any, end;
    uint32_t faults, prefetched, pages, evictions;
    uint32_t outstanding;
    uint8_t planned, closed;
    uint64_t evict_wait;     /* batch-aware: cycles its migrations waited for frames (evictions) */
} gms_uvm_batch;

uint32_t gms_uvm_batch_open(gms_uvm *u, uint64_t now, uint32_t nfaults);
/* all transfers of the batch are queued: closes it now when none is outstanding */
void gms_uvm_batch_planned(gms_uvm *u, uint32_t b, uint64_t now);
void gms_uvm_batch_xfer_done(gms_uvm *u, uint32_t b, uint64_t now);
void gms_uvm_batch_report(gms_uvm *u, gms_stats *out);

/* ---------------- policy tables ---------------- */
struct gms_uvm_runtime_ops {
    const char *name;
    const char *help;
    void *(*create)(gms_uvm *u, gms_error *err);
    void (*destroy)(void *st);
    /* a new far fault on a page that is on the host (one call per page, MSHR-merged) */
    void (*fault)(void *st, uint32_t page, uint64_t now);
    /* end of a UVM tick: every fault of this cycle has been seen */
    void (*end_of_cycle)(void *st, uint64_t now);
    void (*timer)(void *st, uint64_t now, uint32_t tag);
    /* a batch opened by this runtime has migrated its last page */
    void (*batch_done)(void *st, uint32_t batch, uint64_t now);
    int (*busy)(void *st);
    void (*report)(void *st, gms_stats *out);
    /* how frames of evicted dirty pages come back: 1 at the end of the write-back (the
     * driver: evict, then migrate), 0 when the write-back starts (UVMSmart) */
    int free_at_wb_end;
    /* 1: cut migration transfers just after each faulted page (UVMSmart) */
    int cut_after_fault;
    /* the config dump's words for this runtime's costs, e.g. "(N cycles per far fault ...)" */
    void (*describe)(const gms_uvm_params *prm, char *buf, size_t n);
};

struct gms_uvm_prefetch_ops {
    const char *name;
    int uvmsmart_id;         /* -hardware_prefetch number, -1 if none */
    const char *help;
    const char *const *knobs;     /* its own options' name prefixes, NULL-ended (registry.h knobs_off); may be NULL */
    /* faults: the demand pages of a group (ascending), already marked in flight. Add pages
     * with gms_uvm_pf_take(). st: the instance's state (NULL when create is NULL). */
    void (*plan)(void *st, gms_uvm *u, const uint32_t *faults, size_t n);
    /* per-instance state (may be NULL: a stateless prefetcher); one instance per role
     * (normal, oversubscribed), shared when both roles name the same prefetcher */
    void *(*create)(gms_uvm *u, gms_error *err);
    void (*destroy)(void *st);
    /* the policy's own statistics; may be NULL */
    void (*report)(void *st, gms_uvm *u, gms_stats *out);
};

struct gms_uvm_evict_ops {
    const char *name;
    int uvmsmart_id;         /* -eviction_policy number, -1 if none */
    const char *help;
    const char *const *knobs;     /* its own options' name prefixes, NULL-ended (registry.h knobs_off); may be NULL */
    void *(*create)(gms_uvm *u, gms_error *err);
    void (*destroy)(void *st);
    /* the page table grew (new allocation): npages, nblocks, nregions are the new totals */
    void (*grow)(void *st, gms_uvm *u);
    /* page became resident (migrated in) */
    void (*resident)(void *st, uint32_t page, uint64_t now);
    /* page left the device (evicted by anyone) */
    void (*removed)(void *st, uint32_t page);
    /* -uvm_evict_rescue: a page chosen as a victim whose write-back had not started is resident
     * again (the write-back was cancelled; removed() was its last hook); NULL = resident() */
    void (*rescued)(void *st, uint32_t page, uint64_t now);
    /* a reference to a managed page, in program order (consecutive repeats folded); may be NULL */
    void (*access)(void *st, uint32_t page, uint64_t now);
    /* a page-table walk found the page resident (walk-level reference, HPE's HIR); may be NULL */
    void (*walk_hit)(void *st, uint32_t page, uint64_t now);
    /* a demand far fault (per-fault hook); may be NULL */
    void (*fault)(void *st, uint32_t page, uint64_t now);
    /* a batch has ended (per-batch hook); may be NULL */
    void (*batch)(void *st, const gms_uvm_batch *b);
    /* choose victims among resident pages: append them to out; 0 appended = nothing evictable */
    void (*select)(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out);
    /* offline policies: the future page-reference sequence (page numbers; GMS_UVM_KERNEL_MARK
     * where a kernel began); may be NULL */
    void (*set_future)(void *st, const uint64_t *vpns, size_t n);
    /* a kernel began (offline policies re-anchor their replay there); may be NULL */
    void (*kernel_begin)(void *st);
    /* the policy's own statistics; may be NULL */
    void (*report)(void *st, gms_uvm *u, gms_stats *out);
};

extern const gms_uvm_runtime_ops *const gms_uvm_runtimes[];
/* whether a migration is cut just after each faulted page: -uvm_split_at_fault, or the runtime's own */
static inline int gms_uvm_cuts_after_fault(const gms_uvm_params *p)
{
    return p->split_at_fault < 0 ? gms_uvm_runtimes[p->runtime_id]->cut_after_fault : p->split_at_fault;
}
extern const size_t gms_uvm_nruntimes;
extern const gms_uvm_prefetch_ops *const gms_uvm_prefetchers[];
extern const size_t gms_uvm_nprefetchers;
extern const gms_uvm_evict_ops *const gms_uvm_evictors[];
extern const size_t gms_uvm_nevictors;
/* the same three lists as registries: names, help, error lists (util/registry.h) */
extern const gms_registry gms_uvm_runtime_reg, gms_uvm_prefetch_reg, gms_uvm_evict_reg;

/* ---------------- statistics ---------------- */
typedef struct gms_uvm_counters {
    uint64_t tlb_access, tlb_hit, tlb_miss, tlb_fill, tlb_invalidate;
    uint64_t l2tlb_access, l2tlb_hit;
    uint64_t walks, walk_hit, walk_miss, walk_merged, walk_queued;
    uint64_t intake_waited, intake_wait_cycles;   /* -gms_uvm_gmmu_intake: misses held in their cluster's queue */
    uint64_t far_faults, fault_merged, faults_on_writeback;
    uint64_t pages_in, pages_demand_in, pages_pf_in, pages_bulk_in;
    uint64_t pages_thrashed, remigrations;
    uint64_t pf_used, pf_evicted_unused;
    uint64_t evict_dirty, evict_clean, pages_written_back, evict_ops;
    uint64_t evict_rescues, evict_rescued;   /* -uvm_evict_rescue: write-backs cancelled, their pages */
    uint64_t page_latency_sum, page_latency_n;
    uint64_t req_fault_wait_sum, req_fault_waits;
    uint64_t warp_stall_cycles;
    uint64_t pf_groups, pf_group_pages;    /* Avg_prefetch_size */
    uint64_t memcpy_bytes;
    uint64_t fault_buffer_overflow;
    uint64_t fault_buffer_stale;        /* batch runtime: faults dropped, their waiters served */
    uint64_t pages_touched;                /* pages accessed at least once (page touch rate) */
    /* UVMSmart's meanings (gpgpu_new_stats): managed pages only, per request */
    uint64_t us_tlb_access, us_tlb_hit, us_tlb_fill, us_tlb_evict, us_tlb_shootdown, us_tlb_thrash;
    uint64_t us_pt_hit, us_pt_miss, us_pt_pending;
    uint64_t bulk_pf_hit, bulk_pf_miss, bulk_chunks, bulk_chunk_lat_sum, bulk_page_lat_sum;
    uint64_t kernel_begin_sum, kernel_end_sum, kernels_active;
    uint64_t prefetch_time, memcpy_h2d_time, memcpy_d2h_time;
    uint64_t devsync_time, devsync_pages, devsyncs;   /* -uvm_sync_writeback (devsync.c) */
} gms_uvm_counters;

/* ---------------- batch-aware UVM (ue.c, ba_stats.c; spec 004) ---------------- */
typedef struct gms_uvm_ba {
    int on;                  /* any batch-aware option: statistics kept and reported */
    int per_page;            /* UE / serial eviction: one page per transfer (the paper's 64 KB DMAs) */
    uint64_t premature;      /* far faults on pages that were resident before and evicted */
    uint64_t lifetime_sum, lifetime_n;   /* t_evict - t_in over evicted pages */
    uint64_t ue_preemptive;  /* UE: evictions started at batch start */
    uint64_t h2d_wait_since; /* H2D head waits for frames since (UINT64_MAX: not waiting) */
    uint32_t h2d_wait_batch;
    /* thread oversubscription's degree control (to_ctl.c) */
    uint32_t to_extra, to_cap;   /* extra blocks per SM now; the largest cap an SM asked with */
    int to_frozen;
    uint64_t to_next_epoch, to_win_sum, to_win_n, to_throttles, to_epochs;
    double to_prev_avg;          /* previous epoch's mean lifetime (0: none yet) */
    double to_best_avg;          /* highest epoch mean so far (-gms_uvm_to_reference best) */
    gms_uvm_fault_hook_fn fault_hook; void *fault_hook_ud;
    struct gms_uvm_etc *etc;     /* ETC, -gms_uvm_active_sms, the working-set window (etc.c); NULL when off */
} gms_uvm_ba;
/* TO's control: run the epochs up to now (before a lifetime is added) */
void gms_uvm_to_epochs(gms_uvm *u, uint64_t now);
int gms_uvm_ba_finalize(struct gms_params *p, gms_error *err);
void gms_uvm_ba_init(gms_uvm *u);
/* a far fault (batch runtime): premature-eviction count */
void gms_uvm_ba_fault(gms_uvm *u, uint32_t page);
/* a resident page is evicted now (lifetime) */
void gms_uvm_ba_evicted(gms_uvm *u, uint32_t page, uint64_t now);
/* UE: at batch start, one eviction ahead when memory is full */
void gms_uvm_ue_batch_start(gms_uvm *u, uint64_t now);
/* H2D head transfer blocked (1) or started (0): eviction wait of its batch */
void gms_uvm_ba_h2d_wait(gms_uvm *u, const gms_uvm_xfer *x, int blocked, uint64_t now);
void gms_uvm_ba_report(gms_uvm *u, gms_stats *out);

/* ---------------- the UVM object ---------------- */
struct gms_uvm {
    const gms_uvm_params *prm;
    gms_engine *e;
    gms_component *comp;
    uint32_t n_sm;
    gms_uvm_deliver_fn deliver;
    void *deliver_ud;
    double core_mhz;
    uint64_t page_size;
    uint32_t page_shift;
    gms_rng rng;
    uint64_t now;

    /* page table */
    gms_uvm_alloc_rec *allocs; size_t nallocs, cap_allocs;
    gms_uvm_page *pages; uint32_t npages, cap_pages;
    gms_uvm_region *regions; uint32_t nregions, cap_regions;
    uint32_t *block_region; uint32_t nblocks, cap_blocks;
    gms_u64map pt;           /* vpn -> page index (managed) */
    uint64_t footprint;      /* bytes of managed allocations */
    uint64_t planned_footprint; /* the program's whole managed footprint (0: not known) */
    int planned_ws;             /* planned_footprint is the working set (-uvm_oversub_basis) */
    uint64_t cap_footprint;  /* the footprint -uvm_oversub_ratio was applied to */
    uint64_t device_bytes;   /* bytes of device allocations */
    int enabled;

    /* capacity */
    int capacity_fixed;      /* frozen at the first kernel launch or bulk prefetch */
    int warned_no_managed;   /* -uvm_oversub_ratio without managed memory: said once */
    int cap_limited;
    uint64_t cap_frames;     /* frames usable by managed pages */
    uint64_t frames_held;    /* resident + in-flight (started) + write-back not yet freed */
    uint64_t queued_read;    /* pages in H2D transfers not started */
    uint64_t pending_free;   /* pages selected for eviction whose frames are not freed yet */
    uint64_t queued_faults;  /* -gms_uvm_fault_frames data-counted: queued transfers whose fault time has not started
                              * (UVMSmart's 1-page PAGE_FAULT items in its read stage queue) */
    int warned_ratio;        /* -uvm_oversub_ratio's capacity off by more than 1%: said once */
    double oversub_effective; /* footprint / the capacity the ratio gave (0: no ratio) */
    int over_sub;

    /* translation */
    gms_tlb *tlb;            /* n_sm */
    gms_tlb l2tlb;
    gms_u64map tlb_hist;     /* (vpn * n_sm + sm) -> 1 filled, 2 filled then evicted (Tlb_tot_thrash) */
    int has_l2tlb;
    gms_uvm_pend *pend; uint32_t npend, cap_pend, pend_free;
    gms_u64map pend_map;     /* vpn -> pending index */
    uint32_t walkq_head, walkq_tail, walkq_n;  /* walks waiting for a walker slot */
    /* -gms_uvm_gmmu_intake: per SM cluster, the cycle of the last slot given and how many in it */
    uint64_t *intake_at;
    uint32_t *intake_n;
    uint32_t cores_per_cluster;
    uint32_t walks_active;
    uint32_t last_access_page;   /* fold consecutive repeats for the policies' access hook */
    uint64_t *warp_waits;    /* per (sm, warp): outstanding faulted requests and start time */
    uint32_t *warp_trans;    /* per (sm, warp): requests in translation (a TLB miss or hit latency, walk, far fault) */
    uint32_t warps_per_sm;

    /* events */
    gms_uvm_ev *heap; uint32_t nheap, cap_heap;
    uint64_t ev_seq;
    uint64_t wake;           /* earliest wake-up requested from the engine */
    int in_tick;

    /* PCIe */
    gms_uvm_lane lane[2];
    gms_uvm_xfer *xfer_free;
    void **xfer_slabs; size_t nxfer_slabs;
    gms_uvm_bulk *bulk; uint32_t nbulk, cap_bulk, bulk_free;

    /* batches */
    gms_uvm_batch *batches; uint32_t nbatches, cap_batches;
    uint32_t cur_batch;      /* batch being planned (evictions are charged to it) */
    FILE *batch_csv;

    /* policies */
    const gms_uvm_runtime_ops *rt; void *rt_st;
    const gms_uvm_prefetch_ops *pf, *pf_oversub;
    void *pf_st, *pf_oversub_st;   /* prefetchers' states (the same when pf == pf_oversub) */
    const gms_uvm_evict_ops *ev; void *ev_st;
    gms_uvm_vec scratch, victims, plan;

    /* page-sequence recording (pass 1 of belady) */
    FILE *seq_out;
    /* the timing-free Belady bound's reference string (opt_bound.h), owned */
    struct gms_uvm_opt *opt;

    gms_uvm_counters c;
    gms_uvm_ba ba;
};

/* uvm.c */
void gms_uvm_schedule(gms_uvm *u, uint64_t t, uint32_t kind, uint32_t a, void *p);
void gms_uvm_fix_capacity(gms_uvm *u);

/* page_table.c */
/* UVMSmart's managed allocation size: full 2 MiB regions + remainder rounded up to a power of
 * two of at least 64 KiB (its cudaMallocManaged; used with -uvm_alloc_round 1) */
uint64_t gms_uvm_round_alloc(uint64_t bytes);
/* UVMSmart's libcuda behaviours (-uvm_alloc_round, -uvm_sync_writeback) apply under its runtime
 * only: the batch runtime models the real driver, which does neither */
extern const gms_uvm_runtime_ops gms_uvm_runtime_uvmsmart;
static inline int gms_uvm_libcuda(const gms_uvm *u, int option);
int gms_uvm_pt_add(gms_uvm *u, uint64_t addr, uint64_t bytes, int managed, const char *name, gms_error *err);
void gms_uvm_pt_free(gms_uvm *u);
static inline uint32_t gms_uvm_page_of(const gms_uvm *u, uint64_t vpn)
{
    const uint64_t *v = gms_u64map_get(&u->pt, vpn);
    return v ? (uint32_t)*v : GMS_UVM_NONE;
}
/* +1 / -1 on the tree path of the page (valid = in flight or resident) */
void gms_uvm_tree_update(gms_uvm *u, uint32_t page, int delta);
/* -uvm_tree_fill uvmsmart: UVMSmart's leaf valid_size (update_basic_block): grows by `pages`
 * unless the leaf is full, shrinks by one page unless 0; a region's leaves all cleared */
void gms_uvm_leaf_size_grow(gms_uvm *u, uint32_t page, uint32_t pages);
void gms_uvm_leaf_size_shrink(gms_uvm *u, uint32_t page);
void gms_uvm_leaf_size_clear(gms_uvm *u, uint32_t region);
/* pages of a leaf: first index and count of existing pages */
void gms_uvm_leaf_pages(const gms_uvm *u, uint32_t region, uint32_t leaf, uint32_t *first, uint32_t *n);
const gms_uvm_alloc_rec *gms_uvm_alloc_of_page(const gms_uvm *u, uint32_t page);

/* gmmu.c */
void gms_uvm_start_walk(gms_uvm *u, gms_mreq *r, uint64_t now);
void gms_uvm_l2tlb_done(gms_uvm *u, gms_mreq *r, uint64_t now);
void gms_uvm_gmmu_take(gms_uvm *u, gms_mreq *r, uint64_t now);
void gms_uvm_walk_done(gms_uvm *u, uint32_t pend, uint64_t now);
/* the page arrived (or a walk hit): deliver every waiter of its pending translation */
void gms_uvm_release_waiters(gms_uvm *u, uint32_t page, uint64_t now);
void gms_uvm_shootdown(gms_uvm *u, uint64_t vpn);
void gms_uvm_deliver_req(gms_uvm *u, gms_mreq *r, uint64_t now);
void gms_uvm_gmmu_free(gms_uvm *u);

/* migrate.c */
/* migrate demand pages (and what the prefetcher adds) for batch b; pre_latency cycles per
 * faulted page occupy the H2D lane before its transfer (UVMSmart). Returns pages scheduled. */
uint32_t gms_uvm_migrate(gms_uvm *u, const uint32_t *faults, size_t n, uint32_t batch,
                         uint64_t pre_latency_per_fault, uint64_t now);
/* prefetchers call this: schedule a host page as a prefetch (no-op unless on the host) */
void gms_uvm_pf_take(gms_uvm *u, uint32_t page);
void gms_uvm_pf_take_range(gms_uvm *u, uint32_t first, uint32_t n);
void gms_uvm_evict_check(gms_uvm *u, int from_fault, uint64_t now);
/* the eviction trigger's threshold: capacity x (1 - -percentage_of_free_page_buffer / 100), in
 * frames (UVMSmart's float: occupancy above it evicts) */
double gms_uvm_evict_limit(const gms_uvm *u);
/* -uvm_evict_rescue: cancel the queued write-back holding `page`; 1 if there was one */
int gms_uvm_evict_rescue(gms_uvm *u, uint32_t page, uint64_t now);
void gms_uvm_evict_pages(gms_uvm *u, const uint32_t *pages, size_t n, uint64_t now);
void gms_uvm_xfer_started(gms_uvm *u, gms_uvm_xfer *x, uint64_t now);
void gms_uvm_xfer_finished(gms_uvm *u, gms_uvm_xfer *x, uint64_t now);
void gms_uvm_bulk_prefetch(gms_uvm *u, uint64_t addr, uint64_t bytes, uint32_t bulk, uint64_t now);
void gms_uvm_bulk_finish_one(gms_uvm *u, uint32_t bulk);

/* pcie.c */
gms_uvm_xfer *gms_uvm_xfer_new(gms_uvm *u);
void gms_uvm_xfer_release(gms_uvm *u, gms_uvm_xfer *x);
void gms_uvm_lane_push(gms_uvm *u, gms_uvm_xfer *x);
/* start the head transfer of each lane when possible */
void gms_uvm_lanes_kick(gms_uvm *u, uint64_t now);
/* a page whose walk waited on its write-back is absent now: its fault (GMS_UEV_REFAULT) */
void gms_uvm_refault(gms_uvm *u, uint32_t page, uint64_t now);
void gms_uvm_lane_done(gms_uvm *u, int lane, uint64_t now);
void gms_uvm_pcie_free(gms_uvm *u);
int gms_uvm_pcie_busy(const gms_uvm *u);

/* registries */
int gms_uvm_runtime_find(const char *name);
int gms_uvm_prefetch_find(const char *name);
int gms_uvm_prefetch_find_id(int uvmsmart_id);
int gms_uvm_evict_find(const char *name);
int gms_uvm_evict_find_id(int uvmsmart_id);
/* "0 none, 1 tree, ..." / "0 lru2m, 1 tree, ...": the members with a UVMSmart number, for errors */
void gms_uvm_prefetch_ids(char *buf, size_t n);
void gms_uvm_evict_ids(char *buf, size_t n);

/* policies' shared helpers (evict_util.c): free frames for managed pages now (UINT64_MAX when
 * the capacity is unlimited), and evict at a policy's own initiative (TURE's table-full
 * trigger) outside the fault path: the victims' write-backs start at once when the lane is free */
uint64_t gms_uvm_free_frames(const gms_uvm *u);
/* a migration (not a memcpy) is on the H2D link: its end runs the eviction check again, so a
 * policy that finds nothing evictable may wait for it (UVMSmart's reads wait) */
int gms_uvm_migration_on_link(const gms_uvm *u);
void gms_uvm_evict_now(gms_uvm *u, const uint32_t *pages, size_t n, uint64_t now);

/* uvm_presets.c: the seeds' policy options checked, -uvm_policy applied (after the prefetcher
 * and eviction options, which it overrides) */
int gms_uvm_policy_finalize(gms_uvm_params *prm, gms_error *err);

/* uvm.c: a bulk operation (prefetch, memcpy, device sync) of kind GMS_BULK_*, held by one
 * reference until released with gms_uvm_bulk_finish_one (done is called when none is left) */
uint32_t gms_uvm_bulk_new(gms_uvm *u, gms_uvm_done_fn done, void *ud, int kind, uint64_t now);
uint64_t gms_uvm_now(gms_uvm *u);
/* devsync.c: UVMSmart's device-sync transfer pieces for `bytes` (calculate_devicesync_time):
 * writes at most cap sizes to out, returns how many */
size_t gms_uvm_devsync_pieces(uint64_t bytes, uint64_t *out, size_t cap);
/* uvm_stats.c */
void gms_uvm_stats_report(gms_uvm *u, gms_stats *out);

static inline int gms_uvm_libcuda(const gms_uvm *u, int option) { return option && u->rt == &gms_uvm_runtime_uvmsmart; }

#endif
