/* -gms_l2q_dram_gate (docs/cart.md): while the L2->DRAM queue is full, GPGPU-Sim accesses
 * nothing (block); under "miss" the slice goes on, so a hit behind a miss is served and the
 * miss waits in the cache's own miss queue (spec 000a 1.1, case 3). */
#include "test.h"
#include "mem/l2_slice.h"
#include "mem/l2q.h"

typedef struct sink { int n; gms_mreq *v[8]; } sink;
static int on_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    (void)subpart;
    sink *k = ud;
    if (k->n < 8) k->v[k->n] = r;
    k->n++;
    return 1;
}

static gms_mreq *read_of(gms_mreq_pool *p, uint64_t addr)
{
    gms_mreq *r = gms_mreq_alloc(p);
    r->addr = addr;
    r->bytes = 128;
    r->kind = GMS_MREQ_READ;
    r->access = GMS_ACC_GLOBAL_R;
    return r;
}

/* B (0x20000) is brought in first; then A misses and sits in a one-entry L2->DRAM queue
 * that nobody drains; then C (a miss) and B (now a hit) arrive in that order. Returns the
 * replies seen in the 100 cycles after C and B arrive (B's is the only one possible), and
 * checks that everything completes once DRAM answers. */
static int replies_behind_full_dram_queue(const char *member, int gate_block, int *all_done, int *live)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_cache_config cc;
    gms_error e = { 0 };
    if (gms_cache_config_parse("N:64:128:16,L:B:m:W:L,A:4:4,4", "-gpgpu_cache:dl2", &cc, &e)) return -1;
    sink k = { .n = 0 };
    gms_l2_slice_cfg cfg = {
        .id = 0, .cache = &cc, .rop_latency = 0, .q_icnt_l2 = 8, .q_l2_dram = 1, .q_dram_l2 = 8, .q_l2_icnt = 8,
        .inq = gms_l2q_find(member), .gate_block = gate_block, .reply = on_reply, .reply_ud = &k,
    };
    gms_l2_slice *s = gms_l2_slice_new(&cfg, &p);
    uint64_t now = 1;
    /* 1. B misses, DRAM answers at once, B is filled and replied */
    gms_l2_slice_push(s, read_of(&p, 0x20000), 0);
    for (; now < 200 && k.n < 1; now++) {
        gms_l2_slice_cycle(s, now);
        gms_mreq *m = gms_l2_slice_to_dram_pop(s);
        if (m) gms_l2_slice_from_dram_push(s, m);
    }
    /* 2. A misses and stays in L2->DRAM */
    gms_l2_slice_push(s, read_of(&p, 0x10000), now);
    for (uint64_t end = now + 20; now < end; now++) gms_l2_slice_cycle(s, now);
    int full = gms_l2_slice_to_dram_top(s) != NULL;
    /* 3. C (miss) then B (hit) */
    gms_l2_slice_push(s, read_of(&p, 0x30000), now);
    gms_l2_slice_push(s, read_of(&p, 0x20000), now);
    int before = k.n;
    for (uint64_t end = now + 100; now < end; now++) gms_l2_slice_cycle(s, now);
    int behind = k.n - before;
    /* 4. DRAM answers everything: four replies in all */
    for (uint64_t end = now + 400; now < end && k.n < 4; now++) {
        gms_l2_slice_cycle(s, now);
        gms_mreq *m = gms_l2_slice_to_dram_pop(s);
        if (m) gms_l2_slice_from_dram_push(s, m);
    }
    *all_done = full && k.n == 4;
    for (int i = 0; i < k.n && i < 8; i++) gms_mreq_release(&p, k.v[i]);
    gms_l2_slice_free(s);
    *live = (int)p.live;
    gms_mreq_pool_free(&p);
    return behind;
}

TEST(l2_dram_gate_serves_a_hit_behind_a_full_dram_queue)
{
    static const char *const members[] = { "fifo", "p1", "p2", "cart" };
    for (int m = 0; m < 4; m++) {
        int done, live;
        /* block (GPGPU-Sim): nothing is accessed while L2->DRAM is full */
        CHECK_EQ(replies_behind_full_dram_queue(members[m], 1, &done, &live), 0);
        CHECK(done);
        CHECK_EQ(live, 0);
        /* miss: C waits in the miss queue, B hits and goes up */
        CHECK_EQ(replies_behind_full_dram_queue(members[m], 0, &done, &live), 1);
        CHECK(done);
        CHECK_EQ(live, 0);
    }
}
