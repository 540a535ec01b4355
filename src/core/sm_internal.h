/* The SM's private state, shared by sm.c (the tick), sm_life.c (construction, dispatch checks,
 * report), sm_sleep.c (blocked ticks and sleep) and the warp-scheduler policies (sched_*.c). */
#ifndef GMS_CORE_SM_INTERNAL_H
#define GMS_CORE_SM_INTERNAL_H
#include "core/sm.h"
#include "core/warp_sched.h"
#include "core/memq.h"
#include "core/alu_collector.h"
#include "core/subcore_banks.h"
#include "core/bypass_path.h"
#include "core/lsu_shpipe.h"
#include "mem/mshr.h"

#define MAX_SCHED 16
#define MAX_WARPS 512
#define MAX_BANKS 32

/* W_SWAPPED: its block is an inactive context of thread oversubscription (thread_oversub.h) */
enum { W_FREE = 0, W_ACTIVE, W_BARRIER, W_FINISHING, W_DONE, W_SWAPPED };

typedef struct inflight {
    uint16_t warp;
    uint8_t dst[GMS_MAX_DST];
    uint16_t pending;          /* transactions not yet completed (at most 128) */
    uint8_t atomic;            /* a global atomic: its completion ends the warp's atomic wait */
    uint8_t app1;              /* concurrent kernels: 1 + its kernel's application, counted in
                                * flight (src/cke); 0 otherwise */
    struct inflight *next_free;
} inflight;

typedef struct warp {
    uint8_t state;
    uint8_t blocked;           /* next instruction waits on the scoreboard */
    uint16_t blk;
    uint8_t membar;            /* a MEMBAR issued: nothing more until the scoreboard is empty */
    uint32_t left;             /* instructions left in the buffer (tr->n minus those issued);
                                * host speed: no load of the trace record at every issue */
    const gms_warp_trace *tr;
    uint64_t sb[4];            /* pending register writes (256 registers) */
    uint32_t outstanding;      /* memory transactions not completed (loads, unacked stores) */
    uint32_t reg_events;       /* register releases scheduled in the wheel */
    /* host speed: the next instruction, &tr->insts[tr->n - left], so that the schedulers
     * reach it without loading the trace record */
    const gms_inst *cur;
} warp;

/* no source register for the operand collector to read: none listed (Accel-Sim gives the
 * collector unit every source the trace lists, RZ too: GMS_INST_SRC_RZ) */
static inline int inst_no_src(const gms_inst *in)
{
    if (in->flags & GMS_INST_SRC_RZ) return 0;
    for (int i = 0; i < GMS_MAX_SRC; i++) if (in->src[i] != GMS_REG_NONE) return 0;
    return 1;
}

/* sub-core operand collector (see oc_cycle in sm.c): an issued non-memory instruction waits
 * in its scheduler's ID_OC slot of its type until one of the scheduler's collector units is
 * free; its registers are released when it has gone through the unit and its pipe */
/* hold: an EXIT, which keeps its warp from finishing until it has gone through the pipe
 * (GPGPU-Sim: hardware_done needs !inst_in_pipeline) */
/* nosrc: the instruction has no source register to read (a unit allocated with it is ready at
 * once: opndcoll_rfu_t::collector_unit_t::allocate sets no m_not_ready bit) */
/* src, rz: its source registers and GMS_INST_SRC_RZ flag, for the register banks (gms_scb) */
typedef struct oc_slot {
    uint16_t warp;
    uint8_t dst[GMS_MAX_DST];
    uint8_t hold;
    uint8_t nosrc;
    uint8_t src[GMS_MAX_SRC];
    uint8_t rz;
    uint32_t delay;
    uint32_t ii;
    uint64_t seq;
} oc_slot;
#define OC_MAX_CU 8
_Static_assert(OC_MAX_CU <= GMS_SCB_MAX_CU && MAX_SCHED <= GMS_SCB_MAX_SCHED, "sub-core register banks' unit masks");
#define OC_CU_NONE 0xffu   /* cu_op: the unit holds no non-memory instruction */
typedef struct oc_sched {
    uint8_t cu_op[OC_MAX_CU];      /* its type */
    uint64_t cu_ready[OC_MAX_CU];  /* cycle from which that unit may dispatch (operands read) */
    uint8_t cu_late[OC_MAX_CU];    /* ... from that cycle's second collector step only */
    uint64_t ex_free[GMS_OP__COUNT];   /* per type: cycle from which its OC_EX slot is free */
    uint64_t fu_free[GMS_OP__COUNT];   /* per type: cycle from which its unit's dispatch register is free */
    oc_slot slot[GMS_OP__COUNT];
    oc_slot cu[OC_MAX_CU];         /* the non-memory instruction a unit holds, valid until dispatched */
} oc_sched;

typedef struct block_slot {
    int used;
    gms_kernel *k;
    gms_block_trace bt;
    uint32_t first_warp, nwarps, live, at_barrier;
    uint32_t bar_live;   /* warps that have not issued their last instruction: a barrier waits for
                          * these only (GPGPU-Sim's barrier_set_t::warp_exit at the EXIT) */
    uint32_t regs, shmem, threads;
    uint64_t seq;        /* launch order on this SM (gms_sm.blocks_launched then): with the warp's
                          * index in the block, its age (CCWS ranks by it) */
} block_slot;

typedef struct event { uint16_t warp; uint8_t reg; uint8_t pad; } event;

/* One cycle of the register-release wheel. Host speed: the first WHEEL_INLINE events are kept
 * in the bucket itself (a bucket is half a host line), so adding or running an event touches
 * one line, not the bucket and a separate array; more go to `more`. 16 bits count them: the
 * events of one cycle come from the instructions issued in the wheel's span that finish in
 * that cycle (a few per pipe and latency), far fewer than WHEEL_MORE_MAX; more would be an
 * internal error (wheel_add), not a wrapped count. */
#define WHEEL_INLINE 5
#define WHEEL_MORE_MAX 32768u
typedef struct bucket {
    uint16_t n, cap;           /* events; capacity of `more` */
    event in[WHEEL_INLINE];
    event *more;               /* events WHEEL_INLINE.. */
} bucket;
_Static_assert(sizeof(bucket) == 32, "two wheel buckets per host line");
static inline event *bucket_ev(bucket *b, uint32_t i) { return i < WHEEL_INLINE ? &b->in[i] : &b->more[i - WHEEL_INLINE]; }

/* Host speed: an SM that can do nothing but retry (bank heads failing in the L1, the LSU
 * stalled on a full bank queue or bypass slots, the interconnect refusing its requests) spends
 * most of a tick finding that out again. At the end of a full tick that left it provably in
 * such a state (sm_blocked_snapshot in sm.c, the rest in sm_sleep.c) it remembers what the next tick would count, and
 * until `until` or any change (sm_blocked_tick re-checks what other components change;
 * a reply ends it; translations, new blocks and L1 flushes clear it) it only counts that. */
typedef struct blocked_snap {
    uint64_t until;                /* 0: no snapshot; else first cycle at which time alone could
                                    * change something */
    uint32_t fail_mask;            /* bit b: bank b's head fails in the L1 ... */
    uint8_t lsu;                   /* lsu_feed stalls: 0 no (LSU idle), LSU_STALL_BANK, _SLOT */
    uint8_t cause[MAX_BANKS];      /* ... with this gms_rf_cause */
    uint32_t ncand;                /* candidates then: none may issue (sm_cands_may_issue) */
    uint64_t sleep_from;           /* 0, or the SM sleeps through the snapshot: the first
                                    * cycle whose blocked tick is not counted yet (sm_sleep_settle) */
} blocked_snap;
enum { LSU_STALL_NONE = 0, LSU_STALL_BANK, LSU_STALL_SLOT };

typedef struct sched {
    uint32_t n;
    int32_t last;               /* warp slot issued last (GTO greedy) */
    uint32_t last_pos;          /* position in order[] after which LRR starts */
    uint16_t order[MAX_WARPS];  /* this scheduler's warps, oldest first */
    uint16_t pos[MAX_WARPS];    /* host speed: by local slot (local_of), its warp's index in order[] */
} sched;

struct gms_sm {
    gms_gpu *g;
    /* Host speed: what every tick reads first, together (80 SMs' state does not stay in the
     * host's caches from one tick of an SM to its next) */
    gms_counters *ctr;                   /* &g->ctr, or the thread's shard during a parallel tick */
    const gms_params *p;
    gms_component *comp;
    gms_cache *l1;
    gms_mreq *next_wb;                   /* ldst_unit::m_next_wb: L1D waiter (or, with wb_on, bypassed
                                          * reply) written back next */
    /* ldst_unit's write-back clients (-gms_lsu_writeback gpgpusim): shared-memory pipeline,
     * bypassed replies (m_next_global) and L1D hand-outs share m_next_wb, round robin */
    uint8_t wb_on;
    uint8_t wb_arb;                      /* m_writeback_arb: the client looked at first (0-4) */
    uint8_t wb_sh;                       /* m_next_wb holds wb_sh_ent, a shared-memory load */
    uint8_t sh_waiting;                  /* sh_wait waits in the dispatch register: pipeline full */
    gms_mreq *next_global;               /* m_next_global: a bypassed read's reply */
    bucket *wheel;                       /* register-release wheel */
    uint64_t *wheel_occ;                 /* bit i: wheel[i] holds events (the sleep and wake tests) */
    uint32_t wheel_mask;
    uint64_t wheel_events;
    uint64_t last_cycle;
    uint32_t ncand;
    uint32_t npark;
    uint32_t oc_pending;                 /* instructions waiting in ID_OC slots or collector units */
    /* 3.x front end (-gms_inst_fetch gpgpusim, sm_ifetch.c): a warp is a candidate only while
     * its instruction buffer (ib) holds instructions */
    uint8_t fe_on;
    uint8_t fe_dual;                     /* -gpgpu_max_insn_issue_per_warp 2 */
    uint8_t sub_dual;                    /* the same on the sub-core pipeline (gms_sm_issue) */
    uint32_t fe_tput;                    /* -gpgpu_inst_fetch_throughput: decode/fetch pairs a cycle */
    int32_t fe_buf;                      /* the fetch buffer: the warp fetched last cycle, -1 none */
    uint32_t fe_nwant;                   /* warps waiting for a fetch (fe_want) */
    uint32_t fe_last;                    /* the warp fetched last (the round robin starts after it) */
    int lsu_busy;
    uint32_t op_busy;                    /* op classes whose pipes are all busy this cycle */
    uint32_t nsched;
    uint32_t sched_pow2;                 /* nsched is a power of two: */
    uint32_t sched_mask, sched_shift;    /* nsched - 1 and log2(nsched) */
    uint32_t nbanks, l1_latency;
    const gms_warp_sched_ops *sched_ops; /* -gpgpu_scheduler */
    oc_sched *oc;                        /* per scheduler, with -gpgpu_sub_core_model and generic units */
    gms_aluc *aluc;                      /* without sub-cores: 3.x's ALU collector (-gms_alu_collector) */
    gms_scb *scb;                        /* with oc: its register banks (-gms_subcore_reg_banks gpgpusim) */
    uint8_t scb_wb_done;                 /* ... the write-back slot's destinations written (bit i) */
    gms_mreq_fifo replies;
    /* replies it may hold (GPGPU-Sim's cluster ejection FIFO and the LDST unit's response FIFO:
     * -gpgpu_n_cluster_ejection_buffer_size + -gpgpu_n_ldst_response_buffer_size) */
    uint32_t reply_cap;
    uint32_t icnt_port;     /* its cluster: the interconnect node it sends from (gms_icnt_send) */
    uint32_t *cl_replies;   /* several SMs a cluster: the replies the cluster holds (gms_gpu.cl_replies) */
    gms_mreq_fifo bypass_out;            /* bypassed requests waiting for the interconnect */
    uint32_t sched_ncand[MAX_SCHED];
    uint32_t park_ops[MAX_SCHED];        /* bit op: park[si][op] holds a warp */
    uint16_t oc_slot_mask[MAX_SCHED];    /* collector: bit op, oc[si].slot[op] is valid (0 without it) */
    uint8_t oc_cu_held[MAX_SCHED];       /* collector: bit k, oc[si]'s unit k holds a non-memory
                                          * instruction not yet dispatched */
    uint32_t oc_types;                   /* collector: bit op, some scheduler's slot[op] is valid */
    uint16_t oc_type_scheds[GMS_OP__COUNT];   /* ... bit si: in scheduler si's (= oc_slot_mask
                                               * transposed: allocate_cu's search for the oldest
                                               * visits only these) */
    gms_mreq_fifo bank[MAX_BANKS];       /* L1 access pipeline, per bank */
    uint32_t bank_busy;                  /* bit b: bank[b] holds a request */
    uint32_t id;
    char name[16];
    int l1_sector;
    int l1_enabled;
    uint32_t nwarps_max;
    uint64_t cand[MAX_WARPS / 64];      /* warps the schedulers should look at */
    block_slot *blocks;
    uint32_t nblock_slots, blocks_used;
    uint64_t blocks_launched;            /* blocks this SM has taken (block_slot.seq) */
    uint8_t l1_used;                     /* a block ran here since the L1's last flush */
    uint32_t spec_bad;                   /* bit N: specialised unit N missing or with 0 units */
    uint32_t threads_used, regs_used, shmem_used;
    gms_kernel *kernel_here;             /* when SMs are not shared between kernels */
    /* pipelines: per op class, next cycle each pipe is free */
    uint64_t *pipe_free[GMS_OP__COUNT];
    uint32_t memq_cap;                   /* a scheduler's memory instructions past ID_OC_MEM (shared
                                          * ID_OC_MEM set: all schedulers') */
    uint32_t memq_moves;                 /* shared ID_OC_MEM set: instructions leaving it per cycle */
    uint32_t issue_rot;                  /* ~0: the first scheduler to issue rotates with the SM's
                                          * active cycles; 0: scheduler 0 first
                                          * (-gms_sched_issue_order fixed) */
    /* GPGPU-Sim's Issue_Prio moves on only in cycles the SM holds blocks (shader_core_ctx::cycle
     * returns early otherwise): prio_acc active cycles before the current active period, which
     * began at prio_from (UINT64_MAX: idle, the next tick with a block begins one) */
    uint64_t prio_acc, prio_from;
    uint32_t oc_cu;                      /* collector units per scheduler */
    uint32_t oc_ports;                   /* generic collector input ports */
    uint32_t oc_busy;                    /* cycles from a unit's allocation to its dispatch */
    uint32_t oc_late;                    /* units (memory or not) given their instruction with
                                          * the `late` mark (gms_memq_ent.late, oc_sched.cu_late)
                                          * and not dispatched yet: only they make a cycle's
                                          * second collector step do anything */
    uint64_t oc_seq;                     /* issue order of ID_OC instructions (warp_inst_t uid) */
    /* LSU */
    uint32_t lsu_hold;                   /* warp + 1 whose instruction the LSU is feeding, 0 if none */
    uint16_t lsu_warp;
    gms_inst lsu_inst;
    inflight *lsu_inf;
    uint32_t ntxn, txn_pos;
    uint64_t lsu_free_at;                /* shared-memory conflict cycles */
    gms_shpipe shp;                      /* wb_on: the shared-memory pipeline (lsu_shpipe.h) */
    gms_shp_ent wb_sh_ent, sh_wait;
    uint64_t sh_wait_e;                  /* sh_wait's last conflict cycle */
    uint64_t wb_client_waits;            /* cycles x clients with a result the write-back slot did not take */
    uint64_t shp_full;                   /* shared loads that found the pipeline full */
    int lsu_bypass;
    gms_access_type lsu_acc;
    uint8_t lsu_kind;
    uint32_t bypass_inflight;
    struct gms_mrpb *mrpb;               /* -gms_mrpb: the prioritization buffer, or NULL */
    inflight *inf_free;
    inflight **inf_slabs;
    uint32_t ninf_slabs;
    /* stats */
    uint64_t winst, tinst;
    struct gms_cke_sm *cke;              /* a multiprogrammed run: the schemes' state (src/cke) */
    /* Host speed: the large arrays last, so that the scalars every tick reads share a few host
     * cache lines (80 SMs' state does not stay in the host's caches between two ticks) */
    /* warps and blocks */
    warp w[MAX_WARPS];
    /* host speed (structure of arrays): w[wi].cur->op while the warp has a buffered
     * instruction, so that the schedulers' structural tests (op_busy, ID_OC slot, unit) on
     * every candidate read one byte here instead of each warp's trace record, most of them
     * out of the host's caches; kept by warp_set_cur */
    uint8_t cur_op[MAX_WARPS];
    uint8_t op_slot[GMS_OP__COUNT];      /* the ID_OC slot type an op class issues into (sm_life.c) */
    /* 3.x front end: instructions in each warp's buffer (0-2); ib_bad: a wrong-path entry follows
     * them (decoded after a taken branch), flushed when the scheduler reaches it; fe_want: warps
     * whose buffer is empty, waiting for the fetch unit */
    uint8_t ib[MAX_WARPS];
    uint8_t ib_bad[MAX_WARPS];
    uint64_t fe_want[MAX_WARPS / 64];
    uint64_t scand[MAX_SCHED][MAX_WARPS / 64];  /* candidates per scheduler, by local index slot / nsched */
    /* Host speed: warps parked because their scheduler's ID_OC slot of their next
     * instruction's type (ID_OC_MEM for memory instructions) is taken, by scheduler, type and
     * local index (as scand). A parked warp is a candidate again exactly while that slot is
     * free (sched_cands, cand_or_ready): it could not issue before, and is not re-checked
     * every cycle while the slot stays taken. */
    uint64_t park[MAX_SCHED][GMS_OP__COUNT][MAX_WARPS / 64];
    uint16_t park_n[MAX_SCHED][GMS_OP__COUNT];
    sched sc[MAX_SCHED];
    gms_memq memq;                       /* issued memory instructions on their way to the LSU */
    gms_txn txn[128];
    /* the blocked-tick shortcut (host speed). Last: with these fields before `bank`, which
     * moves everything after them, stream/qv100 ran 6% slower (bench/README.md) */
    blocked_snap blk;                    /* host speed: see blocked_snap */
    int blk_on;                          /* the blocked-tick shortcut may be used (-gms_sleep_blocked) */
    int pipe_sleep;                      /* the last tick went to sleep on its L1 pipeline (it would
                                          * have ticked on with -gms_sleep_blocked 0) */
    uint8_t blk_hit;                     /* the snapshot has served a tick */
    uint8_t blk_skip, blk_backoff;       /* snapshot attempts to skip, and the next such pause */
    uint64_t blk_ticks;                  /* ticks served by a snapshot (for tests; not a statistic) */
    /* what this full tick's l1_access and lsu_feed saw (for sm_blocked_snapshot) */
    uint32_t tick_fail_mask;             /* banks whose head failed */
    uint8_t tick_l1_changed;             /* some access did not fail, a reply was processed or
                                          * a waiter taken from the L1's MSHRs */
    uint8_t tick_lsu;                    /* lsu_feed stalled before feeding anything: LSU_STALL_* */
    uint8_t tick_lsu_sent;               /* lsu_feed sent a bypassed request into the interconnect */
    uint32_t tick_l1_sent_flits;         /* flits of the L1 miss drain_to_icnt sent this tick and deferred (0: none) */
    uint8_t tick_cause[MAX_BANKS];
    struct gms_to_sm *to;                /* thread oversubscription (thread_oversub.h), NULL when off */
    /* L1D bypassing (bypass_path.h, bypass_policy.h) and warp limiting (swl.h) */
    gms_bypass_sm bp;                    /* the bypass path's statistics */
    const struct gms_bypass_ops *byp_ops;   /* -gms_l1d_bypass, NULL for none */
    void *byp;                           /* its per-SM state */
    uint8_t l1_pdp;                      /* PDP protects the L1D's lines (bypass_pdp.c) */
    uint8_t l1_hooks;                    /* PDP or CCWS: l1_hooks_before/after around L1D accesses */
    uint8_t lsu_observe;                 /* the LSU's load is shown to byp_ops->observe */
    uint8_t lsu_txn;                     /* ... and decided per transaction (byp_ops->bypass_txn) */
    uint32_t txn_dec;                    /* txn_pos + 1 of the transaction last decided */
    uint8_t swl_on;                      /* -gms_swl: only warps in swl_ok may issue */
    uint64_t swl_ok[MAX_WARPS / 64];
    struct gms_ccws *ccws;               /* -gms_ccws (ccws.h), or NULL */
    uint64_t ccws_barred[MAX_WARPS / 64];   /* warps CCWS keeps from issuing global loads */
    /* blocked ticks and the L1D's MSHR events (cold, so at the end): tracked (gms_cache_track_refusals),
     * what bank b's refused access added to them this tick, and the snapshot's copy, which
     * each replayed refusal adds again (blocked_count) */
    uint8_t l1_ev;
    gms_mshr_ev tick_ev[MAX_BANKS];
    gms_mshr_ev blk_ev[MAX_BANKS];
};

/* ---------------------------------------------------------------- helpers */

static inline uint64_t now_core(const gms_sm *s) { return gms_engine_cycle(s->g->eng, GMS_DOM_CORE); }

/* the register-release wheel (wheel_add in sm.c) */
/* the first cycle c, from <= c <= to, whose wheel bucket holds events, or 0 (to - from is less
 * than the wheel's size, a multiple of 64) */
static inline uint64_t wheel_next(const gms_sm *s, uint64_t from, uint64_t to)
{
    for (uint64_t c = from; c <= to;) {
        uint32_t i = (uint32_t)(c & s->wheel_mask);
        uint64_t w = s->wheel_occ[i >> 6] >> (i & 63);
        if (w) {
            uint64_t hit = c + (uint64_t)__builtin_ctzll(w);
            return hit <= to ? hit : 0;
        }
        c += 64 - (i & 63);
    }
    return 0;
}

/* the wake-up of an SM that goes idle after `cycle` until `t` (UINT64_MAX: no time of its
 * own): t, or its next register release if that comes first (UINT64_MAX: neither) */
static inline uint64_t wake_or_release(const gms_sm *s, uint64_t cycle, uint64_t t)
{
    if (!s->wheel_events || t <= cycle + 1) return t;
    uint64_t last = t - 1 < cycle + s->wheel_mask + 1 ? t - 1 : cycle + s->wheel_mask + 1;
    uint64_t c = wheel_next(s, cycle + 1, last);
    return c ? c : t;
}
static inline int wheel_has(const gms_sm *s, uint64_t cycle)
{
    uint32_t i = (uint32_t)(cycle & s->wheel_mask);
    return s->wheel_occ[i >> 6] >> (i & 63) & 1;
}

/* bit 255 (GMS_REG_NONE / RZ) is never set by a register, so no test for "no register" is
 * needed; it is the warp's atomic wait instead (SB_ATOMIC) */
static inline uint64_t sb_busy(const warp *w, uint8_t r) { return w->sb[r >> 6] >> (r & 63) & 1; }
static inline void sb_set(warp *w, uint8_t r) { if (r != GMS_REG_NONE) w->sb[r >> 6] |= 1ULL << (r & 63); }
static inline void sb_clr(warp *w, uint8_t r) { if (r != GMS_REG_NONE) w->sb[r >> 6] &= ~(1ULL << (r & 63)); }
static inline int sb_empty(const warp *w) { return !(w->sb[0] | w->sb[1] | w->sb[2] | w->sb[3]); }
/* A warp with an atomic in flight issues nothing until it is done (GPGPU-Sim:
 * shd_warp_t::waiting() while m_n_atomic > 0; the count goes up at issue for every active lane
 * of an ATOM/ATOMG/RED/ATOMS and down as each request's reply, or the shared-memory
 * pipeline, writes back). Since nothing issues meanwhile, a warp has at most one atomic in
 * flight and one bit holds the wait: the scoreboard's bit 255, which no register uses (RZ).
 * While it is set, sb_busy(GMS_REG_NONE) is true as well, and a waiting warp is not done
 * (sb_empty). A wheel event for SB_ATOMIC (shared atomics) clears it. */
#define SB_ATOMIC GMS_REG_NONE
static inline void sb_atomic_set(warp *w) { w->sb[3] |= 1ULL << 63; }
static inline void sb_atomic_clr(warp *w) { w->sb[3] &= ~(1ULL << 63); }
static inline uint64_t sb_atomic(const warp *w) { return w->sb[3] >> 63; }
/* the scoreboard holds instruction `in` of warp w back: a source or destination register still
 * pending, or an atomic outstanding */
static inline uint64_t sb_blocks(const warp *w, const gms_inst *in)
{
    return sb_busy(w, in->src[0]) | sb_busy(w, in->src[1]) | sb_busy(w, in->src[2]) | sb_busy(w, in->src[3]) |
           sb_busy(w, in->dst[0]) | sb_busy(w, in->dst[1]) | sb_atomic(w);
}

/* a warp's scheduler (wi mod nsched) and its index among that scheduler's warps (wi / nsched):
 * a mask and a shift, precomputed, for the usual power-of-two scheduler counts */
static inline uint32_t sched_of(const gms_sm *s, uint32_t wi) { return s->sched_pow2 ? wi & s->sched_mask : wi % s->nsched; }
static inline uint32_t local_of(const gms_sm *s, uint32_t wi) { return s->sched_pow2 ? wi >> s->sched_shift : wi / s->nsched; }
static inline uint32_t sm_bank_of(const gms_sm *s, uint64_t addr)
{
    uint32_t n = s->nbanks;
    return (n & (n - 1)) ? (uint32_t)((addr >> 5) % n) : (uint32_t)(addr >> 5) & (n - 1);
}

/* the front end: a warp waits for a fetch, or a fetch waits for its decode */
static inline int fe_busy(const gms_sm *s) { return s->fe_nwant || s->fe_buf >= 0; }

/* the front end: warp wi's instruction buffer is empty and it has instructions to come */
static inline void fe_want_on(gms_sm *s, uint32_t wi)
{
    uint64_t bit = 1ULL << (wi & 63);
    s->ib_bad[wi] = 0;
    /* already fetched, decoded next cycle (e.g. released from a barrier in between): fetched
     * twice, its buffer would be filled again while it issues or waits parked on a slot */
    if (s->fe_buf == (int32_t)wi) return;
    if (!(s->fe_want[wi >> 6] & bit)) { s->fe_want[wi >> 6] |= bit; s->fe_nwant++; }
}

static inline void cand_on(gms_sm *s, uint32_t wi)
{
    uint64_t bit = 1ULL << (wi & 63);
    /* the front end: a warp with nothing in its instruction buffer waits for the fetch unit
     * first (sm_ifetch.c makes it a candidate when its instructions are decoded) */
    if (s->fe_on && !s->ib[wi]) { fe_want_on(s, wi); return; }
    if (!(s->cand[wi >> 6] & bit)) {
        uint32_t si = sched_of(s, wi), li = local_of(s, wi);
        s->cand[wi >> 6] |= bit;
        s->ncand++;
        s->sched_ncand[si]++;
        s->scand[si][li >> 6] |= 1ULL << (li & 63);
        /* host speed: its scheduler will read the warp's next instruction record, written
         * when its block was dispatched and long out of the host's caches */
        __builtin_prefetch(s->w[wi].cur);
    }
}
static inline void cand_off(gms_sm *s, uint32_t wi)
{
    uint64_t bit = 1ULL << (wi & 63);
    if (s->cand[wi >> 6] & bit) {
        uint32_t si = sched_of(s, wi), li = local_of(s, wi);
        s->cand[wi >> 6] &= ~bit;
        s->ncand--;
        s->sched_ncand[si]--;
        s->scand[si][li >> 6] &= ~(1ULL << (li & 63));
    }
}
static inline int is_cand(const gms_sm *s, uint32_t wi) { return s->cand[wi >> 6] >> (wi & 63) & 1; }

/* warp wi's next instruction is its buffer's record at `cur` (`left` of them from there) */
static inline void warp_set_cur(gms_sm *s, uint32_t wi, const gms_inst *cur)
{
    s->w[wi].cur = cur;
    if (s->w[wi].left) s->cur_op[wi] = s->op_slot[cur->op];
}

/* the scheduler whose ID_OC slot of type op holds the oldest instruction (the lowest of equal
 * ones), ~0u if none does */
static inline uint32_t oc_oldest_sched(const gms_sm *s, uint32_t op)
{
    uint32_t m = s->oc_type_scheds[op];
    if (!m) return ~0u;
    uint32_t si = (uint32_t)__builtin_ctz(m);
    uint64_t best = s->oc[si].slot[op].seq;
    for (m &= m - 1; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        if (s->oc[k].slot[op].seq < best) { best = s->oc[k].slot[op].seq; si = k; }
    }
    return si;
}
/* is scheduler si's ID_OC slot of type op free (ID_OC_MEM: may it issue a memory
 * instruction)? Without the sub-core collector, only memory instructions wait for a slot. */
static inline int sm_slot_free(const gms_sm *s, uint32_t si, uint32_t op)
{
    if (op == GMS_OP_MEM) return gms_memq_slot_free(&s->memq, si);
    return !(s->oc_slot_mask[si] >> op & 1u);
}
static inline void park(gms_sm *s, uint32_t wi, uint32_t op)
{
    uint32_t si = sched_of(s, wi), li = local_of(s, wi);
    cand_off(s, wi);
    s->park[si][op][li >> 6] |= 1ULL << (li & 63);
    s->park_n[si][op]++;
    s->park_ops[si] |= 1u << op;
    s->npark++;
}
/* a parked warp is looked at again (its slot freed): it is an ordinary candidate */
static inline void unpark(gms_sm *s, uint32_t wi, uint32_t op)
{
    uint32_t si = sched_of(s, wi), li = local_of(s, wi);
    s->park[si][op][li >> 6] &= ~(1ULL << (li & 63));
    if (!--s->park_n[si][op]) s->park_ops[si] &= ~(1u << op);
    s->npark--;
    cand_on(s, wi);
}
/* the candidates scheduler si looks at, by local index: scand[si] plus the warps parked on
 * a slot that is free now. `buf` holds the union when there is one. */
static inline const uint64_t *sched_cands(const gms_sm *s, uint32_t si, uint32_t words, uint64_t *buf)
{
    uint32_t ops = s->park_ops[si];
    if (!ops) return s->scand[si];
    int any = 0;
    while (ops) {
        uint32_t op = (uint32_t)__builtin_ctz(ops);
        ops &= ops - 1;
        if (!sm_slot_free(s, si, op)) continue;
        if (!any) { for (uint32_t k = 0; k < words; k++) buf[k] = s->scand[si][k]; any = 1; }
        for (uint32_t k = 0; k < words; k++) buf[k] |= s->park[si][op][k];
    }
    return any ? buf : s->scand[si];
}
/* has scheduler si a warp parked on a slot that is free now? */
static inline int sched_parked_ready(const gms_sm *s, uint32_t si)
{
    for (uint32_t ops = s->park_ops[si]; ops; ops &= ops - 1)
        if (sm_slot_free(s, si, (uint32_t)__builtin_ctz(ops))) return 1;
    return 0;
}
/* has scheduler si a candidate, or a warp parked on a slot that is free now? (else its pick
 * would find nothing: skipped) */
static inline int sched_has_cands(const gms_sm *s, uint32_t si)
{
    return s->sched_ncand[si] || sched_parked_ready(s, si);
}
/* warp wi is a candidate, or parked on a slot that is free now */
static inline int cand_or_ready(const gms_sm *s, uint32_t wi)
{
    if (is_cand(s, wi)) return 1;
    if (!s->npark) return 0;
    uint32_t si = sched_of(s, wi), li = local_of(s, wi);
    const warp *w = &s->w[wi];
    if (w->state != W_ACTIVE) return 0;
    uint32_t op = s->cur_op[wi];
    return (s->park[si][op][li >> 6] >> (li & 63) & 1) && sm_slot_free(s, si, op);
}

/* can scheduler si issue a memory instruction (its ID_OC_MEM slot is free)? */
static inline int gms_sm_mem_slot_free(const gms_sm *s, uint32_t si) { return gms_memq_slot_free(&s->memq, si); }

/* concurrent kernels (sm.c): may warp wi's ready instruction issue under the scheme's gate? */
int gms_sm_cke_gate(gms_sm *s, uint32_t wi, const gms_inst *in, uint64_t now);

/* a warp behind a MEMBAR (sm.c): 1 while it waits (parked on its scoreboard), else 0 after the
 * barrier is cleared */
int gms_sm_membar_waits(gms_sm *s, uint32_t wi);

/* can warp wi issue its next instruction now (1)? 0: not now (a structural hazard, or the
 * warp was parked on its scoreboard). Inline: the schedulers call it for every candidate
 * every cycle, and most calls end at the first test. */
__attribute__((always_inline)) static inline int gms_sm_can_issue(gms_sm *s, uint32_t wi, uint64_t now, int lsu_free,
                                                                  const gms_inst **out)
{
    warp *w = &s->w[wi];
    uint32_t op = s->cur_op[wi];   /* = w->cur->op, without loading the record (cur_op) */
    if (!is_cand(s, wi)) unpark(s, wi, op);   /* parked, and its slot is free: as re-armed */
    if (s->fe_on && !s->ib[wi]) {
        /* 3.x: its buffer's wrong-path entry (after a taken branch) is flushed when reached,
         * and the warp waits for a fetch (the only way a candidate has an empty buffer) */
        cand_off(s, wi);
        fe_want_on(s, wi);
        return 0;
    }
    if (s->swl_on && !(s->swl_ok[wi >> 6] >> (wi & 63) & 1)) return 0;   /* SWL: not among the K oldest */
    if (s->op_busy >> op & 1) return 0;   /* this op class already found busy this cycle */
    const gms_inst *in = w->cur;
    if (op == GMS_OP_MEM) {
        if (!lsu_free) { park(s, wi, GMS_OP_MEM); return 0; }
        if (s->ccws && in->mem == GMS_MEM_LD_GLOBAL && (s->ccws_barred[wi >> 6] >> (wi & 63) & 1)) return 0;
    } else {
        if (s->oc_slot_mask[sched_of(s, wi)] >> op & 1u) {
            park(s, wi, op);   /* its ID_OC slot is taken */
            return 0;
        }
        if (s->aluc) {   /* 3.x: its pipe's ID_OC set must have room (BAR and EXIT: the SP pipe's); the units are not looked at */
            if (!gms_aluc_idoc_free(s->aluc, gms_aluc_pipe_of((uint8_t)op))) {
                s->op_busy |= 1u << op;
                return 0;
            }
        } else if (!s->oc) {   /* sub-core collector: the unit is timed when the collector dispatches */
            const uint64_t *pf = s->pipe_free[op];
            uint32_t n = s->p->core.units[op], k;
            for (k = 0; k < n; k++) if (pf[k] <= now) break;
            if (k == n) { s->op_busy |= 1u << op; return 0; }
        }
    }
    if (__builtin_expect(w->membar, 0) && gms_sm_membar_waits(s, wi)) return 0;
    if (sb_blocks(w, in)) {
        w->blocked = 1;
        cand_off(s, wi);
        return 0;
    }
    if (__builtin_expect(s->cke != NULL, 0) && !gms_sm_cke_gate(s, wi, in, now)) return 0;
    *out = in;
    return 1;
}

void gms_sm_issue(gms_sm *s, uint32_t wi, const gms_inst *in, uint64_t now);

/* the front end (sm_ifetch.c): after warp wi issued from its buffer; one decode/fetch pair
 * (after the schedulers, -gpgpu_inst_fetch_throughput of them a cycle) */
void gms_ifetch_after_issue(gms_sm *s, uint32_t wi, int flush_now);
void gms_ifetch_cycle(gms_sm *s);

/* the SM's tick (sm.c; the engine calls it) */
int gms_sm_tick(void *self, uint64_t cycle);

/* blocked ticks and sleep (sm_sleep.c): the snapshot's rest after sm.c's inline tests (0: no
 * snapshot, 1: a snapshot, 2: a snapshot slept through), a wasted look's back-off, a tick from
 * the snapshot (1: done), sleeping through it, counting the ticks slept through up to `upto`,
 * and a change from outside that may end it */
int gms_sm_blocked_snapshot_rest(gms_sm *s, uint64_t cycle);
void gms_sm_blocked_wasted(gms_sm *s);
int gms_sm_blocked_tick(gms_sm *s, uint64_t cycle);
int gms_sm_sleep(gms_sm *s, uint64_t cycle);
void gms_sm_sleep_settle(gms_sm *s, uint64_t upto);
void gms_sm_snapshot_clear(gms_sm *s);

#endif
