/* The memory instructions an SM has issued but its LSU has not taken yet: GPGPU-Sim's path
 * from the scheduler to the LDST unit (shader.cc). A scheduler issues a memory instruction
 * into its own ID_OC_MEM slot (sub-core model: one slot per scheduler, so a scheduler whose
 * slot is taken cannot issue another memory instruction); an operand collector unit reads its
 * registers and moves it on to OC_EX_MEM; ldst_unit::issue takes the OLDEST instruction there
 * (register_set::get_ready: smallest uid) whenever the LSU's dispatch register is free. So
 * memory instructions reach the LSU in issue order.
 *
 * With the sub-core model each scheduler owns its share of the collector units
 * (opndcoll_rfu_t::allocate_cu: units / schedulers, 8 / 4 = 2 on the QV100) and its own
 * OC_EX_MEM slot (register_set::has_free(sub_core_model, reg_id)), so at most
 * units/schedulers + 1 of one scheduler's memory instructions are past ID_OC_MEM.
 *
 * Without the sub-core model GPGPU-Sim has ONE ID_OC_MEM register set, of the width
 * -gpgpu_pipeline_widths gives, shared by all schedulers (register_set::has_free() looks at
 * every register), and one pool of collector units and OC_EX_MEM registers: `shared_w` (the
 * width) switches to that rule, and collection is gms_memq_collect_shared (-gms_id_oc_mem).
 *
 * Modelled: push (issue) -> collect (a later cycle; at most `max_per_sched` of a scheduler's
 * instructions past ID_OC_MEM) -> take (a later cycle; the oldest collected). With the
 * sub-core collector (sm.c, oc_cycle) collection is unit by unit: alloc_cu (oldest first,
 * into a unit), dispatch (the lowest unit into the scheduler's OC_EX_MEM slot), take (the
 * oldest instruction in an OC_EX_MEM slot). Register banks: without sub-cores, through rd_alloc
 * (GPGPU-Sim 3.x's arbiter, alu_collector.h); in the sub-core model sm.c queues the unit's
 * reads (subcore_banks.h) and sets ready_at once they are done (gms_memq_unit_entry). */
#ifndef GMS_CORE_MEMQ_H
#define GMS_CORE_MEMQ_H
#include <stdint.h>
#include "frontend/inst.h"

#define GMS_MEMQ_CAP 32

typedef struct gms_memq_ent {
    gms_inst in;                 /* a copy: the warp's buffer may be refilled meanwhile */
    uint16_t warp;
    uint8_t sched;
    uint8_t collected;           /* left ID_OC_MEM (operands read) */
    uint8_t aslot;               /* 1 + the row of gms_memq.addrs holding its lane addresses, 0 if none */
    uint8_t cu;                  /* sub-core collector: the unit (within its scheduler) holding it;
                                  * 3.x register banks (rd_alloc): the memory unit reading it */
    uint8_t in_ex;               /* in its scheduler's OC_EX_MEM slot: the LSU may take it */
    uint8_t late;                /* sub-core collector, collected: its unit may dispatch only in
                                  * the second collector step of ready_at's cycle */
    uint64_t ready_at;           /* collected: the LSU may take it from this cycle on (sub-core
                                  * collector: the unit may dispatch it from this cycle on) */
} gms_memq_ent;

#define GMS_MEMQ_MAX_SCHED 16

typedef struct gms_memq {
    uint32_t n;
    uint32_t idoc;                  /* bit s: scheduler s's ID_OC_MEM slot is taken (the shared
                                     * set: every bit while the set is full) */
    uint32_t shared_w;              /* 0: a slot per scheduler; else the width of the one
                                     * ID_OC_MEM set all schedulers share (its entries are the
                                     * ones not collected: uncoll) */
    uint32_t uncoll;                /* bit k: e[k] is not collected (host speed: alloc_cu's oldest) */
    uint32_t src_reads;             /* 1: collection takes one more cycle per source operand (the
                                     * 3.x collector's one read per unit per cycle,
                                     * -gms_alu_collector gpgpusim); gms_memq_collect(_shared) only */
    uint8_t collected[GMS_MEMQ_MAX_SCHED];   /* per scheduler: instructions past ID_OC_MEM */
    uint8_t cu_mem[GMS_MEMQ_MAX_SCHED];      /* sub-core collector, per scheduler: bit u, unit u
                                              * holds a memory instruction (alloc_cu to dispatch) */
    uint8_t n_ex[GMS_MEMQ_MAX_SCHED];        /* per scheduler: its entries with in_ex set (host
                                              * speed: dispatch need not look for one) */
    /* 3.x register banks (optional): called as an instruction leaves ID_OC_MEM; returns 1 when
     * its operand reads were queued on the banks (e->cu set to its unit; the instruction is
     * ready when gms_memq_reads_done names the unit), 0 when it has nothing to read (the
     * one-read-a-cycle timing), -1 when no memory collector unit is free (it stays) */
    int (*rd_alloc)(void *ctx, gms_memq_ent *e);
    void *rd_ctx;
    uint64_t aused;                 /* bit r: addrs[r] is in use */
    gms_memq_ent taken;             /* the last one taken */
    gms_memq_ent e[GMS_MEMQ_CAP];   /* oldest first (last: the counts above share a host line) */
    /* lane addresses kept for the few entries that need them (a warp's last buffered
     * instruction: its buffer may be refilled before the LSU takes it); out of the entries,
     * which are scanned and shifted every cycle (host speed) */
    uint64_t addrs[GMS_MEMQ_CAP + 1][32];   /* the entries' and the taken one's */
} gms_memq;

/* may scheduler `sched` (< GMS_MEMQ_MAX_SCHED) issue a memory instruction? */
static inline int gms_memq_slot_free(const gms_memq *q, uint32_t sched)
{
    return !(q->idoc >> sched & 1u) && q->n < GMS_MEMQ_CAP;
}
/* memory instructions past ID_OC_MEM (in a collector unit or OC_EX_MEM), all schedulers */
static inline uint32_t gms_memq_past_idoc(const gms_memq *q)
{
    return q->n - (uint32_t)__builtin_popcount(q->uncoll);
}
/* issue: only when gms_memq_slot_free. Returns the entry. */
gms_memq_ent *gms_memq_push(gms_memq *q, uint32_t warp, uint32_t sched, const gms_inst *in);
/* 32 lane addresses to fill for entry e (just pushed), kept until the entry has been taken
 * and the next take happens */
uint64_t *gms_memq_attach_addrs(gms_memq *q, gms_memq_ent *e);
/* e's lane addresses, or NULL if none were attached */
static inline const uint64_t *gms_memq_ent_addrs(const gms_memq *q, const gms_memq_ent *e)
{
    return e->aslot ? q->addrs[e->aslot - 1] : NULL;
}
/* operand collection: each scheduler's instruction in ID_OC_MEM moves on if fewer than
 * max_per_sched of its instructions are past it. Returns the mask of schedulers whose slot
 * freed. The LSU may take it from ready_at (plus its source operands with src_reads). */
uint32_t gms_memq_collect(gms_memq *q, uint32_t max_per_sched, uint64_t ready_at);
/* operand collection with the shared ID_OC_MEM set (shared_w): the OLDEST instructions in it
 * (register_set::get_ready) move on, at most `moves` (the memory collector's input ports)
 * and while fewer than `cap` (collector units + OC_EX_MEM width) of all schedulers'
 * instructions are past it. Returns how many moved. */
uint32_t gms_memq_collect_shared(gms_memq *q, uint32_t cap, uint32_t moves, uint64_t ready_at);
/* with rd_alloc: the units in mask (bit = unit) read their last operand in this cycle's step;
 * their instructions may be taken from ready_at */
void gms_memq_reads_done(gms_memq *q, uint64_t mask, uint64_t ready_at);
/* sub-core operand collector (opndcoll_rfu_t::allocate_cu): the OLDEST instruction in any
 * scheduler's ID_OC_MEM slot (register_set::get_ready_reg_id) gets the lowest free unit of
 * its scheduler (a unit is held when its bit is set in held[sched], the units holding other
 * instructions, or in cu_mem[sched], set here), dispatchable from ready_at. If that scheduler
 * has no free unit, no instruction moves (the port does nothing for ID_OC_MEM). Returns the
 * scheduler, or -1. */
int gms_memq_alloc_cu(gms_memq *q, const uint8_t *held, uint32_t ncu, uint64_t ready_at);
/* the same, the unit dispatchable only from the second collector step of ready_at's cycle if
 * `late` (-gpgpu_reg_file_port_throughput 2: a unit given its instruction in a cycle's second
 * step reads in the next cycle's first and dispatches in its second); *given: the entry that
 * took the unit (its ready_at and late may be changed before the next dispatch) */
int gms_memq_alloc_cu_late(gms_memq *q, const uint8_t *held, uint32_t ncu, uint64_t ready_at, int late,
                           gms_memq_ent **given);
/* dispatch_ready_cu with the sub-core model: if scheduler `sched`'s OC_EX_MEM slot is free,
 * it takes the instruction of the scheduler's LOWEST-numbered ready unit (find_ready starts
 * every scan at a sub-core's first unit), not the oldest; the LSU may take it from now + 1.
 * Returns the entry (its unit is free again), or NULL. */
gms_memq_ent *gms_memq_dispatch(gms_memq *q, uint32_t sched, uint64_t now);
/* the same in collector step `second` (0: the cycle's first, 1: its second) of cycle now: a
 * `late` unit ready at now is not ready in the first */
gms_memq_ent *gms_memq_dispatch_step(gms_memq *q, uint32_t sched, uint64_t now, int second);
/* sub-core collector: the entry scheduler sched's unit cu holds (bit cu of cu_mem[sched]) */
gms_memq_ent *gms_memq_unit_entry(gms_memq *q, uint32_t sched, uint32_t cu);
/* the LSU takes the oldest collected instruction whose ready_at has come; NULL if none. The
 * entry stays valid until the next take. */
const gms_memq_ent *gms_memq_take(gms_memq *q, uint64_t now);
/* the LSU takes entry k, one that gms_memq_take could take (collected, in_ex, ready), chosen
 * by another rule (concurrent kernels: the memory-issue scheme's priority, src/cke) */
const gms_memq_ent *gms_memq_take_index(gms_memq *q, uint32_t k);

#endif
