/* The interconnect with several SMs per cluster (-gpgpu_n_cores_per_cluster): GPGPU-Sim has one
 * interconnect node per cluster, so the cluster's SMs share the node's request input buffer
 * (simt_core_cluster::icnt_injection_buffer_full -> icnt_has_buffer(cluster)) and its reply
 * output (icnt_cycle pops by cluster id; a reply its core cannot take holds the cluster's
 * response queue). Hand-computed on 4 SMs in 2 clusters of 2 and 3 sub-partitions. */
#include "test.h"
#include "mem/icnt.h"

typedef struct { uint32_t cluster[8], sm[8]; int n; int refuse_sm; } got_t;

static int to_sm(void *ud, uint32_t cluster, gms_mreq *r)
{
    got_t *g = ud;
    if (r->sm == (uint32_t)g->refuse_sm) return 0;
    g->cluster[g->n] = cluster;
    g->sm[g->n] = r->sm;
    g->n++;
    return 1;
}
static int mem_can_accept(void *self, uint32_t subpart) { (void)self; (void)subpart; return 1; }
static void mem_push(void *self, uint32_t subpart, gms_mreq *r) { (void)self; (void)subpart; (void)r; }

static gms_engine *icnt_case(gms_icnt *n, got_t *g, uint32_t cores_per_cluster)
{
    static const double mhz[GMS_NDOM] = { 1000, 1000, 1000, 1000 };
    gms_engine *e = gms_engine_new(mhz, 0);
    /* 32 B flits, input buffers of 2 flits, no traversal latency, round-robin switch */
    gms_icnt_params ip = { .network_mode = 2, .flit_size = 32, .in_buffer_limit = 2, .out_buffer_limit = 8,
                           .subnets = 2, .arbiter_algo = 0, .latency = 0, .flits_per_cycle = 1 };
    gms_icnt_ports ports = { to_sm, g, mem_can_accept, mem_push, NULL };
    gms_icnt_init(n, &ip, e, 4, cores_per_cluster, 3, &ports);
    return e;
}

static void read_req(gms_mreq *r, uint32_t sm, uint32_t subpart)
{
    r->kind = GMS_MREQ_READ;
    r->bytes = 32;
    r->sm = (uint16_t)sm;
    r->subpart = (uint16_t)subpart;
}

TEST(icnt_cluster_sms_share_the_request_input)
{
    gms_icnt n;
    got_t g = { .refuse_sm = -1 };
    gms_engine *e = icnt_case(&n, &g, 2);
    CHECK_EQ(n.req_net.nin, 2);     /* one input per cluster */
    CHECK_EQ(n.reply_net.nout, 2);  /* one reply port per cluster */
    gms_mreq r[3] = {{0}};
    read_req(&r[0], 0, 0);          /* a read request: 8 B header, one 32 B flit */
    read_req(&r[1], 1, 1);
    read_req(&r[2], 2, 2);
    /* SMs 0 and 1 send from cluster 0's node, SMs 2 and 3 from cluster 1's */
    CHECK(gms_icnt_can_send(&n, 0 / 2, &r[0]));
    gms_icnt_send(&n, 0 / 2, &r[0]);    /* cluster 0's input: 1 flit of 2 */
    CHECK(gms_icnt_can_send(&n, 1 / 2, &r[1]));
    gms_icnt_send(&n, 1 / 2, &r[1]);    /* SM 1 fills the input SM 0 uses: 2 of 2 */
    CHECK(!gms_icnt_can_send(&n, 0 / 2, &r[2]));
    CHECK(gms_icnt_can_send(&n, 2 / 2, &r[2]));   /* cluster 1's input is empty */
    CHECK_EQ(n.req_net.in_flits[0], 2);
    CHECK_EQ(n.req_net.in_flits[1], 0);
    gms_icnt_free(&n);
    gms_engine_free(e);
}

TEST(icnt_one_sm_per_cluster_keeps_a_port_each)
{
    gms_icnt n;
    got_t g = { .refuse_sm = -1 };
    gms_engine *e = icnt_case(&n, &g, 1);
    CHECK_EQ(n.req_net.nin, 4);
    CHECK_EQ(n.reply_net.nout, 4);
    CHECK(n.port_of == NULL);   /* SM i sends from node i */
    gms_mreq r[2] = {{0}};
    read_req(&r[0], 0, 0);
    read_req(&r[1], 1, 1);
    gms_icnt_send(&n, 0, &r[0]);
    gms_icnt_send(&n, 0, &r[1]);    /* SM 0's input full: 2 of 2 */
    CHECK(!gms_icnt_can_send(&n, 0, &r[1]));
    CHECK(gms_icnt_can_send(&n, 1, &r[1]));   /* SM 1 has its own */
    gms_icnt_free(&n);
    gms_engine_free(e);
}

TEST(icnt_cluster_reply_port_blocks_behind_a_refused_reply)
{
    gms_icnt n;
    got_t g = { .refuse_sm = 2 };
    gms_engine *e = icnt_case(&n, &g, 2);
    gms_mreq r[3] = {{0}};
    read_req(&r[0], 2, 0);          /* for SM 2 (cluster 1), from sub-partition 0 */
    read_req(&r[1], 3, 1);          /* for SM 3 (cluster 1), from sub-partition 1 */
    read_req(&r[2], 1, 2);          /* for SM 1 (cluster 0), from sub-partition 2 */
    for (int i = 0; i < 3; i++) CHECK(gms_icnt_reply(&n, i, &r[i]));
    /* cycle 0: the switch moves r[0] to cluster 1's port and r[2] to cluster 0's (one packet
     * per output a cycle; r[1] waits for port 1); cycle 1: r[2] is delivered, r[0] refused and
     * r[1] moves in behind it; then r[0] holds the port: SM 3's reply waits while SM 2 refuses */
    for (uint64_t t = 0; t < 10; t++) gms_xbar_cycle(&n.reply_net, t);
    CHECK_EQ(g.n, 1);
    CHECK_EQ(g.cluster[0], 0);
    CHECK_EQ(g.sm[0], 1);
    g.refuse_sm = -1;               /* SM 2 takes its reply, and SM 3's (arrived behind it) follows
                                     * in the same cycle: the round-robin member hands an output's
                                     * arrived packets over until one is refused */
    gms_xbar_cycle(&n.reply_net, 10);
    CHECK_EQ(g.n, 3);
    CHECK_EQ(g.cluster[1], 1);
    CHECK_EQ(g.sm[1], 2);
    CHECK_EQ(g.cluster[2], 1);
    CHECK_EQ(g.sm[2], 3);
    gms_icnt_free(&n);
    gms_engine_free(e);
}
