/* um-sssp: UVMSmart's benchmarks/Managed/sssp (`sssp`, no arguments): single-source shortest
 * paths from vertex 0 of a random graph of 2^20 vertices with 2 out-edges each
 * (generateRandomGraph: distinct random targets other than the vertex itself, weights
 * (rand() % 1000) / 1000; vertexArray[i] = 2i). Managed: vertexArray, edgeArray, weightArray
 * (filled on the host), the distances (h_shortestDistancesGPU) and updatingShortestDistances;
 * finalizedVertices is cudaMalloc device memory. initializeArrays, then up to MAX_ITERATION = 15
 * Kernel1/Kernel2 pairs, 5 back to back (NUM_ASYNCHRONOUS_ITERATIONS) between cudaMemcpy's of
 * finalizedVertices to the host, which stop the loop when no vertex is flagged; one
 * cudaDeviceSynchronize; the host prints the distances. Every kernel has 16-thread blocks.
 * Kernel1 relaxes a flagged vertex's edges with a float atomicMin (a CAS loop on the int view:
 * modelled as its first load and one ATOM.CAS, no retry); Kernel2 takes the smaller updated
 * distances and flags their vertices. 15 rounds do not reach every vertex of the default graph
 * (about 20 hops deep): the result is the 15-round Bellman-Ford distance, as UVMSmart's.
 * The random numbers are ours (the run's seed), not glibc rand()'s. With uvm=0 the graph is
 * cudaMalloc'd and copied, the distances copied back. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TPB 16
#define MAX_ITER 15
#define ASYNC 5

enum { VA, EA, WA, DIST, FIN, UPD, NBUF };
static const char *const bufname[NBUF] = {"vertexArray", "edgeArray", "weightArray", "h_shortestDistancesGPU",
                                          "d_finalizedVertices", "d_updatingShortestDistances"};

typedef struct umsssp {
    uint64_t nv, deg, ne, repeat, rep, iter;
    int phase;
    wl_buf b[NBUF];
    float *ref;            /* CPU distances after the same rounds */
    char bad[256];
} umsssp;

static const gms_wl_param params[] = {
    {"vertices", "1048576", "graph vertices (UVMSmart's numVertices = 1<<20)"},
    {"neighbors", "2", "out-edges per vertex (UVMSmart's neighborsPerVertex), distinct targets"},
    {"scale", "1", "multiplies vertices"},
    {"repeat", "1", "run the whole search N times (the arrays initialised again by initializeArrays)"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *nv, uint64_t *deg, gms_error *e)
{
    if (wl_clamp_scaled(a, "um-sssp", "vertices", 1, 0, 1ULL << 27, nv, e) || wl_param(a, "neighbors", 1, 64, deg, e))
        return -1;
    if (*deg >= *nv)
        return gms_err(e, "workload um-sssp: neighbors (%llu) must be below vertices (%llu)", (unsigned long long)*deg,
                       (unsigned long long)*nv);
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t nv, deg;
    if (sizes(a, &nv, &deg, &e)) return 0;
    return nv * (4 + 4 + 4) + 8 * nv * deg;   /* VA, DIST, UPD; EA, WA (FIN is device memory) */
}

#define D(s, k) ((s)->b[k].d)
#define I(s, k) WL_I((s)->b[k])
#define F(s, k) WL_F((s)->b[k])
#define U8(s, k) ((uint8_t *)(s)->b[k].h)

/* a device-memory (cudaMalloc) copy, made in a managed run too */
static void dev_copy_d2h(gms_program *p, uint64_t addr, uint64_t bytes)
{
    int u = p->uvm;
    p->uvm = 0;
    gms_prog_copy_d2h(p, addr, bytes);
    p->uvm = u;
}

/* the host's rounds, as the program runs them: batches of ASYNC rounds while a vertex is
 * flagged and fewer than MAX_ITER rounds ran */
static void reference(umsssp *s)
{
    uint64_t n = s->nv;
    float *d = s->ref, *u = gms_xmalloc(4 * n);
    uint8_t *f = gms_xcalloc(n, 1);
    for (uint64_t i = 0; i < n; i++) d[i] = u[i] = FLT_MAX;
    d[0] = u[0] = 0.f;
    f[0] = 1;
    int it = 0, any = 1;
    while (any && it < MAX_ITER) {
        for (int k = 0; k < ASYNC; k++, it++) {
            for (uint64_t v = 0; v < n; v++) {
                if (!f[v]) continue;
                f[v] = 0;
                for (uint64_t e = v * s->deg; e < (v + 1) * s->deg; e++) {
                    float c = d[v] + F(s, WA)[e];
                    int32_t t = I(s, EA)[e];
                    if (c < u[t]) u[t] = c;
                }
            }
            for (uint64_t v = 0; v < n; v++) {
                if (d[v] > u[v]) { d[v] = u[v]; f[v] = 1; }
                u[v] = d[v];
            }
        }
        any = 0;
        for (uint64_t v = 0; v < n && !any; v++) any = f[v];
    }
    free(u);
    free(f);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t nv, deg, rep;
    if (sizes(a, &nv, &deg, err) || wl_param(a, "repeat", 1, 1000000, &rep, err)) return -1;
    umsssp *s = gms_xcalloc(1, sizeof *s);
    s->nv = nv;
    s->deg = deg;
    s->ne = nv * deg;
    s->repeat = rep;
    wl_buf_new(&s->b[VA], 4 * nv);
    wl_buf_new(&s->b[EA], 4 * s->ne);
    wl_buf_new(&s->b[WA], 4 * s->ne);
    wl_buf_new(&s->b[DIST], 4 * nv);
    wl_buf_new(&s->b[FIN], nv);
    wl_buf_new(&s->b[UPD], 4 * nv);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    int32_t *va = I(s, VA), *ea = I(s, EA);
    float *wa = F(s, WA);
    for (uint64_t k = 0; k < nv; k++) {
        va[k] = (int32_t)(k * deg);
        for (uint64_t l = 0; l < deg; l++) {
            int32_t t;
            int ok;
            do {   /* generateRandomGraph: a target other than k and the ones drawn before */
                t = (int32_t)gms_rng_below(&r, nv);
                ok = (uint64_t)t != k;
                for (uint64_t q = 0; q < l && ok; q++) ok = ea[k * deg + q] != t;
            } while (!ok);
            ea[k * deg + l] = t;
            wa[k * deg + l] = (float)gms_rng_below(&r, 1000) / 1000.0f;
        }
    }
    s->ref = gms_xmalloc(4 * nv);
    reference(s);
    *out = s;
    return 0;
}

static int k_init(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    umsssp *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    uint64_t a[32];
    wl_warp *x = &W[0];
    uint8_t ri, c;
    uint64_t t0 = b * TPB;
    uint32_t m = wl_guard_1d(x, t0, s->nv, &ri, &c);
    WL_TLANES(x, m, l, t) {
        uint64_t v = t0 + (uint64_t)l;
        U8(s, FIN)[v] = v == 0;
        F(s, DIST)[v] = F(s, UPD)[v] = v == 0 ? 0.f : FLT_MAX;
        a[l] = D(s, FIN) + v;
    }
    uint8_t q = wl_int_at(x, 0x28, m, ri, GMS_REG_NONE);
    wl_stg_at(x, 0x30, m, 1, a, ri, q);
    WL_SH_ST(x, m, uint8_t, U8(s, FIN)[t0 + (uint64_t)l]);
    WL_TLANES(x, m, l, t) a[l] = D(s, DIST) + 4 * (t0 + (uint64_t)l);
    wl_stg_at(x, 0x38, m, 4, a, ri, q);
    WL_SH_ST(x, m, float, F(s, DIST)[t0 + (uint64_t)l]);
    WL_TLANES(x, m, l, t) a[l] = D(s, UPD) + 4 * (t0 + (uint64_t)l);
    wl_stg_at(x, 0x40, m, 4, a, ri, q);
    WL_SH_ST(x, m, float, F(s, UPD)[t0 + (uint64_t)l]);
    wl_exit_at(x, WL_PC_END, x->live);
    (void)nw;
    (void)err;
    return 0;
}

static int k_relax(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    umsssp *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    uint8_t *fin = U8(s, FIN);
    int32_t *va = I(s, VA), *ea = I(s, EA);
    float *wa = F(s, WA), *dist = F(s, DIST), *upd = F(s, UPD);
    uint64_t a[32], a2[32];
    wl_warp *x = &W[0];
    uint8_t ri, c;
    uint64_t t0 = b * TPB;
    uint32_t min = wl_guard_1d(x, t0, s->nv, &ri, &c), act = 0, mn = 0;
    WL_TLANES(x, min, l, t) a[l] = D(s, FIN) + t0 + (uint64_t)l;
    uint8_t rf = wl_ldg_at(x, 0x28, min, 1, a, ri);
    WL_SH_LD(x, min, uint8_t, fin[t0 + (uint64_t)l]);
    WL_TLANES(x, min, l, t) if (fin[t0 + (uint64_t)l]) act |= 1u << l;
    uint8_t p = wl_int_at(x, 0x30, min, rf, GMS_REG_NONE);
    wl_bra_at(x, 0x38, min, p);
    if (act) {
        wl_stg_at(x, 0x40, act, 1, a, ri, GMS_REG_NONE);
        WL_SH_ST(x, act, uint8_t, 0);
        int32_t beg[32] = {0}, end[32] = {0}, maxd = 0;
        WL_TLANES(x, act, l, t) {
            uint64_t v = t0 + (uint64_t)l;
            fin[v] = 0;
            beg[l] = va[v];
            end[l] = v + 1 < s->nv ? va[v + 1] : (int32_t)s->ne;
            if (end[l] - beg[l] > maxd) maxd = end[l] - beg[l];
            a[l] = D(s, VA) + 4 * v;
            if (v + 1 < s->nv) { mn |= 1u << l; a2[l] = a[l] + 4; }
        }
        uint8_t rb = wl_ldg_at(x, 0x48, act, 4, a, ri);
        WL_SH_LD(x, act, int32_t, beg[l]);
        uint8_t p2 = wl_int_at(x, 0x50, act, ri, GMS_REG_NONE);
        uint8_t re = wl_ldg_at(x, 0x58, mn, 4, a2, p2);
        WL_SH_LD(x, mn, int32_t, end[l]);
        uint8_t ci = wl_int_at(x, 0x60, act, rb, re);
        wl_bra_at(x, 0x68, act, ci);
        /* shortestDistances[tid], loaded once (__restrict__) */
        WL_TLANES(x, act, l, t) a[l] = D(s, DIST) + 4 * (t0 + (uint64_t)l);
        uint8_t rd = wl_ldg_at(x, 0x70, act, 4, a, ri);
        WL_SH_LD(x, act, float, dist[t0 + (uint64_t)l]);
        for (int32_t it = 0; it < maxd; it++) {
            uint32_t m = 0;
            int32_t nid[32];
            float val[32], old[32];
            WL_TLANES(x, act, l, t) if (beg[l] + it < end[l]) {
                m |= 1u << l;
                nid[l] = ea[beg[l] + it];
                a[l] = D(s, EA) + 4 * (uint64_t)(beg[l] + it);
                a2[l] = D(s, WA) + 4 * (uint64_t)(beg[l] + it);
            }
            uint8_t rn = wl_ldg_at(x, 0x78, m, 4, a, rb);
            WL_SH_LD(x, m, int32_t, nid[l]);
            uint8_t rw = wl_ldg_at(x, 0x80, m, 4, a2, rb);
            WL_SH_LD(x, m, float, wa[beg[l] + it]);
            uint8_t sum = wl_fp_at(x, 0x88, m, rd, rw, GMS_REG_NONE);
            WL_TLANES(x, m, l, t) {
                val[l] = dist[t0 + (uint64_t)l] + wa[beg[l] + it];
                old[l] = upd[nid[l]];
                a[l] = D(s, UPD) + 4 * (uint64_t)nid[l];
            }
            uint8_t ro = wl_ldg_at(x, 0x90, m, 4, a, rn);
            WL_SH_LD(x, m, float, old[l]);
            WL_TLANES(x, m, l, t) if (val[l] < upd[nid[l]]) upd[nid[l]] = val[l];
            uint8_t rc = wl_atomg_at(x, 0x98, m, 4, a, rn, sum);
            /* the shadow does not model atomics: it takes the value they leave (the minimum
             * over the warp's lanes on one target), as stored by each lane */
            WL_SH_ST(x, m, float, upd[nid[l]]);
            uint8_t q = wl_int_at(x, 0xa0, m, rc, ro);
            wl_bra_at(x, 0xa8, m, q);
        }
    }
    wl_exit_at(x, WL_PC_END, x->live);
    (void)nw;
    (void)err;
    return 0;
}

static int k_settle(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    umsssp *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    uint8_t *fin = U8(s, FIN);
    float *dist = F(s, DIST), *upd = F(s, UPD);
    uint64_t a[32], a2[32];
    wl_warp *x = &W[0];
    uint8_t ri, c;
    uint64_t t0 = b * TPB;
    uint32_t min = wl_guard_1d(x, t0, s->nv, &ri, &c), ch = 0;
    WL_TLANES(x, min, l, t) {
        a[l] = D(s, DIST) + 4 * (t0 + (uint64_t)l);
        a2[l] = D(s, UPD) + 4 * (t0 + (uint64_t)l);
    }
    uint8_t rd = wl_ldg_at(x, 0x28, min, 4, a, ri);
    WL_SH_LD(x, min, float, dist[t0 + (uint64_t)l]);
    uint8_t ru = wl_ldg_at(x, 0x30, min, 4, a2, ri);
    WL_SH_LD(x, min, float, upd[t0 + (uint64_t)l]);
    WL_TLANES(x, min, l, t) if (dist[t0 + (uint64_t)l] > upd[t0 + (uint64_t)l]) ch |= 1u << l;
    uint8_t p = wl_fp_at(x, 0x38, min, rd, ru, GMS_REG_NONE);
    wl_bra_at(x, 0x40, min, p);
    if (ch) {
        WL_TLANES(x, ch, l, t) {
            uint64_t v = t0 + (uint64_t)l;
            dist[v] = upd[v];
            fin[v] = 1;
        }
        wl_stg_at(x, 0x48, ch, 4, a, ri, ru);
        WL_SH_ST(x, ch, float, dist[t0 + (uint64_t)l]);
        uint64_t af[32];
        WL_TLANES(x, ch, l, t) af[l] = D(s, FIN) + t0 + (uint64_t)l;
        wl_stg_at(x, 0x50, ch, 1, af, ri, GMS_REG_NONE);
        WL_SH_ST(x, ch, uint8_t, 1);
    }
    /* updatingShortestDistances[tid] = shortestDistances[tid], every thread */
    WL_TLANES(x, min, l, t) upd[t0 + (uint64_t)l] = dist[t0 + (uint64_t)l];
    uint8_t rd2 = wl_ldg_at(x, 0x58, min, 4, a, ri);
    WL_SH_LD(x, min, float, dist[t0 + (uint64_t)l]);
    wl_stg_at(x, 0x60, min, 4, a2, ri, rd2);
    WL_SH_ST(x, min, float, upd[t0 + (uint64_t)l]);
    wl_exit_at(x, WL_PC_END, x->live);
    (void)nw;
    (void)err;
    return 0;
}

static void check(umsssp *s, const gms_program *p)
{
    void *own;
    const float *d = wl_result(p->shadow, D(s, DIST), F(s, DIST), s->nv, 4, &own);
    for (uint64_t i = 0; i < s->nv && !s->bad[0]; i++)
        if (d[i] != s->ref[i])
            snprintf(s->bad, sizeof s->bad, "um-sssp: repetition %llu: distance[%llu] = %g, expected %g",
                     (unsigned long long)s->rep + 1, (unsigned long long)i, (double)d[i], (double)s->ref[i]);
    free(own);
}

static int any_flagged(const umsssp *s)
{
    for (uint64_t i = 0; i < s->nv; i++)
        if (U8(s, FIN)[i]) return 1;
    return 0;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    umsssp *s = st;
    wl_kernel k = {.st = s, .grid = {(uint32_t)((s->nv + TPB - 1) / TPB), 1, 1}, .block = {TPB, 1, 1}};
    if (s->phase == 3) return 0;
    if (s->phase == 0) {
        for (int i = VA; i <= WA; i++) wl_buf_alloc(p, &s->b[i], bufname[i], 1);
        wl_buf_alloc(p, &s->b[DIST], bufname[DIST], 0);
        s->b[FIN].d = gms_prog_alloc_kind(p, s->nv, 0, bufname[FIN]);
        wl_buf_alloc(p, &s->b[UPD], bufname[UPD], 0);
        s->phase = 1;
    }
    if (s->phase == 1) {
        /* initializeArrays, then the host reads the flags */
        k.fill = k_init;
        wl_launch_k(p, "initializeArrays", &k, 8, 0);
        dev_copy_d2h(p, D(s, FIN), s->nv);
        s->iter = 0;
        s->phase = 2;
        return 1;
    }
    if (any_flagged(s) && s->iter < MAX_ITER) {
        for (int a = 0; a < ASYNC; a++, s->iter++) {
            k.fill = k_relax;
            wl_launch_k(p, "Kernel1", &k, 24, 0);
            k.fill = k_settle;
            wl_launch_k(p, "Kernel2", &k, 12, 0);
        }
        dev_copy_d2h(p, D(s, FIN), s->nv);
        return 1;
    }
    /* cudaDeviceSynchronize; the host prints the distances */
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, D(s, DIST), 4 * s->nv);
    check(s, p);
    s->phase = ++s->rep == s->repeat ? 3 : 1;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    umsssp *s = st;
    if (s->bad[0]) return gms_err(err, "%s", s->bad);
    return 0;
}

static void destroy(void *st)
{
    umsssp *s = st;
    if (!s) return;
    for (int i = 0; i < NBUF; i++) wl_buf_free(&s->b[i]);
    free(s->ref);
    free(s);
}

const gms_workload_ops gms_wl_um_sssp = {
    .name = "um-sssp", .suite = "uvmsmart", .domain = "graph traversal", .ri = "I",
    .summary = "UVMSmart Managed sssp: 15 Bellman-Ford rounds from vertex 0 of a 2^20-vertex graph, 2 out-edges each",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy, .footprint = footprint,
};
