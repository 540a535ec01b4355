/* A memory request (GPGPU-Sim's mem_fetch): one coalesced transaction travelling
 * LSU -> L1D -> interconnect -> L2 slice -> DRAM and back as a reply. Requests come from a
 * per-simulation pool (no malloc on the hot path). The same object returns as the reply. */
#ifndef GMS_MEM_MREQ_H
#define GMS_MEM_MREQ_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

/* GPGPU-Sim access types (stats breakdown keys) */
typedef enum {
    GMS_ACC_GLOBAL_R = 0, GMS_ACC_GLOBAL_W, GMS_ACC_LOCAL_R, GMS_ACC_LOCAL_W,
    GMS_ACC_CONST_R, GMS_ACC_TEXTURE_R, GMS_ACC_INST_R,
    GMS_ACC_L1_WRBK, GMS_ACC_L2_WRBK, GMS_ACC_L1_WR_ALLOC_R, GMS_ACC_L2_WR_ALLOC_R,
    GMS_ACC__COUNT
} gms_access_type;
extern const char *const gms_access_type_name[GMS_ACC__COUNT];  /* "GLOBAL_ACC_R", ... */
/* a write-back (L1_WRBK_ACC / L2_WRBK_ACC): it gets no reply */
static inline int gms_acc_is_writeback(unsigned access) { return access == GMS_ACC_L1_WRBK || access == GMS_ACC_L2_WRBK; }

typedef enum {
    GMS_MREQ_READ = 0,
    GMS_MREQ_WRITE,
    GMS_MREQ_ATOMIC,     /* read-modify-write performed at the L2 */
} gms_mreq_kind;

/* Host speed: a request is one host cache line (64 bytes). With ~40 K requests in flight
 * (stream on qv100: 512 L1 MSHRs x 80 SMs), every stage meets its request cold in the host's
 * caches, so each line a request spans is a miss at allocation (the zeroing) and wherever
 * it is read. The DRAM coordinates (bank, row, column) are therefore not kept here: the
 * memory channel decodes them from the address when the request leaves the L2
 * (memsys_chan.c), and the channel keeps its own copy. A second line (the coordinates and a
 * debugging id) cost stream/qv100 7-9% wall in PGO=0 builds (bench/README.md, sixth session). */
typedef struct __attribute__((aligned(64))) gms_mreq {
    struct gms_mreq *next;   /* intrusive link for queues and MSHR waiter lists */
    uint64_t addr;           /* byte address of the transaction (sector/line aligned) */
    uint64_t t_ready;        /* generic "ready at" for delay queues (domain cycles) */
    /* owner bookkeeping: the LSU's in-flight instruction record, the cache's MSHR entry */
    void *inst;              /* SM in-flight instruction this transaction belongs to */
    uint64_t t_issue;        /* core cycle it left the LSU (GPGPU-Sim's mf timestamp) */
    uint16_t subpart;        /* destination memory sub-partition (set by the mapping; at most
                                65535 sub-partitions, checked by memsys_options.c) */
    uint16_t bytes;          /* data bytes: 32, 64, 96 or 128 (a line at most) */
    uint8_t sector_mask;     /* which 32 B sectors of the 128 B line (bit i = sector i) */
    uint8_t kind;            /* gms_mreq_kind */
    uint8_t access;          /* gms_access_type */
    uint8_t is_reply : 1;    /* 0 on the way down, 1 on the way back */
    uint8_t bypass_l1 : 1;   /* took the L1 bypass path */
    uint8_t is_prefetch : 1;
    uint8_t warp_txn : 1;    /* counts in its warp's outstanding transactions (set by the SM) */
    uint8_t bypass_l2 : 1;   /* RACB: refused by the L2, sent to DRAM around it (docs/cart.md) */
    uint8_t rf_seen_l1 : 1;  /* refused by an L1 / an L2 at least once (gms_<cache>_rf_requests) */
    uint8_t rf_seen_l2 : 1;
    uint16_t sm;             /* source SM (UINT16_MAX for L2 write-backs) */
    uint16_t warp;           /* warp slot within the SM */
    uint16_t icnt_flits;     /* packet size in flits while inside the interconnect */
    /* host speed only: the MSHR entry this request created in the L1 [0] and the L2 [1], so
     * that its fill finds the entry without a hash probe; a hint, checked against the key */
    uint16_t mshr_hint[2];
    /* host speed only: the line a primary miss reserved in the L1 [0] and the L2 [1], so the
     * fill's line can be prefetched before the MSHR entry is read; a hint (may be stale or
     * truncated), never used for anything else */
    uint16_t line_hint[2];
    /* per-kernel MSHR / miss-queue partition (gms_cache_set_owner): bits 0-1 the owner, bit 2
     * it holds one of its owner's MSHR entries, bit 3 one of its miss-queue entries */
    uint8_t part;
} gms_mreq;
_Static_assert(sizeof(gms_mreq) == 64, "a request is one host cache line");

/* GPGPU-Sim's data size of a store from an SM (mem_fetch's m_data_size = mem_access_t's size):
 * its coalesced segment (memory_coalescing_arch_reduce_and_send), not the bytes its lanes
 * write, which our request carries (the caches' write policies use them). From the 32 B
 * chunks of the 128 B line it touches (sector_mask): one chunk 32 B, chunks within one half
 * 64 B, both halves 128 B; 0 without a chunk. The icnt's flit count and the DRAM's atom count
 * use it (icnt.c, dram.h). */
static inline uint32_t gms_store_segment_bytes(uint32_t sector_mask)
{
    uint32_t s = sector_mask & 0xfu;
    if (!s) return 0;
    if (!(s & (s - 1))) return 32;
    return (s & 0x3u) && (s & 0xcu) ? 128 : 64;
}

/* Intrusive FIFO of requests, optionally bounded. */
typedef struct gms_mreq_fifo {
    gms_mreq *head, *tail;
    uint32_t n, cap;         /* cap 0 = unbounded */
} gms_mreq_fifo;

static inline int gms_fifo_full(const gms_mreq_fifo *f) { return f->cap && f->n >= f->cap; }
static inline int gms_fifo_empty(const gms_mreq_fifo *f) { return f->n == 0; }
static inline void gms_fifo_push(gms_mreq_fifo *f, gms_mreq *r)
{
    r->next = NULL;
    if (f->tail) f->tail->next = r; else f->head = r;
    f->tail = r;
    f->n++;
}
/* put a request back at the head (a receiver refused it after it was popped: order is kept) */
static inline void gms_fifo_push_front(gms_mreq_fifo *f, gms_mreq *r)
{
    r->next = f->head;
    f->head = r;
    if (!f->tail) f->tail = r;
    f->n++;
}
/* Host speed: the pop starts loading the new head. Requests wait in queues for many cycles
 * and are out of the host's caches when they reach the head; the next pop of this queue (a
 * later cycle, usually) then finds its request loaded. The same holds for the timed queues
 * (memsys_tq.h), an MSHR entry's waiters (mshr_conv.c) and the crossbar's outputs (xbar.c):
 * together x1.2-1.26 wall on stream/qv100 (bench/README.md, sixth session). */
static inline gms_mreq *gms_fifo_pop(gms_mreq_fifo *f)
{
    gms_mreq *r = f->head;
    if (!r) return NULL;
    f->head = r->next;
    if (!f->head) f->tail = NULL;
    else __builtin_prefetch(f->head);
    f->n--;
    r->next = NULL;
    return r;
}

/* Pool: requests are allocated in slabs and recycled; the pool counts live requests so a
 * debug check can assert conservation (every request issued is answered and freed once). */
/* Host threads (-gms_host_threads): while gms_mreq_tls points at a shard (a parallel phase),
 * alloc and release use that thread's shard (its own free list and slabs); after the phase
 * gms_mreq_shards_merge adds up the live counts. */
typedef struct gms_mreq_shard {
    gms_mreq *free_list;
    uint64_t nfree;
    int64_t live;            /* allocations minus releases in this phase */
    void **slabs;
    size_t nslabs;
} gms_mreq_shard;
extern _Thread_local gms_mreq_shard *gms_mreq_tls;

typedef struct gms_mreq_pool {
    gms_mreq *free_list;
    void **slabs;
    size_t nslabs, cap_slabs;
    uint64_t live;
    gms_mreq_shard *shards;
    unsigned nshards;
} gms_mreq_pool;

/* n thread shards */
void gms_mreq_pool_shards(gms_mreq_pool *p, unsigned n);
/* main thread, outside a phase: before it, top each shard's free list up; after it, live
 * counts and excess free requests go back to the pool */
void gms_mreq_shards_fill(gms_mreq_pool *p);
void gms_mreq_shards_merge(gms_mreq_pool *p);

void gms_mreq_pool_init(gms_mreq_pool *p);
void gms_mreq_pool_free(gms_mreq_pool *p);
gms_mreq *gms_mreq_alloc(gms_mreq_pool *p);   /* zeroed */
void gms_mreq_release(gms_mreq_pool *p, gms_mreq *r);
void gms_mreq_pool_dump_live(const gms_mreq_pool *p, FILE *out, int max);

#endif
