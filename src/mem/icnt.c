/* The interconnect between SMs and memory sub-partitions: a request crossbar and a reply
 * crossbar (GPGPU-Sim's two subnets), one engine component in the interconnect domain.
 * Packet sizes follow GPGPU-Sim: 8 B header, plus data for writes (requests) and for read
 * replies. */
#include "core/gpu.h"
#include "core/sm.h"
#include <stdlib.h>

#define HEADER_BYTES 8

static uint32_t packet_flits(const gms_gpu *g, const gms_mreq *r)
{
    uint32_t bytes = HEADER_BYTES;
    int carries_data = r->is_reply ? (r->kind != GMS_MREQ_WRITE) : (r->kind != GMS_MREQ_READ);
    if (carries_data) bytes += r->bytes;
    uint32_t fs = g->p->icnt.flit_size;
    return (bytes + fs - 1) / fs;
}

static int deliver_to_mem(void *ud, uint32_t out, gms_mreq *r)
{
    gms_gpu *g = ud;
    if (!g->mem.can_accept(g->mem.self, out)) return 0;
    /* GPGPU-Sim's memlatstat_icnt2mem_pop: from the request's creation in the LSU (so the L1
     * pipeline, MSHR retries and miss queue count too), for the SM's own transactions */
    if (r->warp_txn) {
        g->ctr.icnt2mem_sum += gms_engine_cycle(g->eng, GMS_DOM_CORE) - r->t_issue;
        g->ctr.icnt2mem_n++;
    }
    g->mem.push(g->mem.self, out, r);
    return 1;
}

static int deliver_to_sm(void *ud, uint32_t out, gms_mreq *r)
{
    gms_gpu *g = ud;
    return gms_sm_accept_reply(g->sms[out], r);
}

static int icnt_tick(void *self, uint64_t cycle)
{
    gms_gpu *g = self;
    int a = gms_xbar_cycle(&g->reply_net, cycle);
    int b = gms_xbar_cycle(&g->req_net, cycle);
    return a || b;
}

static void icnt_stuck(void *self, FILE *out)
{
    gms_gpu *g = self;
    if (g->req_net.queued || g->reply_net.queued)
        fprintf(out, "    interconnect: %llu request packet(s), %llu reply packet(s) in flight\n",
                (unsigned long long)g->req_net.queued, (unsigned long long)g->reply_net.queued);
}

void gms_icnt_init(gms_gpu *g)
{
    const gms_icnt_params *ip = &g->p->icnt;
    gms_xbar_init(&g->req_net, g->n_sm, g->mem.n_subparts, ip->in_buffer_limit, ip->out_buffer_limit,
                  ip->latency, deliver_to_mem, g);
    gms_xbar_init(&g->reply_net, g->mem.n_subparts, g->n_sm, ip->in_buffer_limit, ip->out_buffer_limit,
                  ip->latency, deliver_to_sm, g);
    gms_xbar_set_islip(&g->req_net, ip->arbiter_algo == 1);
    gms_xbar_set_islip(&g->reply_net, ip->arbiter_algo == 1);
    g->rstaged_units = gms_xcalloc(g->mem.n_subparts, sizeof *g->rstaged_units);
    g->icnt_comp = gms_engine_add(g->eng, GMS_DOM_ICNT, "interconnect", icnt_tick, icnt_stuck, g);
}

void gms_icnt_free(gms_gpu *g)
{
    gms_xbar_free(&g->req_net);
    gms_xbar_free(&g->reply_net);
    free(g->rstaged);
    free(g->rstaged_units);
}

int gms_icnt_can_send(gms_gpu *g, uint32_t sm, const gms_mreq *r)
{
    return gms_xbar_can_inject(&g->req_net, sm, packet_flits(g, r));
}

void gms_icnt_send(gms_gpu *g, uint32_t sm, gms_mreq *r)
{
    gms_xbar_inject(&g->req_net, sm, r, packet_flits(g, r));
    gms_engine_activate(g->eng, g->icnt_comp);
}

int gms_icnt_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    gms_gpu *g = ud;
    r->is_reply = 1;
    uint32_t fl = packet_flits(g, r);
    if (gms_engine_on_pipe_worker()) {
        /* host speed: the reply network's state stays in the main thread's cache. Only this
         * thread injects into it until the join, so the input's units now are those the
         * main thread left plus those staged since. */
        gms_xbar *x = &g->reply_net;
        uint32_t have = x->in_flits[subpart] + g->rstaged_units[subpart], u = gms_xbar_units(x, fl);
        if (!(have + u <= x->in_limit || have == 0)) return 0;
        g->rstaged_units[subpart] += u;
        if (g->nrstaged == g->caprstaged) {
            g->caprstaged = g->caprstaged ? g->caprstaged * 2 : 256;
            g->rstaged = gms_xrealloc(g->rstaged, g->caprstaged * sizeof *g->rstaged);
        }
        g->rstaged[g->nrstaged++] = (struct icnt_staged){ r, subpart, fl };
        return 1;
    }
    if (!gms_xbar_can_inject(&g->reply_net, subpart, fl)) return 0;
    gms_xbar_inject(&g->reply_net, subpart, r, fl);
    gms_engine_activate(g->eng, g->icnt_comp);
    return 1;
}

void gms_icnt_hand_over_replies(gms_gpu *g)
{
    uint32_t n = g->nrstaged;
    if (!n) return;
    for (uint32_t i = 0; i < n; i++) __builtin_prefetch(g->rstaged[i].r, 1);
    for (uint32_t i = 0; i < n; i++) {
        const struct icnt_staged *st = &g->rstaged[i];
        gms_xbar_inject(&g->reply_net, st->subpart, st->r, st->flits);
        g->rstaged_units[st->subpart] = 0;
    }
    g->nrstaged = 0;
    gms_engine_activate(g->eng, g->icnt_comp);
}

void gms_icnt_report(gms_gpu *g, gms_stats *out)
{
    gms_stat_u64(out, "icnt_total_pkts_simt_to_mem", g->req_net.packets);
    gms_stat_u64(out, "icnt_total_pkts_mem_to_simt", g->reply_net.packets);
    gms_stat_u64(out, "icnt_total_flits_simt_to_mem", g->req_net.flits);
    gms_stat_u64(out, "icnt_total_flits_mem_to_simt", g->reply_net.flits);
    /* GPGPU-Sim's LocalInterconnect::DisplayStats: mean packets per input (SMs for requests,
     * sub-partitions for replies) and per output buffer, over all interconnect cycles */
    double cyc = (double)gms_engine_cycle(g->eng, GMS_DOM_ICNT);
    if (cyc > 0) {
        gms_stat_f64(out, "Req_Network_in_buffer_avg_util", (double)g->req_net.in_util / cyc / g->req_net.nin);
        gms_stat_f64(out, "Req_Network_out_buffer_avg_util", (double)g->req_net.out_util / cyc / g->req_net.nout);
        gms_stat_f64(out, "Reply_Network_in_buffer_avg_util", (double)g->reply_net.in_util / cyc / g->reply_net.nin);
        gms_stat_f64(out, "Reply_Network_out_buffer_avg_util", (double)g->reply_net.out_util / cyc / g->reply_net.nout);
    }
}
