/* MRPB, the memory request prioritization buffer (Jia, Shaw and Martonosi, HPCA'14; spec 001
 * section 3.7, spec 000a section 4; docs/mrpb.md). It sits between the coalescer (the LSU) and
 * the L1D of one SM: every transaction on the L1D path is put in one of nq FIFO queues chosen
 * by a signature of its warp (warp slot mod nq), and the L1D is fed from one queue at a time,
 * so that one warp's requests reach the cache together instead of interleaved with every other
 * warp's (a smaller working set at any time). The second half of MRPB, a read that would stall
 * in the L1D bypasses it, is done where the L1D answers (sm.c l1_access, gms_mrpb_bypasses).
 *
 * This file is the buffer alone (no SM, no cache), so that its queue selection and drain order
 * can be tested by hand. A slot is reserved when the LSU creates the transaction
 * (gms_mrpb_reserve: the LSU stalls on a full queue) and filled when its address translation is
 * done (gms_mrpb_push; at once without UVM), so a queue never holds more than its size. */
#ifndef GMS_MEM_MRPB_H
#define GMS_MEM_MRPB_H
#include <stdint.h>
#include "mem/mreq.h"
#include "config/option.h"
#include "util/err.h"

typedef enum {
    GMS_MRPB_DRAIN_FIXED = 0,   /* the lowest-numbered non-empty queue, every cycle (the
                                 * dissertation's reimplementation, spec 001 section 3.7) */
    GMS_MRPB_DRAIN_STICKY,      /* the queue being drained until it is empty, then the next
                                 * non-empty one in round-robin order (the paper's "one queue
                                 * at a time") */
} gms_mrpb_drain;

typedef enum {
    GMS_MRPB_BYPASS_NONE = 0,   /* reorder only */
    GMS_MRPB_BYPASS_ANY,        /* a read refused by the L1D for any cause (spec 001's repo) */
    GMS_MRPB_BYPASS_LINE,       /* only for want of a line: every way reserved (the paper's
                                 * associativity stall, spec 000a section 4) */
} gms_mrpb_bypass;

typedef struct gms_mrpb_params {
    int on;                    /* -gms_mrpb */
    uint32_t queues;           /* -gms_mrpb_queues: 0 = one per warp slot */
    uint32_t queue_size;       /* -gms_mrpb_queue_size: entries per queue */
    uint32_t width;            /* -gms_mrpb_drain_width: requests to the L1D per cycle */
    char drain_str[GMS_OPT_STRLEN];   /* -gms_mrpb_drain: fixed | sticky */
    char bypass_str[GMS_OPT_STRLEN];  /* -gms_mrpb_bypass: any | line | none */
    uint32_t drain;            /* decoded gms_mrpb_drain */
    uint32_t bypass;           /* decoded gms_mrpb_bypass */
} gms_mrpb_params;

/* decode drain_str and bypass_str; errors name the option */
int gms_mrpb_params_finalize(gms_mrpb_params *p, gms_error *err);

typedef struct gms_mrpb_stats {
    uint64_t requests;         /* transactions that went through the buffer */
    uint64_t bypassed;         /* reads the L1D refused that bypassed it (gms_mrpb_bypasses) */
    uint64_t full_stalls;      /* LSU cycles stalled on a full queue */
    uint64_t bank_stalls;      /* cycles the drain stopped at a full L1D bank queue */
    uint64_t switches;         /* drains from another queue than the previous drain's */
    uint64_t max_occupancy;    /* most requests held at once (queued + reserved) */
} gms_mrpb_stats;

typedef struct gms_mrpb {
    uint32_t nq, cap, drain;
    uint32_t n;                /* requests queued (not reserved ones still in translation) */
    uint32_t held;             /* queued + reserved */
    uint32_t cur;              /* the queue drained last (sticky: drained until empty) */
    uint32_t sel;              /* the queue gms_mrpb_peek chose; UINT32_MAX if none */
    gms_mreq_fifo *q;
    uint32_t *used;            /* per queue: queued + reserved */
    uint64_t *nonempty;        /* bit i: q[i] holds a request */
    gms_mrpb_stats st;
} gms_mrpb;

/* nwarps: the SM's warp slots (the queue count when p->queues is 0) */
gms_mrpb *gms_mrpb_new(const gms_mrpb_params *p, uint32_t nwarps);
void gms_mrpb_free(gms_mrpb *m);

/* the signature: warp slot -> queue */
static inline uint32_t gms_mrpb_queue_of(const gms_mrpb *m, uint32_t warp) { return warp % m->nq; }
/* take a slot in warp's queue for a transaction about to be created: 0 if the queue is full */
int gms_mrpb_reserve(gms_mrpb *m, uint32_t warp);
/* r (r->warp) fills the slot reserved for it */
void gms_mrpb_push(gms_mrpb *m, gms_mreq *r);
/* the request the drain policy sends next (NULL if none is queued); gms_mrpb_pop takes it */
gms_mreq *gms_mrpb_peek(gms_mrpb *m);
gms_mreq *gms_mrpb_pop(gms_mrpb *m);

#endif
