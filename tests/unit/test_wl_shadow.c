/* Shadow memory (workloads/wl_shadow.h): functional verify runs check the ADDRESSES a
 * workload emits. One lane address moved by 4 bytes in the emitted stream (the test hook of
 * gms_workload_run_functional_opts) must make verification fail, for a store (verify reads
 * the result from the shadow at the array's device address) and for a load (the value the
 * lane uses is not the one at its emitted address). */
#include "test.h"
#include "workloads/workload.h"
#include "workloads/wl_shadow.h"
#include <stdlib.h>
#include <string.h>

TEST(wl_shadow_memory)
{
    wl_shadow *sh = wl_shadow_new(3 * WL_SHADOW_PAGE);
    uint8_t in[40], out[40];
    for (int i = 0; i < 40; i++) in[i] = (uint8_t)(i + 1);
    /* across a page boundary: two pages */
    uint64_t at = 0x7f0000000000ULL + WL_SHADOW_PAGE - 20;
    wl_shadow_write(sh, at, in, 40);
    wl_shadow_read(sh, at, out, 40);
    CHECK(!memcmp(in, out, 40));
    /* never written: zeros, and no page is made for a read */
    wl_shadow_read(sh, 0x1000000, out, 8);
    for (int i = 0; i < 8; i++) CHECK_EQ(out[i], 0);
    CHECK(wl_shadow_active(sh));
    wl_shadow_write(sh, 0x2000000, in, 1);   /* third page: at the bound */
    CHECK(wl_shadow_active(sh));
    wl_shadow_write(sh, 0x3000000, in, 1);   /* fourth: past it, the shadow gives up */
    CHECK(!wl_shadow_active(sh));
    CHECK(wl_shadow_overflowed(sh));
    wl_shadow_read(sh, at, out, 4);
    CHECK_EQ(out[0], 0);
    wl_shadow_free(sh);
}

TEST(wl_shadow_store_load_records)
{
    /* a stride record (4 lanes, 8 bytes apart) and a list record, through the real decoder */
    gms_warp_trace w;
    memset(&w, 0, sizeof w);
    gms_inst *in = gms_warp_push(&w);
    in->op = GMS_OP_MEM;
    in->mem = GMS_MEM_ST_GLOBAL;
    in->width = 4;
    in->mask = 0xf0u;   /* lanes 4..7 */
    in->addr_mode = GMS_ADDR_STRIDE;
    in->base = 0x1000;
    in->stride = 8;
    float v[32] = { 0 };
    for (int l = 4; l < 8; l++) v[l] = (float)l;
    wl_shadow *sh = wl_shadow_new(1 << 20);
    wl_shadow_store(sh, &w, in, v, 4);
    float got[7];
    wl_shadow_read(sh, 0x1000, got, sizeof got);
    CHECK_EQ(got[0], 4.0f);
    CHECK_EQ(got[1], 0.0f);
    CHECK_EQ(got[2], 5.0f);
    CHECK_EQ(got[6], 7.0f);
    /* load the same lanes: matches */
    in->mem = GMS_MEM_LD_GLOBAL;
    wl_shadow_load(sh, &w, in, v, 4);
    gms_error e = { 0 };
    CHECK_EQ(wl_shadow_status(sh, "t", &e), 0);
    /* lane 6 computed with another value: reported with its lane and address */
    v[6] = 9.0f;
    wl_shadow_load(sh, &w, in, v, 4);
    CHECK(wl_shadow_status(sh, "t", &e) != 0);
    CHECK(strstr(e.msg, "lane 6, address 0x1010") != NULL);
    CHECK_EQ(wl_shadow_loads(sh), 2);
    CHECK_EQ(wl_shadow_stores(sh), 1);
    /* a width the values do not have is a misuse, reported */
    wl_shadow *sh2 = wl_shadow_new(1 << 20);
    wl_shadow_store(sh2, &w, in, v, 8);
    CHECK(wl_shadow_status(sh2, "t", &e) != 0);
    CHECK(strstr(e.msg, "8-byte lane values") != NULL);
    wl_shadow_free(sh);
    wl_shadow_free(sh2);
    free(w.insts);
    free(w.addrs);
}

/* run with the shadow and one perturbation; 0 = verified */
static int prun(const char *name, const char *const *kv, uint64_t nst, uint64_t nld, gms_functional_result *r,
                gms_error *e)
{
    gms_functional_opts o = { .shadow = 1, .perturb_store = nst, .perturb_load = nld, .perturb_delta = 4 };
    memset(e, 0, sizeof *e);
    return gms_workload_run_functional_opts(gms_workload_find(name), kv, 1, &o, r, e);
}

TEST(wl_shadow_strided_perturbed)
{
    const char *kv[] = { "n=2000", "stride=32", NULL };
    gms_functional_result r;
    gms_error e;
    REQUIRE(prun("strided", kv, 0, 0, &r, &e) == 0);
    /* 2000 threads: 63 warps (the last one of 16 lanes), one LDG and one STG each */
    CHECK_EQ(r.shadow_loads, 63);
    CHECK_EQ(r.shadow_stores, 63);
    CHECK_EQ(r.shadow_overflow, 0);
    /* 5th store (warp 4: b[128..159]): lane 0's address moves to b[129]; b[128] keeps its 0 */
    CHECK(prun("strided", kv, 5, 0, &r, &e) != 0);
    CHECK(strstr(e.msg, "b[128]") != NULL);
    /* 3rd load (warp 2): lane 0 reads a[64*32 + 1], not the element the thread copies */
    CHECK(prun("strided", kv, 0, 3, &r, &e) != 0);
    CHECK(strstr(e.msg, "lane 0") != NULL);
    /* the last store of a partial warp */
    CHECK(prun("strided", kv, 63, 0, &r, &e) != 0);
    CHECK(strstr(e.msg, "b[1984]") != NULL);
    /* without the shadow, verify cannot see it (the address bug this guards against) */
    gms_functional_opts off = { .shadow = 0, .perturb_store = 5, .perturb_delta = 4 };
    CHECK_EQ(gms_workload_run_functional_opts(gms_workload_find("strided"), kv, 1, &off, &r, &e), 0);
}

TEST(wl_shadow_gemm_perturbed)
{
    const char *kv[] = { "scale=0.0625", NULL };   /* 32 x 32 */
    gms_functional_result r;
    gms_error e;
    REQUIRE(prun("gemm", kv, 0, 0, &r, &e) == 0);
    CHECK(r.shadow_loads > 0);
    CHECK(r.shadow_stores > 0);
    /* a store of C in the k loop: a neighbour's element gets this lane's partial sum (later
     * overwritten by the neighbour's own stores) and this lane's element misses it; the
     * last store of the run (warp 31's last accumulator) is never overwritten */
    CHECK(prun("gemm", kv, r.shadow_stores, 0, &r, &e) != 0);
    CHECK(strstr(e.msg, "C[") != NULL);
    /* a load of A: the lane computes with a value that is not at its address. Warp 0 (row
     * i = 0, where A is all zeros: a value check cannot tell its elements apart) does 65 loads
     * (C, then A and B for 32 k); load 67 is warp 1's first A[1][k], lane 0 moved to A[1][1] */
    CHECK(prun("gemm", kv, 0, 2, &r, &e) == 0);
    CHECK(prun("gemm", kv, 0, 67, &r, &e) != 0);
    CHECK(strstr(e.msg, "load at pc") != NULL);
}

/* Every built-in workload goes through the shadow (at small sizes): it checks loads and
 * applies stores, and moving one lane of its LAST store (never overwritten later) or of its
 * last load fails the run (stores_back / loads_back below: the few whose last ones cannot
 * change a result). */
typedef struct shadow_case { const char *name; const char *kv[8]; } shadow_case;
static const shadow_case cases[] = {
    { "stream", { "n=3000" } },
    { "strided", { "n=3000", "stride=7" } },
    { "gather", { "n=3000", "asize=100000" } },
    { "pointer_chase", { "n=512", "nodes=65536", "steps=4" } },
    { "transpose", { "N=40" } },
    { "reduce", { "blocks=4" } },
    { "matvec", { "N=70", "cols=30" } },
    { "2dconv", { "NI=40", "NJ=40" } },
    { "2mm", { "NI=40", "NJ=24", "NK=20", "NL=36" } },
    { "3dconv", { "NI=6", "NJ=12", "NK=40" } },
    { "3mm", { "NI=10", "NJ=33", "NK=7", "NL=9", "NM=12" } },
    { "atax", { "NX=70", "NY=100" } },
    { "bicg", { "NX=100", "NY=70" } },
    { "corr", { "M=256", "N=8" } },
    { "covar", { "M=256", "N=32" } },
    { "fdtd-2d", { "tmax=2", "NX=20", "NY=40" } },
    { "gemm", { "NI=40", "NJ=24", "NK=8" } },
    { "gesummv", { "N=100" } },
    { "gramschm", { "M=24", "N=20" } },
    { "mvt", { "N=100" } },
    { "syr2k", { "N=40", "M=12" } },
    { "syrk", { "N=40", "M=24" } },
    { "gaussian", { "size=40", "repeat=2" } },
    { "pathfinder", { "cols=1000", "rows=30", "pyramid=4", "repeat=2" } },
    { "hotspot", { "rows=40", "pyramid=2", "sim_time=3", "repeat=2" } },
    { "nw", { "dim=48", "repeat=2" } },
    { "backprop", { "input=16", "repeat=2" } },   /* 16: with more inputs the hidden units
                                                   * saturate and the weight updates round away */
    { "hotspot3d", { "rows=64", "layers=3", "iter=2", "repeat=2" } },
    { "srad", { "rows=32", "cols=48", "iter=2", "y2=15", "x2=15", "repeat=2" } },
    { "kmeans", { "points=300", "k=3", "reps=1", "repeat=2" } },   /* reps=1: the last round's
                                                                   * centres differ from the previous ones */
    { "pfilter", { "x=32", "y=32", "z=3", "np=100", "repeat=2" } },
    { "dwt2d", { "width=64", "height=48", "levels=2", "components=1", "repeat=2" } },
    { "knn", { "ref=40", "query=36", "dim=5", "k=4", "iter=2", "repeat=1" } },
    { "lr", { "instances=300", "features=40", "iter=2", "repeat=2" } },
    { "sc", { "n=600", "chunksize=300", "dim=4", "clustersize=60", "k1=3", "k2=6", "repeat=2" } },
    { "bn", { "nodes=8", "data=40", "iter=2", "repeat=2" } },
    { "bfs", { "vertices=3000", "edges=6000", "repeat=2" } },
    { "cnn", { "train=1", "test=1", "repeat=2" } },
    { "svm", { "train=100", "test=40", "M=20", "repeat=2" } },
};

/* The store to move, counted back from the last one (0: the last), for a workload whose last
 * stores cannot change a result (they write back values the memory already holds) */
static uint64_t stores_back(const char *name)
{
    /* dwt2d's last kernel copies the backup back into c_r; past the 32 x 24 elements that
     * level 2 overwrote it writes the values c_r still holds: 72 warps of such stores
     * (elements 768..3071), so the test moves warp 23's (736..767): c_r[736] keeps level 2's
     * input */
    if (!strcmp(name, "dwt2d")) return 72;
    /* bn's last store writes the winning thread's fourth parent into U_resP: -1 (it has
     * fewer), which the previous launches left there too; the one before is its third */
    if (!strcmp(name, "bn")) return 1;
    /* bfs's last three stores are the last level's countDegrees / scanDegrees outputs
     * (degrees, block sum, prefix sums): that level finds no new vertex, so no kernel reads
     * them (dead data); the one before is the previous level's last store into the queue
     * the last level reads */
    if (!strcmp(name, "bfs")) return 3;
    return 0;
}

/* The same for the load to move, for a workload whose last loads read values every neighbour
 * holds too */
static uint64_t loads_back(const char *name)
{
    /* sc's last load (pc 0xd0) reads a work_mem element each thread updates once from the
     * zeroed array: it and its neighbours hold 0. Two loads before it, the thread's load of
     * its point's 8-byte assign field, moved by 4, reads half of it and half of the cost */
    if (!strcmp(name, "sc")) return 2;
    /* bn's last computeKernel has threads with a parent set in warp 0 only, so its last 7
     * warps only load the 8 D_parent flags (56 loads), and a flag moved by 4 bytes reads the
     * same 0 or 1 in about half of them (the last: node 7's own flag, 0, past the end where
     * the shadow holds 0 too). 56 before the last is warp 0's load of a local score */
    if (!strcmp(name, "bn")) return 56;
    return 0;
}

TEST(wl_shadow_every_micro_and_polybench)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const shadow_case *k = &cases[c];
        gms_functional_result r;
        gms_error e;
        if (prun(k->name, k->kv, 0, 0, &r, &e)) {
            printf("    %s: %s\n", k->name, e.msg);
            CHECK(0);
            continue;
        }
        if (!r.shadow_loads || !r.shadow_stores || r.shadow_overflow) {
            printf("    %s: %llu loads, %llu stores checked\n", k->name, (unsigned long long)r.shadow_loads,
                   (unsigned long long)r.shadow_stores);
            CHECK(0);
        }
        uint64_t nst = r.shadow_stores - stores_back(k->name), nld = r.shadow_loads - loads_back(k->name);
        if (prun(k->name, k->kv, nst, 0, &r, &e) == 0) {
            printf("    %s: the last store moved by 4 bytes still verifies\n", k->name);
            CHECK(0);
        }
        if (prun(k->name, k->kv, 0, nld, &r, &e) == 0) {
            printf("    %s: the last load moved by 4 bytes still verifies\n", k->name);
            CHECK(0);
        }
    }
}

/* wl_shadow_digest: the contents, not the order pages were made in; zero pages do not count */
TEST(wl_shadow_digest_contents_not_order)
{
    wl_shadow *a = wl_shadow_new(64 * WL_SHADOW_PAGE), *b = wl_shadow_new(64 * WL_SHADOW_PAGE);
    const uint32_t x = 7, y = 9, z = 0;
    wl_shadow_write(a, 0x1000, &x, 4);
    wl_shadow_write(a, 0x9004, &y, 4);
    wl_shadow_write(b, 0x9004, &y, 4);
    wl_shadow_write(b, 0x1000, &x, 4);
    wl_shadow_write(b, 0x20000, &z, 4);   /* a page held, all zero */
    CHECK(wl_shadow_digest(a) != 0);
    CHECK_EQ(wl_shadow_digest(a), wl_shadow_digest(b));
    const uint32_t y2 = 10;
    wl_shadow_write(b, 0x9004, &y2, 4);
    CHECK(wl_shadow_digest(a) != wl_shadow_digest(b));
    wl_shadow_write(b, 0x9004, &y, 4);
    CHECK_EQ(wl_shadow_digest(a), wl_shadow_digest(b));
    wl_shadow_write(b, 0x5000, &x, 4);   /* the same value at another address */
    CHECK(wl_shadow_digest(a) != wl_shadow_digest(b));
    wl_shadow_free(a);
    wl_shadow_free(b);
}

/* wl_shadow_write_ro: a load of consecutive elements whose values come from the host copy at
 * the same place passes by that place; any other values are compared; a store into the array
 * and a host copy changed before the end are errors */
static gms_inst *ro_load(gms_warp_trace *w, uint64_t base)
{
    w->n = 0;
    gms_inst *in = gms_warp_push(w);
    in->op = GMS_OP_MEM;
    in->mem = GMS_MEM_LD_GLOBAL;
    in->width = 4;
    in->mask = 0xffffffffu;
    in->addr_mode = GMS_ADDR_STRIDE;
    in->base = base;
    in->stride = 4;
    return in;
}

TEST(wl_shadow_read_only_arrays)
{
    gms_warp_trace w;
    memset(&w, 0, sizeof w);
    float host[64], copy[64];
    for (int i = 0; i < 64; i++) host[i] = copy[i] = (float)i;
    gms_error e = { 0 };
    /* by place, and by value from another array */
    wl_shadow *sh = wl_shadow_new(1 << 20);
    wl_shadow_write_ro(sh, 0x2000, host, sizeof host);
    wl_shadow_load(sh, &w, ro_load(&w, 0x2010), host + 4, 4);
    wl_shadow_load(sh, &w, ro_load(&w, 0x2010), copy + 4, 4);
    CHECK_EQ(wl_shadow_status(sh, "t", &e), 0);
    /* the host copy at another place than the address: compared, and lane 0 differs */
    wl_shadow_load(sh, &w, ro_load(&w, 0x2010), host + 5, 4);
    CHECK(wl_shadow_status(sh, "t", &e) != 0);
    CHECK(strstr(e.msg, "lane 0, address 0x2010") != NULL);
    wl_shadow_free(sh);
    /* the host copy changed after it was written: the load at its place passes, the end does not */
    sh = wl_shadow_new(1 << 20);
    wl_shadow_write_ro(sh, 0x2000, host, sizeof host);
    host[10] = -1.0f;
    wl_shadow_load(sh, &w, ro_load(&w, 0x2010), host + 4, 4);
    CHECK(wl_shadow_status(sh, "t", &e) != 0);
    CHECK(strstr(e.msg, "read-only array at 0x2000 differs") != NULL);
    host[10] = 10.0f;
    wl_shadow_free(sh);
    /* a store into the array */
    sh = wl_shadow_new(1 << 20);
    wl_shadow_write_ro(sh, 0x2000, host, sizeof host);
    gms_inst *st = ro_load(&w, 0x20f0);
    st->mem = GMS_MEM_ST_GLOBAL;
    st->mask = 1;
    wl_shadow_store(sh, &w, st, copy, 4);
    CHECK(wl_shadow_status(sh, "t", &e) != 0);
    CHECK(strstr(e.msg, "declared read-only") != NULL);
    wl_shadow_free(sh);
    free(w.insts);
    free(w.addrs);
}

/* wl_shadow_ro_begin / _end: an array stored by one kernel and read by the next; the host
 * copy is checked against device memory when the promise ends */
TEST(wl_shadow_read_only_after_stores)
{
    gms_warp_trace w;
    memset(&w, 0, sizeof w);
    float host[64];
    for (int i = 0; i < 64; i++) host[i] = (float)(2 * i);
    gms_error e = { 0 };
    wl_shadow *sh = wl_shadow_new(1 << 20);
    gms_inst *st = ro_load(&w, 0x3000);   /* lanes 0..31: elements 0..31 */
    st->mem = GMS_MEM_ST_GLOBAL;
    wl_shadow_store(sh, &w, st, host, 4);
    st = ro_load(&w, 0x3080);
    st->mem = GMS_MEM_ST_GLOBAL;
    wl_shadow_store(sh, &w, st, host + 32, 4);
    wl_shadow_ro_begin(sh, 0x3000, host, sizeof host);
    wl_shadow_load(sh, &w, ro_load(&w, 0x3040), host + 16, 4);
    wl_shadow_ro_end(sh, 0x3000);
    CHECK_EQ(wl_shadow_status(sh, "t", &e), 0);
    /* after the end, a store is allowed again */
    st = ro_load(&w, 0x3000);
    st->mem = GMS_MEM_ST_GLOBAL;
    wl_shadow_store(sh, &w, st, host, 4);
    CHECK_EQ(wl_shadow_status(sh, "t", &e), 0);
    /* an element the kernel never stored: the host copy differs at the end of the promise */
    host[63] = 1.0f;
    wl_shadow_ro_begin(sh, 0x3000, host, sizeof host);
    wl_shadow_ro_end(sh, 0x3000);
    CHECK(wl_shadow_status(sh, "t", &e) != 0);
    CHECK(strstr(e.msg, "differs from device memory") != NULL);
    wl_shadow_free(sh);
    free(w.insts);
    free(w.addrs);
}
