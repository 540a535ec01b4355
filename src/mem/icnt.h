/* The interconnect between SMs and memory sub-partitions: a request crossbar and a reply
 * crossbar (GPGPU-Sim's two subnets), one engine component in the interconnect domain.
 * It knows its two ends only through gms_icnt_ports (the memory side's can_accept/push, the
 * SMs' reply input), not the GPU's or an SM's structs. The ports are the crossbars' own
 * delivery callbacks, so a packet crosses no more calls than before. */
#ifndef GMS_MEM_ICNT_H
#define GMS_MEM_ICNT_H
#include <stdint.h>
#include <stdio.h>
#include "engine/engine.h"
#include "mem/icnt_params.h"
#include "mem/mreq.h"
#include "mem/xbar.h"
#include "stats/stats.h"

typedef struct gms_icnt_ports {
    /* SM side: reply r for SM r->sm, out of the port of its cluster; 0 = refused (it stays in
     * the reply network, and what is behind it in that port waits) */
    int (*to_sm)(void *ud, uint32_t cluster, gms_mreq *r);
    void *sm_ud;
    /* memory side (gms_memsys): may sub-partition `subpart` take a request, and take it */
    int (*mem_can_accept)(void *self, uint32_t subpart);
    void (*mem_push)(void *self, uint32_t subpart, gms_mreq *r);
    void *mem_self;
} gms_icnt_ports;

typedef struct gms_icnt {
    gms_xbar req_net, reply_net;
    gms_engine *eng;
    gms_component *comp;
    uint32_t flit_size;
    gms_icnt_ports ports;
    /* GPGPU-Sim's interconnect has a node per cluster: its SMs share the node's request input
     * buffer (they send from port = their cluster) and its reply output (icnt_has_buffer /
     * icnt_pop by cluster id). port_of[sm] is the SM's cluster, the reply net's output for
     * the SM's replies; NULL with one SM per cluster (every preset) */
    uint16_t *port_of;
    /* GPGPU-Sim's memlatstat_icnt2mem_pop: summed latency and count of SM transactions */
    uint64_t icnt2mem_sum, icnt2mem_n;
    /* GPGPU-Sim's n_simt_to_mem (icnt_total_pkts_simt_to_mem): the requests' flits with a
     * store's data at its coalesced segment's size (icnt.c), where the network carries its bytes */
    uint64_t gpgpusim_req_flits;
    /* host speed (-gms_host_pipeline): replies the memory side made on the worker thread,
     * injected in order by the main thread at the join; per sub-partition, the reply-network
     * input units they will take */
    struct gms_icnt_staged { gms_mreq *r; uint32_t subpart, flits; } *rstaged;
    uint32_t nrstaged, caprstaged;
    uint32_t *rstaged_units;
    /* host speed (-gms_sleep_blocked): with nothing in an input buffer and no packet at its
     * output yet, the component sleeps until the first arrival; the cycles after sleep_cycle
     * are accounted for when it ticks again (gms_xbar_slept) or its statistics are read */
    int sleep_ok, asleep;
    uint64_t sleep_cycle;
    /* interconnect cycles while a kernel runs (GPGPU-Sim advances its network only then):
     * the buffer utilisations' denominator (gms_icnt_kernel_time) */
    uint64_t ktime_total, ktime_since;
    int ktime_on;
} gms_icnt;

/* n_sm SMs, cores_per_cluster of them to a cluster (SM i in cluster i / cores_per_cluster) */
void gms_icnt_init(gms_icnt *n, const gms_icnt_params *ip, gms_engine *eng, uint32_t n_sm, uint32_t cores_per_cluster,
                   uint32_t n_subparts, const gms_icnt_ports *ports);
void gms_icnt_free(gms_icnt *n);
/* -gms_sleep_blocked: may the interconnect sleep while its packets are on the wires? */
void gms_icnt_set_sleep(gms_icnt *n, int on);
/* does it sleep with packets in flight (where it would tick with the shortcut off)? The
 * watchdog's probe: such time counts as busy */
static inline int gms_icnt_asleep(const gms_icnt *n)
{
    return n->asleep && (n->req_net.queued || n->reply_net.queued);
}
/* `port`: the sending SM's cluster, its interconnect node (SM i / -gpgpu_n_cores_per_cluster) */
int gms_icnt_can_send(gms_icnt *n, uint32_t port, const gms_mreq *r);
/* room for a request of `kind` carrying `bytes` (a request not made yet), after a packet of
 * pend_flits (0: none) this SM sent this cycle that is not in the network yet (deferred by a
 * parallel phase) */
int gms_icnt_can_send_after(gms_icnt *n, uint32_t port, uint32_t pend_flits, int kind, uint32_t bytes);
/* the flits of r's request packet */
uint32_t gms_icnt_request_flits(const gms_icnt *n, const gms_mreq *r);
void gms_icnt_send(gms_icnt *n, uint32_t port, gms_mreq *r);
/* the memory side's reply function (gms_reply_fn), ud = the gms_icnt */
int gms_icnt_reply(void *ud, uint32_t subpart, gms_mreq *r);
/* -gms_host_pipeline: at the join, the replies staged on the worker thread enter the network */
void gms_icnt_hand_over_replies(gms_icnt *n);
void gms_icnt_report(const gms_icnt *n, gms_stats *out);

/* the first kernel starts (on = 1) or the last one ends (0), at the current cycle */
void gms_icnt_kernel_time(gms_icnt *n, int on);

#endif
