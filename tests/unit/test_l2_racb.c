/* RACB at the L2 slice (-gms_racb 2, docs/cart.md): a read the cache refuses goes to DRAM
 * around it and its reply goes up without a fill; without RACB it waits at the head. */
#include "test.h"
#include "mem/l2_slice.h"
#include "mem/l2q.h"

typedef struct sink { gms_mreq *v[16]; int n; } sink;
static int on_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    sink *k = ud;
    if (k->n < 16) k->v[k->n++] = r;
    return 1;
}

/* one slice with a 1-entry MSHR; reads of lines A and B at cycle 0; a fake DRAM answers
 * reads 50 cycles after they leave. Returns the requests sent to DRAM by cycle 10 and runs
 * on until both replies are back; *bypassed: the slice's RACB count */
static int two_misses(int racb, int *replies, uint64_t *bypassed, int *live)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_cache_config cc;
    gms_error e = { 0 };
    if (gms_cache_config_parse("N:64:128:16,L:B:m:W:L,A:1:4,4", "-gpgpu_cache:dl2", &cc, &e)) return -1;
    sink k = { .n = 0 };
    gms_l2_slice_cfg cfg = {
        .id = 0, .cache = &cc, .rop_latency = 0, .q_icnt_l2 = 8, .q_l2_dram = 8, .q_dram_l2 = 8, .q_l2_icnt = 8,
        .inq = gms_l2q_find("fifo"), .racb = racb, .reply = on_reply, .reply_ud = &k,
    };
    gms_l2_slice *s = gms_l2_slice_new(&cfg, &p);
    for (int i = 0; i < 2; i++) {
        gms_mreq *r = gms_mreq_alloc(&p);
        r->addr = 0x10000 + 0x80 * (uint64_t)i;
        r->bytes = 128;
        r->kind = GMS_MREQ_READ;
        r->access = GMS_ACC_GLOBAL_R;
        gms_l2_slice_push(s, r, 0);
    }
    gms_mreq *out[8];
    uint64_t due[8];
    int nout = 0, by10 = 0;
    for (uint64_t now = 1; now < 400 && k.n < 2; now++) {
        gms_l2_slice_cycle(s, now);
        gms_mreq *m;
        while ((m = gms_l2_slice_to_dram_pop(s)) && nout < 8) {
            out[nout] = m;
            due[nout++] = now + 50;
        }
        for (int i = 0; i < nout; i++)
            if (out[i] && due[i] <= now && !gms_l2_slice_from_dram_full(s)) {
                gms_l2_slice_from_dram_push(s, out[i]);
                out[i] = NULL;
            }
        if (now == 10) by10 = nout;
    }
    *replies = k.n;
    gms_l2q_stats st = { 0 };
    gms_l2_slice_inq_stats(s, &st);
    *bypassed = st.racb;
    for (int i = 0; i < k.n; i++) gms_mreq_release(&p, k.v[i]);
    gms_l2_slice_free(s);
    *live = (int)p.live;
    gms_mreq_pool_free(&p);
    return by10;
}

TEST(l2_racb_bypasses_a_refused_read)
{
    int replies, live;
    uint64_t by;
    /* without RACB: B waits for A's MSHR entry (one request out by cycle 10) */
    CHECK_EQ(two_misses(0, &replies, &by, &live), 1);
    CHECK_EQ(replies, 2);
    CHECK_EQ(by, 0);
    CHECK_EQ(live, 0);
    /* with RACB: B goes around the cache at once, and comes back without a fill */
    CHECK_EQ(two_misses(1, &replies, &by, &live), 2);
    CHECK_EQ(replies, 2);
    CHECK_EQ(by, 1);
    CHECK_EQ(live, 0);
}
