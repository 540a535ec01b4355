/* GPGPU-Sim's totalbankreads / totalbankwrites (the text log's "total dram reads / writes"):
 * memory_stats_t::memlatstat_dram_access, called by dram_t::push for every request a DRAM
 * channel takes, adds mf->get_data_size() / dram_atom_size, both unsigned (a request smaller
 * than an atom adds 0), to the reads (the L2's write-allocate reads among them) or the writes.
 * Here gms_dram_stats.bank_reads / bank_writes, counted in gms_dram_chan_enter. A channel with
 * GDDR5's BL 8 x 4 B x 2 chips: a 64 B atom (GTX480's). */
#include "test.h"
#include "mem/dram.h"
#include <stdlib.h>

static gms_dram_timing gddr5_64b_atom(void)
{
    gms_dram_timing t;
    memset(&t, 0, sizeof t);
    gms_error e = { 0 };
    if (gms_dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
                              "-gpgpu_dram_timing_opt", &t, &e))
        printf("    parse: %s\n", e.msg);
    t.BL = 8; t.busW = 4; t.n_per_ctrlr = 2; t.ratio = 4;
    if (gms_dram_timing_derive(&t, &e)) printf("    derive: %s\n", e.msg);
    return t;
}

static gms_mreq *req(gms_mreq_pool *p, gms_mreq_kind kind, gms_access_type acc, uint16_t bytes, uint8_t smask)
{
    gms_mreq *m = gms_mreq_alloc(p);
    m->kind = (uint8_t)kind;
    m->access = (uint8_t)acc;
    m->bytes = bytes;
    m->sector_mask = smask;
    return m;
}

/* runs the channel until n requests came out; returns how many did */
static int drain(gms_dram_chan *c, gms_mreq_pool *p, int n)
{
    int got = 0;
    for (uint64_t now = 1; got < n && now < 100000; now++) {
        gms_dram_chan_cycle(c, now);
        gms_mreq *m;
        while ((m = gms_dram_chan_return_pop(c)) || (m = gms_dram_chan_done_pop(c))) {
            gms_mreq_release(p, m);
            got++;
        }
    }
    return got;
}

/* GPGPU-Sim's data size of a store from an SM is its coalesced segment
 * (memory_coalescing_arch_reduce_and_send), not the bytes it writes */
TEST(dram_data_size_of_a_store_is_its_segment)
{
    gms_mreq m;
    memset(&m, 0, sizeof m);
    m.kind = GMS_MREQ_WRITE;
    m.access = GMS_ACC_GLOBAL_W;
    m.bytes = 4; m.sector_mask = 0x1;    /* one lane: one 32 B chunk */
    CHECK_EQ(gms_dram_data_size(&m), 32);
    m.bytes = 8; m.sector_mask = 0xc;    /* chunks 2 and 3: the upper half */
    CHECK_EQ(gms_dram_data_size(&m), 64);
    m.bytes = 8; m.sector_mask = 0x9;    /* chunks 0 and 3: the whole 128 B segment */
    CHECK_EQ(gms_dram_data_size(&m), 128);
    m.access = GMS_ACC_L2_WRBK;          /* a write-back: its modified bytes, as the cache sized it */
    m.bytes = 96; m.sector_mask = 0x7;
    CHECK_EQ(gms_dram_data_size(&m), 96);
    m.kind = GMS_MREQ_READ;              /* reads: whole sectors or lines already */
    m.access = GMS_ACC_L2_WR_ALLOC_R;
    m.bytes = 128; m.sector_mask = 0xf;
    CHECK_EQ(gms_dram_data_size(&m), 128);
}

/* Hand count on a 64 B atom: reads 128 B (2) + 32 B (0: smaller than an atom) + a 128 B
 * write-allocate read (2) = 4; writes: a 128 B L2 write-back (2) + a 4-byte store in one chunk
 * (32 B segment: 0) + an 8-byte store in chunks 0 and 3 (128 B segment: 2) + a 32 B write-back
 * (0) = 4. Counted when the channel takes them, before any command issues; the column commands
 * (n_rd, n_rd_L2_A, n_wr, n_wr_WB) come as the requests are served, one at least each. */
TEST(dram_bank_counts_at_push_in_integer_atoms)
{
    gms_dram_timing t = gddr5_64b_atom();
    REQUIRE(t.atom == 64);
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_dram_sched_env env = { .nbk = t.nbk, .queue_size = 16 };
    gms_dram_chan *c = gms_dram_chan_new(0, &t, gms_dram_sched_find("frfcfs"), &env, 0);
    gms_mreq *rs[] = {
        req(&p, GMS_MREQ_READ, GMS_ACC_GLOBAL_R, 128, 0xf),
        req(&p, GMS_MREQ_READ, GMS_ACC_GLOBAL_R, 32, 0x2),
        req(&p, GMS_MREQ_READ, GMS_ACC_L2_WR_ALLOC_R, 128, 0xf),
        req(&p, GMS_MREQ_WRITE, GMS_ACC_L2_WRBK, 128, 0xf),
        req(&p, GMS_MREQ_WRITE, GMS_ACC_GLOBAL_W, 4, 0x1),
        req(&p, GMS_MREQ_WRITE, GMS_ACC_GLOBAL_W, 8, 0x9),
        req(&p, GMS_MREQ_WRITE, GMS_ACC_L2_WRBK, 32, 0x4),
    };
    int n = (int)(sizeof rs / sizeof rs[0]);
    for (int i = 0; i < n; i++) {
        gms_addrdec_dram at = { .bank = (uint32_t)i, .row = 1 };
        gms_dram_chan_push(c, rs[i], &at, 0);
    }
    const gms_dram_stats *s = gms_dram_chan_stats(c);
    CHECK_EQ(s->bank_reads, 4);
    CHECK_EQ(s->bank_writes, 4);
    CHECK_EQ(s->n_rd + s->n_rd_L2_A + s->n_wr + s->n_wr_WB, 0);
    REQUIRE(drain(c, &p, n) == n);
    CHECK_EQ(s->bank_reads, 4);
    CHECK_EQ(s->bank_writes, 4);
    /* the channel serves the bytes each request carries: 2 + 1 + 2 reads, 2 + 1 + 1 + 1 writes */
    CHECK_EQ(s->n_rd, 3);
    CHECK_EQ(s->n_rd_L2_A, 2);
    CHECK_EQ(s->n_wr_WB, 3);
    CHECK_EQ(s->n_wr, 2);
    gms_dram_chan_free(c);
    CHECK_EQ(p.live, 0);
    gms_mreq_pool_free(&p);
}
