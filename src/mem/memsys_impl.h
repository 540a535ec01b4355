/* Internals of the memory partitions (memsys.c, memsys_chan.c, memsys_report.c): the
 * objects behind gms_memsys. Not for other modules. */
#ifndef GMS_MEM_MEMSYS_IMPL_H
#define GMS_MEM_MEMSYS_IMPL_H
#include "mem/addrdec.h"
#include "mem/dram.h"
#include "mem/l2_slice.h"
#include "mem/memsys.h"
#include "mem/memsys_tq.h"

typedef struct memsys memsys;

/* one L2 slice as an engine component (L2 domain) */
typedef struct ms_slice {
    memsys *ms;
    gms_l2_slice *l2;
    gms_component *comp;
    uint32_t chan;               /* its channel */
    char name[24];
    /* asleep while blocked towards DRAM (slice_tick): the L2 cycle it fell asleep at (the
     * last one counted, after a settle), and whether every cycle it skips would have counted
     * a to-DRAM head-of-line stall; the input queue counts its own (its idle hook) */
    uint64_t sleep_cycle;
    int sleep_stalls;
    int asleep;
    /* -gpgpu_perf_sim_memcpy: memory_sub_partition::m_memcpy_cycle_offset, one more per sector
     * a copy fills here (never reset): each fill's replacement key is now + this */
    uint64_t memcpy_offset;
} ms_slice;
void gms_ms_slice_settle(ms_slice *s, uint64_t upto);   /* memsys.c */
/* add reply_pop if the clocks need it and it is not there yet (memsys.c) */
void gms_ms_add_reply_pop(memsys *ms);

/* The -dram_latency delay (GPGPU-Sim's unbounded list): what the channel needs of each
 * request, copied when the request leaves the L2 and entered into the channel after the delay
 * (host speed: the request, cold in the host's cache by then, is not read). A ring that
 * doubles when full (during warm-up only). */
typedef struct ms_latq_ent { gms_dram_in in; uint64_t ready; /* core cycle */ } ms_latq_ent;
typedef struct ms_latq { ms_latq_ent *v; uint32_t cap, head, n; } ms_latq;

/* one DRAM channel and its partition-level glue (DRAM domain): the latency queue, the
 * sub-partition arbitration and the credits of GPGPU-Sim's memory_partition_unit */
typedef struct ms_chan {
    memsys *ms;
    uint32_t id;
    gms_dram_chan *dram;
    gms_component *comp;
    ms_latq latq;
    int32_t *priv_credit;        /* per local sub-partition */
    int32_t shared_credit, shared_limit, priv_limit;
    uint32_t last_borrower;
    char name[24];
} ms_chan;

struct memsys {
    gms_engine *eng;
    gms_mreq_pool *pool;
    gms_addrdec dec;
    uint32_t nch, nsp, nsub;
    uint32_t dram_latency;
    double core_mhz, l2_mhz, dram_mhz, icnt_mhz;
    /* the L2 and interconnect edges' periods as the engine keeps them (an edge of a domain is
     * at every multiple of its period): the L2->icnt queues are popped for every interconnect
     * edge (memsys.c, "The L2->icnt pops"), by the slices' ticks and, with the interconnect
     * faster than the L2, by reply_pop, an interconnect-domain component that must tick after
     * the interconnect: gms_ms_add_reply_pop adds it at the first kernel's start (the caller
     * adds the interconnect after the memory side); NULL before, or when not needed */
    uint64_t l2_period_fs, icnt_period_fs;
    gms_component *reply_pop;
    uint64_t core_period_fs;     /* as the engine computes it */
    int sleep_blocked;           /* -gms_sleep_blocked: a slice blocked towards DRAM sleeps */
    ms_slice *slices;
    ms_chan *chans;
    uint64_t memcpy_sectors;     /* -gpgpu_perf_sim_memcpy: sectors the copies filled (or tried to) */
    /* host speed: per sub-partition, gms_l2_slice_can_accept, kept by the slice's own ticks
     * (only they change its input queue): the interconnect's delivery reads one compact array
     * instead of every slice's queue, which on a second host thread (-gms_host_pipeline) is
     * in the other core's cache */
    uint8_t *accept;
    /* per sub-partition, the L2 cycle + 1 of its last request from the interconnect (0: none):
     * GPGPU-Sim's L2 clock block pops at most one request per sub-partition per L2 cycle
     * (icnt_pop in gpgpu_sim::cycle), whatever the crossbar delivers or its clock; written and
     * read on the interconnect's side only */
    uint64_t *pushed_l2;
    /* host speed (-gms_host_pipeline): pushes recorded by the interconnect's thread, done by
     * the memory side's (ms_hand_over) */
    int staging;
    struct ms_staged { gms_mreq *r; uint64_t now; uint32_t subpart; } *staged;
    uint32_t nstaged, capstaged;
    /* kernel time in core cycles (gms_ms_kernel_time): L2_BW_total is over it, as GPGPU-Sim's
     * over gpu_tot_sim_cycle */
    uint64_t kcore_total, kcore_since;
    int kcore_on;
    gms_energy_params energy;    /* -gms_energy (docs/cart.md) */
    /* partition camping (gms_partition_busiest_share): requests arriving per partition in the
     * current window of GMS_MS_SHARE_WINDOW core cycles; at each window's end the busiest
     * partition's count is added to share_top and the window's total to share_all */
    uint32_t *share_cnt;
    uint64_t share_win, share_top, share_all;
};
#define GMS_MS_SHARE_WINDOW_LOG2 10   /* 1,024 core cycles */

int gms_ms_chan_init(memsys *ms, ms_chan *c, uint32_t id, const struct gms_params *p, gms_error *err);
void gms_ms_chan_fini(ms_chan *c);
int gms_ms_chan_tick(void *self, uint64_t cycle);
void gms_ms_chan_report(void *self, FILE *out);
void gms_ms_report(void *self, gms_stats *out);
void gms_ms_kernel_time(void *self, int on);   /* memsys_report.c */
/* Core cycles passed at this instant, seen from any domain. gms_engine_cycle() of a domain
 * that is idle is only caught up when the engine next visits it, so it is derived from the
 * engine time instead (the same count the engine gives an active core domain: core edges
 * strictly before now, since the core domain ticks last in an instant). */
uint64_t gms_ms_core_now(const memsys *ms);
/* cycle of domain `to` at which the core reaches cycle `t` (rounded down: early is safe) */
uint64_t gms_ms_convert(const memsys *ms, uint64_t t, gms_domain to);

#endif
