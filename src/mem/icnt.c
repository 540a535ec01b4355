/* The interconnect (icnt.h). Packet sizes follow GPGPU-Sim: 8 B header, plus data for writes
 * (requests) and for read replies. */
#include "mem/icnt.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

#define HEADER_BYTES 8

/* a packet's flits: a header, and the data of a write or atomic request or of a read or
 * atomic reply */
static uint32_t flits_of(const gms_icnt *n, int is_reply, int kind, uint32_t data_bytes)
{
    uint32_t bytes = HEADER_BYTES;
    int carries_data = is_reply ? (kind != GMS_MREQ_WRITE) : (kind != GMS_MREQ_READ);
    if (carries_data) bytes += data_bytes;
    return (bytes + n->flit_size - 1) / n->flit_size;
}

static uint32_t packet_flits(const gms_icnt *n, const gms_mreq *r) { return flits_of(n, r->is_reply, r->kind, r->bytes); }

/* GPGPU-Sim's mem_fetch::get_num_flits(true) of a request from an SM (shader_memory_interface::
 * push adds it to n_simt_to_mem, icnt_total_pkts_simt_to_mem): the 8 B header, with the
 * data for a write or an atomic, in -icnt_flit_size flits. A store's data is its
 * mem_access_t's size (mem_fetch's m_data_size = access.get_size()), the coalesced segment
 * (memory_coalescing_arch_reduce_and_send: 32, 64 or 128 B, the half or the 32 B chunk its
 * lanes use), never the bytes the lanes write, which our store request carries (the caches'
 * write policies use them). The segment follows from the chunks used (sector_mask): both
 * halves of the line 128 B, else 32 B per chunk. Write-backs carry their modified sectors in
 * either. */
static uint32_t gpgpusim_request_flits(const gms_icnt *n, const gms_mreq *r)
{
    uint32_t data = r->bytes;
    if (r->kind == GMS_MREQ_WRITE && !gms_acc_is_writeback(r->access)) {
        data = gms_store_segment_bytes(r->sector_mask);
        if (!data) data = (r->bytes + 31u) / 32u * 32u;
        if (data < 32) data = 32;
    }
    return flits_of(n, 0, r->kind, data);
}

static int deliver_to_mem(void *ud, uint32_t out, gms_mreq *r)
{
    gms_icnt *n = ud;
    if (!n->ports.mem_can_accept(n->ports.mem_self, out)) return 0;
    /* GPGPU-Sim's memlatstat_icnt2mem_pop: from the request's creation in the LSU (so the L1
     * pipeline, MSHR retries and miss queue count too), for the SM's own transactions */
    if (r->warp_txn) {
        n->icnt2mem_sum += gms_engine_cycle(n->eng, GMS_DOM_CORE) - r->t_issue;
        n->icnt2mem_n++;
    }
    n->ports.mem_push(n->ports.mem_self, out, r);
    return 1;
}

static int icnt_tick(void *self, uint64_t cycle)
{
    gms_icnt *n = self;
    if (n->asleep) {
        /* the cycles slept through (a wake-up or an injection ends the sleep) */
        uint64_t k = cycle - n->sleep_cycle - 1;
        gms_xbar_slept(&n->reply_net, k);
        gms_xbar_slept(&n->req_net, k);
        n->asleep = 0;
    }
    int a = gms_xbar_cycle(&n->reply_net, cycle);
    int b = gms_xbar_cycle(&n->req_net, cycle);
    if (!(a || b) || !n->sleep_ok) return a || b;
    /* host speed: nothing can move before the first packet arrives at an output, so sleep
     * until then (an injection wakes the network earlier); the cycles between change only
     * the occupancy sums and the round-robin pointer, which gms_xbar_slept settles */
    uint64_t ta = gms_xbar_next_move(&n->reply_net, cycle);
    if (!ta) return 1;
    uint64_t tb = gms_xbar_next_move(&n->req_net, cycle);
    if (!tb) return 1;
    uint64_t t = ta < tb ? ta : tb;
    if (t <= cycle + 1) return 1;
    gms_engine_wake_at(n->eng, n->comp, t);
    gms_xbar_sleep_begin(&n->reply_net);
    gms_xbar_sleep_begin(&n->req_net);
    n->asleep = 1;
    n->sleep_cycle = cycle;
    return 0;
}

static void icnt_stuck(void *self, FILE *out)
{
    gms_icnt *n = self;
    if (n->req_net.queued || n->reply_net.queued)
        fprintf(out, "    interconnect: %llu request packet(s), %llu reply packet(s) in flight\n",
                (unsigned long long)n->req_net.queued, (unsigned long long)n->reply_net.queued);
}

void gms_icnt_init(gms_icnt *n, const gms_icnt_params *ip, gms_engine *eng, uint32_t n_sm, uint32_t cores_per_cluster,
                   uint32_t n_subparts, const gms_icnt_ports *ports)
{
    memset(n, 0, sizeof *n);
    n->eng = eng;
    n->flit_size = ip->flit_size;
    n->ports = *ports;
    uint32_t cpc = cores_per_cluster ? cores_per_cluster : 1, ncl = (n_sm + cpc - 1) / cpc;
    n->port_of = NULL;
    if (cpc > 1) {
        n->port_of = gms_xcalloc(n_sm, sizeof *n->port_of);
        for (uint32_t i = 0; i < n_sm; i++) n->port_of[i] = (uint16_t)(i / cpc);
    }
    gms_xbar_init(&n->req_net, ncl, n_subparts, ip->in_buffer_limit, ip->out_buffer_limit, ip->latency,
                  deliver_to_mem, n);
    /* the SM side's port is the reply network's delivery callback itself */
    gms_xbar_init(&n->reply_net, n_subparts, ncl, ip->in_buffer_limit, ip->out_buffer_limit, ip->latency,
                  ports->to_sm, ports->sm_ud);
    n->reply_net.reply_port = n->port_of;
    gms_xbar_set_islip(&n->req_net, ip->arbiter_algo == 1);
    gms_xbar_set_islip(&n->reply_net, ip->arbiter_algo == 1);
    if (ip->arbiter_algo == 1 && ip->islip_once) {
        /* GPGPU-Sim numbers the request net's inputs (SMs) from 0 and the reply net's (the
         * sub-partitions) after the SMs */
        gms_xbar_set_islip_once(&n->req_net, 0, ncl + n_subparts);
        gms_xbar_set_islip_once(&n->reply_net, ncl, ncl + n_subparts);
    }
    n->rstaged_units = gms_xcalloc(n_subparts, sizeof *n->rstaged_units);
    n->comp = gms_engine_add(eng, GMS_DOM_ICNT, "interconnect", icnt_tick, icnt_stuck, n);
}

void gms_icnt_set_sleep(gms_icnt *n, int on) { n->sleep_ok = on; }

void gms_icnt_free(gms_icnt *n)
{
    gms_xbar_free(&n->req_net);
    gms_xbar_free(&n->reply_net);
    free(n->port_of);
    n->port_of = NULL;
    free(n->rstaged);
    free(n->rstaged_units);
}

int gms_icnt_can_send(gms_icnt *n, uint32_t port, const gms_mreq *r)
{
    return gms_xbar_can_inject(&n->req_net, port, packet_flits(n, r));
}

int gms_icnt_can_send_after(gms_icnt *n, uint32_t port, uint32_t pend_flits, int kind, uint32_t bytes)
{
    return gms_xbar_can_inject_after(&n->req_net, port, pend_flits, flits_of(n, 0, kind, bytes));
}

uint32_t gms_icnt_request_flits(const gms_icnt *n, const gms_mreq *r) { return packet_flits(n, r); }

void gms_icnt_send(gms_icnt *n, uint32_t port, gms_mreq *r)
{
    uint32_t f = packet_flits(n, r);
    /* only a store's data size differs from the packet's (host speed: one flit count a read) */
    n->gpgpusim_req_flits += r->kind == GMS_MREQ_WRITE ? gpgpusim_request_flits(n, r) : f;
    gms_xbar_inject(&n->req_net, port, r, f);
    gms_engine_activate(n->eng, n->comp);
}

int gms_icnt_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    gms_icnt *n = ud;
    r->is_reply = 1;
    uint32_t fl = packet_flits(n, r);
    if (gms_engine_on_pipe_worker()) {
        /* host speed: the reply network's state stays in the main thread's cache. Only this
         * thread injects into it until the join, so the input's units now are those the
         * main thread left plus those staged since. */
        gms_xbar *x = &n->reply_net;
        uint32_t have = x->in_flits[subpart] + n->rstaged_units[subpart], u = gms_xbar_units(x, fl);
        if (!(have + u <= x->in_limit || have == 0)) return 0;
        n->rstaged_units[subpart] += u;
        if (n->nrstaged == n->caprstaged) {
            n->caprstaged = n->caprstaged ? n->caprstaged * 2 : 256;
            n->rstaged = gms_xrealloc(n->rstaged, n->caprstaged * sizeof *n->rstaged);
        }
        n->rstaged[n->nrstaged++] = (struct gms_icnt_staged){ r, subpart, fl };
        return 1;
    }
    if (!gms_xbar_can_inject(&n->reply_net, subpart, fl)) return 0;
    gms_xbar_inject(&n->reply_net, subpart, r, fl);
    gms_engine_activate(n->eng, n->comp);
    return 1;
}

void gms_icnt_hand_over_replies(gms_icnt *n)
{
    uint32_t k = n->nrstaged;
    if (!k) return;
    for (uint32_t i = 0; i < k; i++) __builtin_prefetch(n->rstaged[i].r, 1);
    for (uint32_t i = 0; i < k; i++) {
        const struct gms_icnt_staged *st = &n->rstaged[i];
        gms_xbar_inject(&n->reply_net, st->subpart, st->r, st->flits);
        n->rstaged_units[st->subpart] = 0;
    }
    n->nrstaged = 0;
    gms_engine_activate(n->eng, n->comp);
}

void gms_icnt_kernel_time(gms_icnt *n, int on)
{
    uint64_t now = gms_engine_cycle(n->eng, GMS_DOM_ICNT);
    if (n->ktime_on && !on) n->ktime_total += now - n->ktime_since;
    if (on && !n->ktime_on) n->ktime_since = now;
    n->ktime_on = on;
}

void gms_icnt_report(const gms_icnt *n, gms_stats *out)
{
    /* GPGPU-Sim's icnt_total_pkts_* sum mem_fetch::get_num_flits (n_simt_to_mem,
     * n_mem_to_simt): flits, despite the name; the packets are ours, and so are the flits the
     * request network carried (a store's packet sized by the bytes it writes) */
    gms_stat_u64(out, "icnt_total_pkts_simt_to_mem", n->gpgpusim_req_flits);
    gms_stat_u64(out, "icnt_total_pkts_mem_to_simt", n->reply_net.flits);
    gms_stat_u64(out, "gms_icnt_flits_simt_to_mem", n->req_net.flits);
    gms_stat_u64(out, "gms_icnt_packets_simt_to_mem", n->req_net.packets);
    gms_stat_u64(out, "gms_icnt_packets_mem_to_simt", n->reply_net.packets);
    /* GPGPU-Sim's LocalInterconnect::DisplayStats: mean packets per input (SMs for requests,
     * sub-partitions for replies) and per output buffer, over the cycles it advanced the
     * network (net->cycles: gpgpu_sim::cycle, i.e. while a kernel runs; copies between
     * kernels, timed here, are not among them). The buffers hold nothing between kernels. */
    uint64_t now = gms_engine_cycle(n->eng, GMS_DOM_ICNT);
    double cyc = (double)(n->ktime_total + (n->ktime_on ? now - n->ktime_since : 0));
    /* asleep: the sums as the cycles slept through so far would have made them */
    uint64_t k = n->asleep ? gms_engine_next_tick_cycle(n->eng, n->comp) - n->sleep_cycle - 1 : 0;
    if (cyc > 0) {
        gms_stat_f64(out, "Req_Network_in_buffer_avg_util",
                     (double)gms_xbar_in_util_after(&n->req_net, k) / cyc / n->req_net.nin);
        gms_stat_f64(out, "Req_Network_out_buffer_avg_util",
                     (double)gms_xbar_out_util_after(&n->req_net, k) / cyc / n->req_net.nout);
        gms_stat_f64(out, "Reply_Network_in_buffer_avg_util",
                     (double)gms_xbar_in_util_after(&n->reply_net, k) / cyc / n->reply_net.nin);
        gms_stat_f64(out, "Reply_Network_out_buffer_avg_util",
                     (double)gms_xbar_out_util_after(&n->reply_net, k) / cyc / n->reply_net.nout);
    }
}
