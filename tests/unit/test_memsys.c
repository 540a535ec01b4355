/* Memory partitions end to end (engine + L2 slices + DRAM channels) with a test component
 * standing in for the interconnect; option decoding, dump and bad input. */
#include "test.h"
#include "config/params.h"
#include "engine/engine.h"
#include "mem/memsys.h"
#include <stdlib.h>

#define QV100_MEM                                                                                          \
    "-gpgpu_n_mem 32 -gpgpu_n_sub_partition_per_mchannel 2 "                                               \
    "-gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0 "                                                     \
    "-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32 -gpgpu_dram_partition_queues 64:64:64:64 "     \
    "-gpgpu_memory_partition_indexing 2 -gpgpu_l2_rop_latency 160 -dram_latency 100 -gpgpu_dram_scheduler 1 " \
    "-gpgpu_frfcfs_dram_sched_queue_size 64 -gpgpu_dram_return_queue_size 192 -gpgpu_n_mem_per_ctrlr 1 "   \
    "-gpgpu_dram_buswidth 16 -gpgpu_dram_burst_length 2 -dram_data_command_freq_ratio 2 "                  \
    "-gpgpu_mem_address_mask 1 "                                                                           \
    "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS " \
    "-gpgpu_dram_timing_opt nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3 " \
    "-dram_dual_bus_interface 1 -dram_bnk_indexing_policy 0 -dram_bnkgrp_indexing_policy 1"

/* apply "-name value" pairs separated by spaces */
static int set_all(gms_params *p, const char *opts, gms_error *e)
{
    char *s = strdup(opts), *save = NULL;
    int rc = 0;
    for (char *name = strtok_r(s, " ", &save); name && !rc; name = strtok_r(NULL, " ", &save)) {
        char *val = strtok_r(NULL, " ", &save);
        if (!val) { rc = -1; break; }
        rc = gms_params_set(p, name + 1, val, e);
    }
    free(s);
    return rc;
}

static gms_params *mkparams(const char *extra, gms_error *e)
{
    gms_params *p = gms_params_new();
    if (set_all(p, QV100_MEM, e) || (extra && set_all(p, extra, e)) || gms_params_finalize(p, e)) {
        gms_params_free(p);
        return NULL;
    }
    return p;
}

static char *dump_str(const gms_params *p)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    gms_params_dump(p, f);
    fclose(f);
    return buf;
}

TEST(memsys_qv100_dump_plain_words)
{
    gms_error e = { 0 };
    gms_params *p = mkparams(NULL, &e);
    if (!p) printf("    %s\n", e.msg);
    REQUIRE(p);
    char *d = dump_str(p);
    CHECK_CONTAINS(d, "32 channels x 2 sub-partitions = 64 L2 slices");
    CHECK_CONTAINS(d, "L2: 96 KiB per slice x 64 slices = 6 MiB");
    CHECK_CONTAINS(d, "DRAM: 32 channels x 16 banks (4 groups, lower bank bits), 850 MHz command clock");
    CHECK_CONTAINS(d, "peak 27.2 GB/s per channel, 870.4 GB/s total");
    CHECK_CONTAINS(d, "Partition hashing: IPOLY");
    free(d);
    gms_params_free(p);
}

TEST(memsys_bad_input_errors)
{
    gms_error e = { 0 };
    CHECK(!mkparams("-gpgpu_dram_timing_opt nbk=16:CCD=1:RRD=3:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10", &e));
    CHECK_CONTAINS(e.msg, "-gpgpu_dram_timing_opt");
    CHECK_CONTAINS(e.msg, "RCD");
    CHECK(!mkparams("-gpgpu_dram_timing_opt nbk=0:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10", &e));
    CHECK_CONTAINS(e.msg, "nbk");
    CHECK(!mkparams("-gpgpu_mem_addr_mapping dramid@8;0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS", &e));
    CHECK_CONTAINS(e.msg, "-gpgpu_mem_addr_mapping");
    CHECK_CONTAINS(e.msg, "64");
    CHECK(!mkparams("-gpgpu_dram_partition_queues 64:64", &e));
    CHECK_CONTAINS(e.msg, "-gpgpu_dram_partition_queues");
    CHECK(!mkparams("-gms_partition_mapping hash", &e));
    CHECK_CONTAINS(e.msg, "known: gpgpusim, modulo, xor");
    CHECK(!mkparams("-gms_dram_scheduler lifo", &e));
    CHECK_CONTAINS(e.msg, "-gms_dram_scheduler");
    CHECK(!mkparams("-gpgpu_memory_partition_indexing 2 -gpgpu_n_mem 4 -gpgpu_n_sub_partition_per_mchannel 1", &e));
    CHECK_CONTAINS(e.msg, "IPOLY");
    /* a request carries its sub-partition in 16 bits: 1024 x 64 = 65536 is one too many */
    CHECK(!mkparams("-gpgpu_n_mem 1024 -gpgpu_n_sub_partition_per_mchannel 64", &e));
    CHECK_CONTAINS(e.msg, "more than 65535 memory sub-partitions");
}

/* ---- a tiny interconnect: pushes a list of requests, collects replies ---- */
typedef struct fake_icnt {
    gms_engine *eng;
    gms_memsys ms;
    gms_mreq_pool pool;
    uint64_t *addrs;
    uint32_t n, next, got, writes_every, bytes;
    uint64_t lat_sum;
    uint64_t last_reply;
} fake_icnt;

static int fi_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    fake_icnt *f = ud;
    f->got++;
    uint64_t now = gms_engine_cycle(f->eng, GMS_DOM_CORE);
    f->lat_sum += now - r->t_issue;
    f->last_reply = now;
    gms_mreq_release(&f->pool, r);
    return 1;
}

static int fi_tick(void *self, uint64_t cycle)
{
    fake_icnt *f = self;
    if (f->next >= f->n) return 0;
    uint64_t a = f->addrs[f->next];
    uint32_t sp = f->ms.subpart_of(f->ms.self, a);
    if (!f->ms.can_accept(f->ms.self, sp)) return 1;
    gms_mreq *r = gms_mreq_alloc(&f->pool);
    r->addr = a;
    r->bytes = f->bytes ? f->bytes : 32;
    r->sector_mask = r->bytes == 128 ? 0xf : (uint8_t)(1u << ((a >> 5) & 3));
    int w = f->writes_every && f->next % f->writes_every == f->writes_every - 1;
    r->kind = w ? GMS_MREQ_WRITE : GMS_MREQ_READ;
    r->access = w ? GMS_ACC_GLOBAL_W : GMS_ACC_GLOBAL_R;
    r->t_issue = cycle;
    f->ms.push(f->ms.self, sp, r);
    f->next++;
    return 1;
}

static int fi_done(void *ud)
{
    fake_icnt *f = ud;
    return f->got == f->n;
}

static double stat(const gms_stats *s, const char *name)
{
    const gms_stat *v = gms_stats_find(s, name);
    if (!v) printf("    missing stat %s\n", name);
    return v ? v->value : -1;
}

static int run_fake(const gms_params *p, fake_icnt *f, gms_stats *st, gms_error *e)
{
    double mhz[GMS_NDOM] = { p->core.mhz_core, p->core.mhz_icnt, p->core.mhz_l2, p->core.mhz_dram };
    f->eng = gms_engine_new(mhz, 1);
    gms_mreq_pool_init(&f->pool);
    if (gms_memsys_create(&f->ms, p, f->eng, &f->pool, fi_reply, f, e)) return -1;
    gms_component *c = gms_engine_add(f->eng, GMS_DOM_CORE, "fake icnt", fi_tick, NULL, f);
    gms_engine_activate(f->eng, c);
    int rc = gms_engine_run(f->eng, fi_done, f, 100000, stderr, e);
    gms_stats_init(st);
    f->ms.report(f->ms.self, st);
    return rc;
}

static void free_fake(fake_icnt *f, gms_stats *st)
{
    gms_stats_free(st);
    f->ms.free(f->ms.self);
    gms_engine_free(f->eng);
    gms_mreq_pool_free(&f->pool);
    free(f->addrs);
}

/* one read through an idle QV100 memory system: latency = ROP 160 + DRAM latency 100 +
 * DRAM access (ACT, RD, CL, burst: ~26 DRAM cycles ~ 35 core cycles) + queue hops; and idle
 * components cost nothing: far fewer component ticks than cycles x 96 components */
TEST(memsys_single_read_latency_and_idle_cost)
{
    gms_error e = { 0 };
    gms_params *p = mkparams(NULL, &e);
    REQUIRE(p);
    fake_icnt f = { .n = 1 };
    f.addrs = malloc(sizeof *f.addrs);
    f.addrs[0] = 0x7f0000012340ull;
    gms_stats st;
    REQUIRE(!run_fake(p, &f, &st, &e));
    CHECK_EQ(f.got, 1);
    printf("    single read: %llu core cycles, %llu component ticks\n", (unsigned long long)f.lat_sum,
           (unsigned long long)gms_engine_ticks(f.eng));
    CHECK(f.lat_sum >= 160 + 100 + 30);
    CHECK(f.lat_sum <= 160 + 100 + 60);
    CHECK(gms_engine_ticks(f.eng) < 2000);
    CHECK_EQ(stat(&st, "dram_reads"), 1);
    CHECK_EQ(stat(&st, "L2_total_cache_accesses"), 1);
    CHECK_EQ(stat(&st, "L2_total_cache_misses"), 1);
    free_fake(&f, &st);
    gms_params_free(p);
}

/* streaming 2 MiB of sector reads (vecadd's reads): every sector read once from DRAM,
 * high row-buffer locality; then reading it again hits in the L2 (6 MiB) */
TEST(memsys_stream_reads_counts)
{
    gms_error e = { 0 };
    gms_params *p = mkparams(NULL, &e);
    REQUIRE(p);
    uint32_t n = gms_test_quick() ? 16384 : 65536;
    fake_icnt f = { .n = 2 * n };
    f.addrs = malloc(2 * n * sizeof *f.addrs);
    for (uint32_t i = 0; i < n; i++) f.addrs[i] = f.addrs[n + i] = 0x7f0000000000ull + (uint64_t)i * 32;
    gms_stats st;
    REQUIRE(!run_fake(p, &f, &st, &e));
    CHECK_EQ(f.got, 2 * n);
    CHECK_EQ(stat(&st, "dram_reads"), n);
    CHECK_EQ(stat(&st, "n_req"), n);
    CHECK_EQ(stat(&st, "dram_writes"), 0);
    CHECK_EQ(stat(&st, "L2_total_cache_accesses"), 2 * n);
    CHECK_EQ(stat(&st, "L2_total_cache_misses"), n);
    double rbl = stat(&st, "row_buffer_locality");
    printf("    stream: %u sectors twice in %llu core cycles, row locality %.4f, bw_util %.3f, BLP %.2f, L2_BW %.1f GB/s\n",
           n, (unsigned long long)f.last_reply, rbl, stat(&st, "bw_util"), stat(&st, "Bank_Level_Parallism"),
           stat(&st, "L2_BW_total"));
    CHECK(rbl > 0.9);
    free_fake(&f, &st);
    gms_params_free(p);
}

/* writes are acked by the write-back L2 and only reach DRAM as write-backs of evicted dirty
 * lines: a 16 MiB write stream through a 6 MiB L2 writes back at least 10 MiB */
TEST(memsys_write_stream_writebacks)
{
    gms_error e = { 0 };
    gms_params *p = mkparams(NULL, &e);
    REQUIRE(p);
    uint32_t n = gms_test_quick() ? (12u << 20) / 32 : (16u << 20) / 32;
    fake_icnt f = { .n = n, .writes_every = 1 };
    f.addrs = malloc(n * sizeof *f.addrs);
    for (uint32_t i = 0; i < n; i++) f.addrs[i] = 0x7f0000000000ull + (uint64_t)i * 32;
    gms_stats st;
    REQUIRE(!run_fake(p, &f, &st, &e));
    CHECK_EQ(f.got, n);
    CHECK_EQ(stat(&st, "dram_reads"), 0);
    double wb = stat(&st, "n_wr_bk");
    printf("    write stream: %u sectors, %.0f written back\n", n, wb);
    CHECK(wb >= n - (6u << 20) / 32 - 1024);
    CHECK(wb <= n);
    free_fake(&f, &st);
    gms_params_free(p);
}

/* partition camping through the whole memory system: 16 channels, 1 sub-partition, 128 B
 * reads at a 4 KiB stride; modulo puts everything on one channel (DRAM-bound), xor spreads
 * it (bound by the test's one request per cycle). gms_partition_busiest_share: modulo's one
 * partition takes every request of every 1,024-cycle window (1.0); xor's 16 consecutive
 * requests go to 16 partitions, so a window's busiest holds about 1/16 of it */
TEST(memsys_partition_camping_xor_faster)
{
    gms_error e = { 0 };
    uint64_t cyc[2] = { 0, 0 };
    const char *maps[2] = { "modulo", "xor" };
    for (int m = 0; m < 2; m++) {
        char extra[256];
        snprintf(extra, sizeof extra, "-gpgpu_n_mem 16 -gpgpu_n_sub_partition_per_mchannel 1 "
                 "-gpgpu_memory_partition_indexing 0 -gms_partition_mapping %s", maps[m]);
        gms_params *p = mkparams(extra, &e);
        if (!p) printf("    %s\n", e.msg);
        REQUIRE(p);
        uint32_t n = 4096;
        fake_icnt f = { .n = n, .bytes = 128 };
        f.addrs = malloc(n * sizeof *f.addrs);
        for (uint32_t i = 0; i < n; i++) f.addrs[i] = 0x10000000ull + (uint64_t)i * 16 * 256;
        gms_stats st;
        REQUIRE(!run_fake(p, &f, &st, &e));
        cyc[m] = f.last_reply;
        int busy = 0;
        for (int c = 0; c < 16; c++) {
            char name[64];
            snprintf(name, sizeof name, "DRAM[%d].n_req", c);
            busy += stat(&st, name) > 0;
        }
        CHECK_EQ(busy, m ? 16 : 1);
        double share = stat(&st, "gms_partition_busiest_share");
        printf("    %s: busiest partition's share per window %.4f\n", maps[m], share);
        if (m) CHECK(share > 1.0 / 16 - 1e-9 && share < 1.0 / 16 + 1.0 / 64);
        else CHECK_EQ(share, 1.0);
        free_fake(&f, &st);
        gms_params_free(p);
    }
    printf("    camping: modulo %llu cycles, xor %llu cycles\n", (unsigned long long)cyc[0], (unsigned long long)cyc[1]);
    CHECK(cyc[1] * 3 < cyc[0]);
}

/* GPGPU-Sim's L2 clock block pops at most one request per sub-partition per L2 cycle
 * (icnt_pop in gpgpu_sim::cycle), however many the interconnect has for it: a source that
 * pushes while can_accept says yes, every core cycle, with the L2 at half the core clock,
 * gets exactly one request into the slice per L2 cycle. Without the rule the slice's input
 * queue filled in one cycle (can_accept was only refreshed by the slice's own tick). */
typedef struct burst_src {
    gms_engine *eng;
    gms_memsys ms;
    gms_mreq_pool pool;
    uint32_t pushed, sp;
    uint64_t last_l2, same_l2;
} burst_src;

static int burst_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    (void)subpart;
    gms_mreq_release(&((burst_src *)ud)->pool, r);
    return 1;
}

static int burst_tick(void *self, uint64_t cycle)
{
    burst_src *b = self;
    while (b->pushed < 40 && b->ms.can_accept(b->ms.self, b->sp)) {
        uint64_t l2 = gms_engine_cycle(b->eng, GMS_DOM_L2) + 1;
        if (l2 == b->last_l2) b->same_l2++;
        b->last_l2 = l2;
        gms_mreq *r = gms_mreq_alloc(&b->pool);
        r->addr = 0x7f0000000000ull + 4096ull * b->pushed;
        r->bytes = 32;
        r->sector_mask = 1;
        r->kind = GMS_MREQ_READ;
        r->access = GMS_ACC_GLOBAL_R;
        r->t_issue = cycle;
        b->ms.push(b->ms.self, b->sp, r);
        b->pushed++;
    }
    return b->pushed < 40;
}

static int burst_done(void *ud) { return ((burst_src *)ud)->pushed == 40 && gms_engine_cycle(((burst_src *)ud)->eng, GMS_DOM_CORE) > 200; }

TEST(memsys_one_request_per_subpartition_per_l2_cycle)
{
    gms_error e = { 0 };
    gms_params *p = mkparams("-gpgpu_clock_domains 1132.0:1132.0:566.0:850.0", &e);
    REQUIRE(p);
    burst_src b = { 0 };
    double mhz[GMS_NDOM] = { p->core.mhz_core, p->core.mhz_icnt, p->core.mhz_l2, p->core.mhz_dram };
    b.eng = gms_engine_new(mhz, 1);
    gms_mreq_pool_init(&b.pool);
    REQUIRE(!gms_memsys_create(&b.ms, p, b.eng, &b.pool, burst_reply, &b, &e));
    b.sp = 3;
    gms_component *c = gms_engine_add(b.eng, GMS_DOM_CORE, "burst", burst_tick, NULL, &b);
    gms_engine_activate(b.eng, c);
    REQUIRE(!gms_engine_run(b.eng, burst_done, &b, 100000, stderr, &e));
    CHECK_EQ(b.pushed, 40);
    CHECK_EQ(b.same_l2, 0);
    /* 40 requests, one per L2 cycle, two core cycles each: not before core cycle ~78 */
    CHECK(gms_engine_cycle(b.eng, GMS_DOM_L2) >= 39);
    b.ms.free(b.ms.self);
    gms_engine_free(b.eng);
    gms_mreq_pool_free(&b.pool);
    gms_params_free(p);
}
