/* pointer_chase: each thread follows a chain of dependent loads through one seeded random
 * cycle over `nodes` nodes (node j at next + j*spacing bytes, holding the index of its
 * successor), then stores where it ended:
 *   __global__ void pchase(const unsigned* next, unsigned* out, int n, int stride, int steps)
 *   { int i = blockIdx.x*blockDim.x + threadIdx.x; if (i >= n) return;
 *     unsigned p = i * stride;                       // stride = nodes / n
 *     for (int s = 0; s < steps; ++s) p = next[p * (spacing/4)];
 *     out[i] = p; }
 * Per warp: 6-instruction prologue, MOV IMAD MOV, then per step IMAD.WIDE LDG IADD3 ISETP
 * BRA (every load depends on the previous one), then IMAD.WIDE STG EXIT. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>

typedef struct pchase_st {
    uint64_t n, nodes, steps, spacing, repeat;
    uint32_t block;
    uint32_t *next, *out;
    uint64_t dnext, dout;
    wl_shadow *sh;
    int done;
} pchase_st;

static const gms_wl_param pchase_params[] = {
    { "n", "8192", "threads (independent chains)" },
    { "nodes", "4194304", "nodes in the random cycle" },
    { "steps", "64", "dependent loads per thread" },
    { "spacing", "4", "bytes between consecutive nodes (4: packed; 128: one line per node)" },
    { "block", "256", "threads per block" },
    { "repeat", "1", "launch the kernel this many times" },
    { "scale", "1", "multiplies n and nodes (not steps, the chain length) (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int pchase_sizes(const gms_wl_args *a, uint64_t v[4], uint64_t *bytes, gms_error *err)
{
    v[2] = gms_wl_u64(a, "steps");
    v[3] = gms_wl_u64(a, "spacing");
    if (wl_clamp_size(a, "pointer_chase", "n", 1, 1ULL << 32, &v[0], err)) return -1;
    if (wl_clamp_size(a, "pointer_chase", "nodes", 1, 0xffffffffULL, &v[1], err)) return -1;
    if (wl_need_size("pointer_chase", a, "steps", v[2], 1ULL << 20, err)) return -1;
    if (v[3] < 4 || v[3] % 4 || v[3] > 65536)
        return gms_err(err, "workload pointer_chase: parameter spacing=%llu must be a multiple of 4 in [4, 65536]",
                       (unsigned long long)v[3]);
    if (v[0] > v[1])
        return gms_err(err, "workload pointer_chase: n=%llu must not exceed nodes=%llu", (unsigned long long)v[0],
                       (unsigned long long)v[1]);
    return wl_bytes("pointer_chase", "node array", v[1], v[3], 1, 1, WL_MAX_ARRAY_BYTES, bytes, err);
}

static int pchase_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t v[4], bytes;
    if (pchase_sizes(a, v, &bytes, err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    pchase_st *s = gms_xcalloc(1, sizeof *s);
    s->n = v[0];
    s->nodes = v[1];
    s->steps = v[2];
    s->spacing = v[3];
    s->block = (uint32_t)gms_wl_u64(a, "block");
    s->repeat = gms_wl_u64(a, "repeat");
    s->next = wl_calloc(s->nodes, sizeof *s->next);
    s->out = wl_calloc(s->n, sizeof *s->out);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    wl_random_cycle(&r, (uint32_t)s->nodes, s->next);
    *state = s;
    return 0;
}

static int pchase_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pchase_st *s = k->st;
    uint64_t stride = s->nodes / s->n;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t i[32], p[32];
        uint8_t ri;
        uint32_t m = wl_prologue_1d(&w, s->n, i, &ri);
        if (!m) continue;
        uint8_t r4 = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV R7, spacing */
        uint8_t rp = wl_int(&w, m, ri, GMS_REG_NONE);             /* IMAD p = i*stride */
        uint8_t rc = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV counter */
        WL_LANES(m, l) p[l] = i[l] * stride;
        uint32_t loop = w.pc;
        for (uint64_t st = 0; st < s->steps; st++) {
            w.pc = loop;
            uint8_t pa = wl_int(&w, m, rp, r4);                   /* IMAD.WIDE next+p*spacing */
            rp = wl_ld_idx(&w, m, GMS_MEM_LD_GLOBAL, 4, s->dnext, p, (uint32_t)s->spacing, pa); /* LDG p = *addr */
            WL_SH_LD(&w, m, uint32_t, s->next[p[l]]);
            WL_LANES(m, l) p[l] = s->next[p[l]];
            rc = wl_int(&w, m, rc, GMS_REG_NONE);                 /* IADD3 counter */
            wl_pred(&w, m, rc, GMS_REG_NONE);                     /* ISETP.NE */
            wl_bra(&w, st + 1 < s->steps ? m : 0);                /* BRA (not taken at the end) */
        }
        uint8_t po = wl_int(&w, m, ri, r4);                       /* IMAD.WIDE out+i */
        WL_LANES(m, l) s->out[i[l]] = (uint32_t)p[l];
        wl_stg_idx(&w, m, s->dout, i, po, rp);
        WL_SH_ST(&w, m, uint32_t, s->out[i[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

static int pchase_next(void *state, gms_program *p, gms_error *err)
{
    pchase_st *s = state;
    if (!wl_once(&s->done)) return 0;
    s->dnext = gms_prog_alloc(p, s->nodes * s->spacing, "next");
    s->dout = gms_prog_alloc(p, s->n * 4, "out");
    gms_prog_copy_h2d(p, s->dnext, s->nodes * s->spacing);
    s->sh = p->shadow;
    if (s->sh)   /* node k's successor at the start of its `spacing`-byte slot */
        for (uint64_t k = 0; k < s->nodes; k++) wl_sh_init(p, s->dnext + k * s->spacing, &s->next[k], 4);
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z6pchasePKjPjiii", wl_dim3(wl_cdiv(s->n, s->block), 1, 1), wl_dim3(s->block, 1, 1), 10, 0,
                  pchase_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->dout, s->n * 4);
    gms_prog_sync(p);
    return 1;
}

static int pchase_verify(void *state, gms_error *err)
{
    pchase_st *s = state;
    uint64_t stride = s->nodes / s->n;
    void *own;
    const uint32_t *out = wl_result(s->sh, s->dout, s->out, s->n, sizeof(uint32_t), &own);
    for (uint64_t i = 0; i < s->n; i++) {
        uint32_t p = (uint32_t)(i * stride);
        for (uint64_t st = 0; st < s->steps; st++) p = s->next[p];
        if (out[i] != p) {
            int rc = gms_err(err, "workload pointer_chase: out[%llu] = %u, CPU reference %u", (unsigned long long)i,
                             out[i], p);
            free(own);
            return rc;
        }
    }
    free(own);
    /* the successor table must be one cycle through every node */
    uint32_t p = 0;
    for (uint64_t c = 1; c <= s->nodes; c++) {
        p = s->next[p];
        if (p == 0 && c != s->nodes)
            return gms_err(err, "workload pointer_chase: the node cycle has length %llu, not %llu",
                           (unsigned long long)c, (unsigned long long)s->nodes);
    }
    return 0;
}

static void pchase_destroy(void *state)
{
    pchase_st *s = state;
    if (!s) return;
    free(s->next);
    free(s->out);
    free(s);
}

static uint64_t pchase_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t v[4], bytes;
    if (pchase_sizes(a, v, &bytes, &e)) return 0;
    return bytes + v[0] * 4;
}

const gms_workload_ops gms_wl_pointer_chase = {
    .name = "pointer_chase",
    .suite = "micro",
    .domain = "microbenchmark",
    .ri = "I",
    .summary = "dependent random loads through one seeded random cycle: exposes raw memory latency",
    .params = pchase_params,
    .create = pchase_create,
    .next = pchase_next,
    .verify = pchase_verify,
    .destroy = pchase_destroy,
    .footprint = pchase_footprint,
};
