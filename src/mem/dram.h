/* One DRAM channel (GPGPU-Sim dram_t): banks with a row buffer each, bank groups, the
 * command timing of gms_dram_timing, a pluggable scheduler (dram_sched.h), the read/write
 * data pipeline (CL / WL + burst) and a bounded return queue.
 *
 * Standalone: no engine, no L2. The owner pushes requests (a gms_mreq with its bytes set,
 * and its bank, row and column from the address decoder, gms_addrdec_dram_of), calls
 * gms_dram_chan_cycle once per DRAM command cycle with an increasing cycle number (gaps
 * are allowed: the skipped cycles count as idle), and pops finished reads (return queue)
 * and finished write-backs (done list). Timing state is kept as absolute "allowed from
 * cycle" values, so a channel left idle costs nothing and resumes exactly (GPGPU-Sim's
 * count-down counters, DEC2ZERO, reach 0 at the same cycles).
 *
 * Host speed: with ~40 K requests in flight, a request met again after a wait is a host
 * cache miss. The channel reads a request once, into its record, and then only writes its
 * queue link when it leaves; an owner that holds requests before the push (memsys_chan.c:
 * the -dram_latency delay) copies what the channel needs (gms_dram_in_of) while the request
 * is in the host's cache and enters the copy later (gms_dram_chan_enter).
 *
 * Per cycle, in GPGPU-Sim's order: (1) one data burst leaves the data pipeline (when the
 * return queue has room); (2) the scheduler gives one free bank its next request (banks
 * asked round robin from `prio`); (3) commands issue, banks visited round robin from `prio`:
 * single bus: column commands until one issues, a row command (ACT/PRE) only while none of
 * either has issued; dual bus: one column and one row command.
 *
 * A read finishes CL cycles after its (last) column command, a write WL: GPGPU-Sim's rwq, a
 * fifo_pipeline of CL stages popped first in each dram_t::cycle (the burst's bus time counts in
 * bw_util only; docs/memory-partitions.md). */
#ifndef GMS_MEM_DRAM_H
#define GMS_MEM_DRAM_H
#include <stdint.h>
#include <stdio.h>
#include "mem/dram_sched.h"
#include "mem/dram_timing.h"
#include "mem/addrdec.h"
#include "mem/mreq.h"

/* Per-cycle counters (marked "cycles" below) count only the cycles the owner counts
 * (gms_dram_chan_count_cycles; all of them by default): GPGPU-Sim clocks its DRAM only while
 * a kernel runs, so n_cmd, and bw_util = bwutil / n_cmd, are over the kernels' DRAM cycles.
 * The other counters count every command and request. */
typedef struct gms_dram_stats {
    /* GPGPU-Sim names (dram_t::print) */
    uint64_t n_cmd;           /* cycles: one command (a NOP included) per counted cycle */
    uint64_t n_nop;           /* cycles without a command */
    uint64_t n_act, n_pre, n_ref, n_req, n_rd, n_rd_L2_A, n_wr, n_wr_WB;
    uint64_t n_activity;      /* cycles: those with a request or a running timer */
    uint64_t bwutil;          /* cycles: those the data bus is busy (BL/ratio per column command) */
    /* row-buffer locality (counted by the scheduler's pick) */
    uint64_t access_num, hits_num, read_num, write_num, hits_read_num, hits_write_num;
    /* cycles: bank-level parallelism: sum over them of banks holding a request, and those with one */
    uint64_t banks_1time, banks_access_total;
    uint64_t ave_mrqs;        /* cycles: sum over them of requests waiting in the scheduler */
    uint64_t max_mrqs;
    /* ours: read latency in DRAM cycles, channel push to data out */
    uint64_t rd_lat_sum, rd_lat_n;
    /* GPGPU-Sim's totalbankreads / totalbankwrites (memory_stats_t::memlatstat_dram_access,
     * which dram_t::push calls for every request it takes): each request adds its data size /
     * the atom, an integer division (a request smaller than an atom adds 0), when it enters
     * the channel; reads include the L2's write-allocate reads. Ours: gms_dram_bank_reads,
     * gms_dram_bank_writes (the text log's "total dram reads / writes") */
    uint64_t bank_reads, bank_writes;
} gms_dram_stats;

typedef struct gms_dram_chan gms_dram_chan;

/* return_queue_size 0 = 1024 (GPGPU-Sim) */
gms_dram_chan *gms_dram_chan_new(uint32_t id, const gms_dram_timing *t, const gms_dram_sched_ops *sched,
                                 const gms_dram_sched_env *env, uint32_t return_queue_size);
void gms_dram_chan_free(gms_dram_chan *c);

/* served as a write: kind WRITE or a write-back */
static inline int gms_dram_is_write(const gms_mreq *m)
{
    return m->kind == GMS_MREQ_WRITE || gms_acc_is_writeback(m->access);
}

/* what the channel reads of a request: the request's size, kind and access type, and its
 * DRAM coordinates `at` (decoded by the owner; the request does not carry them, mreq.h) */
typedef struct gms_dram_in {
    gms_mreq *mf;
    uint32_t bank, row, col;
    uint16_t bytes;           /* 0: the channel's atom */
    uint16_t data_size;       /* GPGPU-Sim's mf->get_data_size() (gms_dram_data_size); 0: bytes */
    uint8_t is_write;
    uint8_t access;
} gms_dram_in;

/* GPGPU-Sim's data size of a request at the DRAM (mem_fetch::get_data_size), what
 * memlatstat_dram_access divides by the atom: a store from an SM its segment
 * (gms_store_segment_bytes); every other request (reads, the caches' misses and write-backs)
 * already has GPGPU-Sim's size in `bytes`. */
static inline uint32_t gms_dram_data_size(const gms_mreq *m)
{
    uint32_t seg = m->kind == GMS_MREQ_WRITE && !gms_acc_is_writeback(m->access) ? gms_store_segment_bytes(m->sector_mask) : 0;
    return seg ? seg : m->bytes;
}

static inline gms_dram_in gms_dram_in_of(gms_mreq *m, const gms_addrdec_dram *at)
{
    return (gms_dram_in){ .mf = m, .bank = at->bank, .row = at->row, .col = at->col, .bytes = m->bytes,
                          .data_size = (uint16_t)gms_dram_data_size(m), .is_write = (uint8_t)gms_dram_is_write(m),
                          .access = m->access };
}

int gms_dram_chan_full(const gms_dram_chan *c, int is_write);
void gms_dram_chan_enter(gms_dram_chan *c, const gms_dram_in *in, uint64_t now);
/* = gms_dram_chan_enter of gms_dram_in_of(req, at) */
void gms_dram_chan_push(gms_dram_chan *c, gms_mreq *req, const gms_addrdec_dram *at, uint64_t now);
void gms_dram_chan_cycle(gms_dram_chan *c, uint64_t now);

/* finished reads (and writes that expect an ack), in completion order */
gms_mreq *gms_dram_chan_return_top(const gms_dram_chan *c);
gms_mreq *gms_dram_chan_return_pop(gms_dram_chan *c);
/* finished write-backs (L1_WRBK_ACC / L2_WRBK_ACC: no reply) */
gms_mreq *gms_dram_chan_done_pop(gms_dram_chan *c);

/* 1 when nothing is queued, in a bank, in flight on the bus or waiting to be popped */
int gms_dram_chan_idle(const gms_dram_chan *c);
/* requests waiting in the scheduler that it will never serve unless more arrive (the
 * separate write queue below its high watermark with no read waiting), when nothing else is
 * in the channel; else 0 */
uint32_t gms_dram_chan_stranded(const gms_dram_chan *c);
/* account the cycles up to `now` (inclusive) in which the channel was not cycled; call
 * before reading stats of an idle channel */
void gms_dram_chan_sync(gms_dram_chan *c, uint64_t now);
const gms_dram_stats *gms_dram_chan_stats(const gms_dram_chan *c);
/* From the cycle after `now` on, the per-cycle counters count (on) or not (off); the cycles
 * up to `now` are accounted first. The memory system turns them on while a kernel runs. */
void gms_dram_chan_count_cycles(gms_dram_chan *c, int on, uint64_t now);
uint64_t gms_dram_chan_bank_accesses(const gms_dram_chan *c, uint32_t bank);
uint32_t gms_dram_chan_pending(const gms_dram_chan *c);
/* for tests: bank state */
int gms_dram_chan_bank_open(const gms_dram_chan *c, uint32_t bank, uint32_t *row);
/* one line of state for the watchdog */
void gms_dram_chan_dump(const gms_dram_chan *c, FILE *out);

/* Optional command trace (tests): called for every ACT/PRE/RD/WR issued. */
typedef enum { GMS_DRAM_ACT = 0, GMS_DRAM_PRE, GMS_DRAM_RD, GMS_DRAM_WR, GMS_DRAM_REF } gms_dram_cmd;
typedef void (*gms_dram_trace_fn)(void *ud, uint64_t cycle, gms_dram_cmd cmd, uint32_t bank, uint32_t row);
void gms_dram_chan_set_trace(gms_dram_chan *c, gms_dram_trace_fn fn, void *ud);
/* Tests: single command bus, always GPGPU-Sim's bank loop as written (the host-speed mask
 * loop must issue the same commands) */
void gms_dram_chan_set_plain_loop(gms_dram_chan *c, int on);

#endif
