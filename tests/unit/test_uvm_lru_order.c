/* -uvm_lru_region_first's order as an invariant: after any sequence of arrivals, departures and
 * refreshes, the order gms_lru_first/gms_lru_after walk (and gms_lru_victim's pick) equals a
 * brute-force sort of the listed 64 KiB blocks by (their region's most recent use, their own
 * last use), the order UVMSmart's sort_valid_pages gives SE and TE; with the option off, by
 * their own last use alone. */
#include "test_uvm_util.h"
#include "uvm/evict_lru.h"
#include <stdlib.h>

#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }

typedef struct shadow { uint64_t ts; uint32_t cnt; } shadow;

static const shadow *g_sh;
static const uint32_t *g_reg;
static uint64_t *g_rkey;
static int g_region_first;

static int cmp_blocks(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (g_region_first) {
        uint64_t kx = g_rkey[g_reg[x]], ky = g_rkey[g_reg[y]];
        if (kx != ky) return kx < ky ? -1 : 1;
    }
    return g_sh[x].ts < g_sh[y].ts ? -1 : g_sh[x].ts > g_sh[y].ts;
}

/* 1 when the list's walk is the brute-force order */
static int order_matches(gms_lru *l, const gms_uvm *u, const shadow *sh, uint32_t *want, uint32_t *got, uint64_t *rkey)
{
    uint32_t n = 0, m = 0;
    for (uint32_t r = 0; r < u->nregions; r++) rkey[r] = 0;
    for (uint32_t b = 0; b < u->nblocks; b++) {
        if (!sh[b].cnt) continue;
        want[n++] = b;
        if (sh[b].ts > rkey[u->block_region[b]]) rkey[u->block_region[b]] = sh[b].ts;
    }
    g_sh = sh; g_reg = u->block_region; g_rkey = rkey; g_region_first = l->region_first;
    qsort(want, n, sizeof *want, cmp_blocks);
    for (uint32_t b = gms_lru_first(l); b != GMS_UVM_NONE && m <= n; b = gms_lru_after(l, b)) got[m++] = b;
    if (m != n) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (want[i] != got[i]) return 0;
    return gms_lru_victim(l) == (n ? want[0] : GMS_UVM_NONE);
}

TEST(uvm_lru_region_first_order_is_the_sorted_order)
{
    for (int rf = 0; rf < 2; rf++) {
        uvm_h h;
        /* 8 MiB: 4 regions of 32 blocks of 16 pages */
        REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_lru_region_first", rf ? "1" : "0"), 8 << 20) == 0);
        gms_uvm *u = h.u;
        gms_lru l;
        gms_lru_init(&l, u, GMS_LRU_BLOCK);
        gms_lru_set_region_first(&l);
        CHECK_EQ(l.region_first, rf);
        shadow *sh = calloc(u->nblocks, sizeof *sh);
        uint8_t *in = calloc(u->npages, 1);
        uint32_t *want = malloc(u->nblocks * sizeof *want), *got = malloc((u->nblocks + 1) * sizeof *got);
        uint64_t *rkey = malloc(u->nregions * sizeof *rkey);
        srand(1234 + rf);
        uint64_t now = 0;
        int bad = 0;
        for (int op = 0; op < 20000 && !bad; op++) {
            /* pages of a few blocks at a time, so that blocks hold several pages */
            uint32_t p = (uint32_t)rand() % (u->npages / 4) * 4 + (uint32_t)rand() % 4;
            uint32_t b = u->pages[p].block;
            int dice = rand() % 10;
            if (!in[p] && dice < 5) {
                gms_lru_resident(&l, p);
                in[p] = 1;
                sh[b].cnt++;
                sh[b].ts = ++now;
            } else if (in[p] && dice < 7) {
                gms_lru_removed(&l, p);
                in[p] = 0;
                sh[b].cnt--;
            } else if (in[p]) {
                gms_lru_access(&l, p);   /* -uvm_lru_on_access 1, the default */
                sh[b].ts = ++now;
            }
            if (op % 50 == 0 && !order_matches(&l, u, sh, want, got, rkey)) bad = op + 1;
        }
        if (!bad && !order_matches(&l, u, sh, want, got, rkey)) bad = -1;
        CHECK_EQ(bad, 0);
        free(sh); free(in); free(want); free(got); free(rkey);
        gms_lru_free(&l);
        uvm_h_free(&h);
    }
}
