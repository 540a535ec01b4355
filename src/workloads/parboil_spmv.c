/* spmv (Parboil, src/cuda/main.cu): y = A x for a sparse matrix in JDS format (rows sorted by
 * length, descending, then stored diagonal by diagonal, padded to whole warps), kernel
 * spmv_jds run 50 times. One thread per (sorted) row:
 *   ix = blockIdx.x*blockDim.x + threadIdx.x; warp_id = ix >> 5;
 *   if (ix < dim) { bound = sh_zcnt_int[warp_id];           (constant memory)
 *     j = jds_ptr_int[0] + ix; d = d_data[j]; i = d_index[j]; t = x_vec[i];
 *     if (bound > 1) { j = jds_ptr_int[1] + ix; i = d_index[j];
 *       for (k = 2; k < bound; k++) { dn = d_data[j]; j = jds_ptr_int[k] + ix; in = d_index[j];
 *                                     tn = x_vec[i]; sum += d*t; i = in; d = dn; t = tn; }
 *       dn = d_data[j]; tn = x_vec[i]; sum += d*t; d = dn; t = tn; }
 *     sum += d*t; dst_vector[d_perm[ix]] = sum; }
 * Block 192 threads (compute_active_thread: 1536 / 8 on a large matrix), grid ceil(dim/192).
 * The large dataset is Dubcova3 (146,689 rows, 3,636,643 nonzeros, a 2D FEM matrix): the input
 * file becomes a generator with its size and mean row length: row lengths uniform in
 * [avg/2, 3avg/2] (mean avg to half a nonzero), columns uniform within +-band of the
 * diagonal (a banded FEM-like matrix), values and x uniform in [0, 1). Padding entries are 0
 * with column 0, as the converter's, which sorts the rows by length keeping the file's order
 * among rows of one length. */
#include "workloads/parboil_util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { DATA, INDEX, PERM, X, NZCNT, DST };
enum { ROWS, NNZ, BAND, ITERS, JDSLEN, NWARPS, MESH };
#define BLOCK 192

static const gms_wl_param params[] = {
    { "rows", "146689", "matrix rows = columns (large dataset, Dubcova3: 146689)" },
    { "nnz", "3636643", "nonzeros (their mean per row sets the row lengths; Dubcova3: 3636643)" },
    { "band", "1024", "columns lie within +-band of the diagonal" },
    { "structure", "",
      "band (the default, also when empty): row lengths uniform in [avg/2, 3avg/2], columns uniform within "
      "+-band; mesh: a 2D mesh, row r a node of a ceil(sqrt(rows))-wide grid, its nonzeros the nodes of the "
      "(2R+1)^2 square around it, 2R+1 the odd number nearest sqrt(nnz/rows) (fewer at the grid's edges and "
      "beyond +-band)" },
    { "iters", "50", "kernel launches (main.cu runs spmv_jds 50 times)" },
    { "scale", "1", "multiplies rows and nnz" },
    { "repeat", "1", "run the iters launches this many times" },
    { NULL, NULL, NULL },
};

/* structure=mesh: the stencil radius R, 2R+1 the odd number nearest sqrt(mean row length)
 * (R = 0: the diagonal alone). dim[MESH] holds R + 1, 0 meaning structure=band. */
static uint64_t mesh_radius(uint64_t rows, uint64_t nnz)
{
    double side = sqrt((double)nnz / (double)rows);
    return (uint64_t)((side - 1) / 2 + 0.5);
}

/* structure=mesh: the columns of row p in increasing order (at most (2R+1)^2, into col;
 * NULL: only counted): the grid nodes within R of p's node in both directions, within +-band
 * of p. Returns their number. */
static uint32_t mesh_cols(uint64_t rows, uint64_t radius, int64_t band, uint64_t p, uint32_t *col)
{
    int64_t g = (int64_t)ceil(sqrt((double)rows)), y = (int64_t)p / g, x = (int64_t)p % g, R = (int64_t)radius;
    uint32_t n = 0;
    for (int64_t dy = -R; dy <= R; dy++)
        for (int64_t dx = -R; dx <= R; dx++) {
            int64_t yy = y + dy, xx = x + dx, c = yy * g + xx;
            if (yy < 0 || xx < 0 || xx >= g || c >= (int64_t)rows || c < (int64_t)p - band || c > (int64_t)p + band) continue;
            if (col) col[n] = (uint32_t)c;
            n++;
        }
    return n;
}

/* row lengths from their own stream of the seed: len[r] of original row r, and (if sorted is
 * not NULL) the JDS order, longest first, rows of one length in their original order (the
 * converter's stable sort): sorted[jr] = length, perm[jr] = original row.
 * mesh: 0 for structure=band (lengths drawn uniformly), else R + 1 (each row's mesh neighbours) */
static void row_lengths(uint64_t rows, uint64_t nnz, uint64_t seed, uint64_t mesh, int64_t band, uint32_t *sorted,
                        uint32_t *perm)
{
    double avg = (double)nnz / (double)rows;
    uint64_t lo = (uint64_t)(avg / 2 + 0.5), hi;
    if (lo < 1) lo = 1;
    hi = (uint64_t)(2 * avg + 0.5) - lo;   /* mean (lo + hi) / 2 = avg, rounded to halves */
    if (hi < lo) hi = lo;
    if (mesh) {   /* R + 1 */
        lo = 1;
        hi = (2 * mesh - 1) * (2 * mesh - 1);
    }
    gms_rng r;
    gms_rng_seed(&r, seed ^ 0x5350u);
    uint32_t *len = wl_malloc(rows, sizeof *len);
    uint64_t cnt[4096] = { 0 }, start[4096];
    for (uint64_t i = 0; i < rows; i++)
        cnt[len[i] = mesh ? mesh_cols(rows, mesh - 1, band, i, NULL) : (uint32_t)(lo + gms_rng_below(&r, hi - lo + 1))]++;
    uint64_t o = 0;   /* counting sort, longest first, stable */
    for (uint64_t l = hi + 1; l-- > lo;) { start[l] = o; o += cnt[l]; }
    for (uint64_t i = 0; i < rows; i++) {
        uint64_t at = start[len[i]]++;
        sorted[at] = len[i];
        if (perm) perm[at] = (uint32_t)i;
    }
    free(len);
}

/* JDS size: every warp padded to its first (longest) row's length */
static uint64_t jds_len(uint64_t rows, const uint32_t *len)
{
    uint64_t t = 0;
    for (uint64_t w = 0; w * 32 < rows; w++) t += 32ull * len[w * 32];
    return t;
}

static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    if (wl_clamp_scaled(a, "spmv", "rows", 1, 32, 1u << 26, &d[ROWS], err) ||
        wl_clamp_scaled(a, "spmv", "nnz", 1, 32, 1ull << 32, &d[NNZ], err) ||
        gms_wl_check_range(a, "band", 1, 1u << 30, err) || gms_wl_check_range(a, "iters", 1, 100000, err))
        return -1;
    if (d[NNZ] / d[ROWS] > 2000 || d[NNZ] < d[ROWS])
        return gms_err(err, "workload spmv: nnz/rows = %llu must be in [1, 2000] (the mean row length)",
                       (unsigned long long)(d[NNZ] / d[ROWS]));
    d[BAND] = gms_wl_u64(a, "band");
    d[ITERS] = gms_wl_u64(a, "iters");
    const char *st = gms_wl_str(a, "structure");
    if (*st && strcmp(st, "band") && strcmp(st, "mesh"))
        return gms_err(err, "workload spmv: structure=%s must be band or mesh", st);
    d[MESH] = strcmp(st, "mesh") ? 0 : mesh_radius(d[ROWS], d[NNZ]) + 1;
    if (d[MESH] > 32)
        return gms_err(err, "workload spmv: structure=mesh needs a mean row length nnz/rows of at most 3969 (a 63 x 63 stencil)");
    uint32_t *len = wl_malloc(d[ROWS], sizeof *len);
    row_lengths(d[ROWS], d[NNZ], gms_wl_seed(a), d[MESH], (int64_t)d[BAND], len, NULL);
    d[JDSLEN] = jds_len(d[ROWS], len);
    d[NWARPS] = (d[ROWS] + 31) / 32;
    free(len);
    return 0;
}

static uint64_t elems(const uint64_t *d, int k)
{
    return k == DATA || k == INDEX ? d[JDSLEN] : k == PERM || k == X || k == DST ? d[ROWS] : d[NWARPS];
}

/* host-only JDS pointers (the kernel's __constant__ jds_ptr_int, sh_zcnt_int = NZCNT) */
static void jds_ptrs(const pbl_state *s, const uint32_t *zc, uint64_t *ptr, uint64_t depth)
{
    uint64_t nw = s->dim[NWARPS], w = nw, p = 0;
    for (uint64_t k = 0; k < depth; k++) {
        while (w > 0 && zc[w - 1] <= k) w--;   /* warps with more than k entries: a prefix */
        ptr[k] = p;
        p += 32 * w;
    }
}

static void init(const pbl_state *s, void **h)
{
    const uint64_t rows = s->dim[ROWS];
    uint32_t *len = wl_malloc(rows, sizeof *len), *zc = h[NZCNT], *idx = h[INDEX], *perm = h[PERM];
    row_lengths(rows, s->dim[NNZ], s->seed, s->dim[MESH], (int64_t)s->dim[BAND], len, perm);
    float *data = h[DATA], *x = h[X];
    for (uint64_t w = 0; w < s->dim[NWARPS]; w++) zc[w] = len[w * 32];
    uint64_t depth = zc[0];
    uint64_t *ptr = wl_malloc(depth, sizeof *ptr);
    jds_ptrs(s, zc, ptr, depth);
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    int64_t band = (int64_t)s->dim[BAND];
    uint32_t col[63 * 63];
    for (uint64_t jr = 0; jr < rows; jr++) {
        if (s->dim[MESH]) {   /* the row's mesh neighbours in column order */
            mesh_cols(rows, s->dim[MESH] - 1, band, perm[jr], col);
            for (uint64_t k = 0; k < len[jr]; k++) {
                idx[ptr[k] + jr] = col[k];
                data[ptr[k] + jr] = wl_randf(&r);
            }
            continue;
        }
        for (uint64_t k = 0; k < len[jr]; k++) {
            int64_t lo = (int64_t)perm[jr] - band, hi = (int64_t)perm[jr] + band;
            if (lo < 0) lo = 0;
            if (hi > (int64_t)rows - 1) hi = (int64_t)rows - 1;
            idx[ptr[k] + jr] = (uint32_t)(lo + (int64_t)gms_rng_below(&r, (uint64_t)(hi - lo + 1)));
            data[ptr[k] + jr] = wl_randf(&r);
        }
    }
    for (uint64_t i = 0; i < rows; i++) x[i] = wl_randf(&r);
    free(ptr);
    free(len);
}

static int fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const float *data = PBL_F(s, DATA), *x = PBL_F(s, X);
    const uint32_t *idx = PBL_U(s, INDEX), *perm = PBL_U(s, PERM), *zc = PBL_U(s, NZCNT);
    float *dst = PBL_F(s, DST);
    const uint64_t *ptr = (const uint64_t *)(uintptr_t)k->arg[0];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t ix[32], ad[32], j[32];
        uint32_t i[32];
        float d[32], t[32], sum[32];
        uint8_t ri;
        uint32_t m = wl_prologue_1d(&w, s->dim[ROWS], ix, &ri);
        if (!m) continue;
        uint64_t wid = ix[0] >> 5;   /* 192-thread blocks: a warp is one 32-row group */
        uint32_t bound = zc[wid];
        uint8_t rw = wl_int(&w, m, ri, GMS_REG_NONE);                               /* SHF warp_id */
        WL_LANES(m, l) ad[l] = wid * 4;
        uint8_t rb = wl_ld(&w, m, GMS_MEM_LD_CONST, 4, ad, rw);                    /* LDC sh_zcnt_int[] */
        WL_LANES(m, l) ad[l] = 0x4000;
        uint8_t rp = wl_ld(&w, m, GMS_MEM_LD_CONST, 4, ad, GMS_REG_NONE);          /* LDC jds_ptr_int[0] */
        uint8_t rj = wl_int(&w, m, rp, ri);                                         /* IADD j */
        uint8_t pj = wl_int(&w, m, rj, GMS_REG_NONE);                               /* IMAD.WIDE */
        WL_LANES(m, l) { j[l] = ptr[0] + ix[l]; sum[l] = 0.0f; }
        uint8_t rd = wl_ldg_idx(&w, m, s->d[DATA], j, pj);
        WL_SH_LD(&w, m, float, data[j[l]]);
        uint8_t pi = wl_int(&w, m, rj, GMS_REG_NONE);                               /* IMAD.WIDE */
        uint8_t rix = wl_ldg_idx(&w, m, s->d[INDEX], j, pi);
        WL_SH_LD(&w, m, uint32_t, idx[j[l]]);
        WL_LANES(m, l) { d[l] = data[j[l]]; i[l] = idx[j[l]]; ad[l] = pbl_addr(s, X, i[l]); }
        uint8_t px = wl_int(&w, m, rix, GMS_REG_NONE);                              /* IMAD.WIDE */
        uint8_t rt = wl_ldg(&w, m, ad, px);
        WL_SH_LD(&w, m, float, x[i[l]]);
        WL_LANES(m, l) t[l] = x[i[l]];
        wl_pred(&w, m, rb, GMS_REG_NONE);                                           /* ISETP bound > 1 */
        wl_bra(&w, bound > 1 ? 0 : m);                                              /* @!P BRA */
        if (bound > 1) {
            WL_LANES(m, l) ad[l] = 0x4000 + 4;
            rp = wl_ld(&w, m, GMS_MEM_LD_CONST, 4, ad, GMS_REG_NONE);               /* LDC jds_ptr_int[1] */
            rj = wl_int(&w, m, rp, ri);
            pi = wl_int(&w, m, rj, GMS_REG_NONE);
            WL_LANES(m, l) j[l] = ptr[1] + ix[l];
            rix = wl_ldg_idx(&w, m, s->d[INDEX], j, pi);
            WL_SH_LD(&w, m, uint32_t, idx[j[l]]);
            WL_LANES(m, l) i[l] = idx[j[l]];
            uint8_t rsum = GMS_REG_NONE, rk = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV k = 2 */
            uint32_t top = w.pc;
            for (uint32_t kk = 2; kk < bound; kk++) {
                w.pc = top;
                pj = wl_int(&w, m, rj, GMS_REG_NONE);                               /* IMAD.WIDE */
                uint8_t rdn = wl_ldg_idx(&w, m, s->d[DATA], j, pj);                 /* dn = d_data[j] */
                WL_SH_LD(&w, m, float, data[j[l]]);
                float dn[32], tn[32];
                WL_LANES(m, l) dn[l] = data[j[l]];
                WL_LANES(m, l) ad[l] = 0x4000 + 4ull * kk;
                rp = wl_ld(&w, m, GMS_MEM_LD_CONST, 4, ad, rk);                     /* LDC jds_ptr_int[k] */
                rj = wl_int(&w, m, rp, ri);
                pi = wl_int(&w, m, rj, GMS_REG_NONE);
                WL_LANES(m, l) j[l] = ptr[kk] + ix[l];
                uint8_t rin = wl_ldg_idx(&w, m, s->d[INDEX], j, pi);               /* in = d_index[j] */
                WL_SH_LD(&w, m, uint32_t, idx[j[l]]);
                px = wl_int(&w, m, rix, GMS_REG_NONE);
                WL_LANES(m, l) ad[l] = pbl_addr(s, X, i[l]);
                uint8_t rtn = wl_ldg(&w, m, ad, px);                                /* tn = x_vec[i] */
                WL_SH_LD(&w, m, float, x[i[l]]);
                WL_LANES(m, l) {
                    tn[l] = x[i[l]];
                    sum[l] = PBL_MAD(d[l], t[l], sum[l]);
                    i[l] = idx[j[l]];
                    d[l] = dn[l];
                    t[l] = tn[l];
                }
                rsum = wl_fp(&w, m, rd, rt, rsum);                                  /* FFMA sum */
                rd = rdn;
                rt = rtn;
                rix = rin;
                pbl_loop_back(&w, m, kk + 1 < bound ? m : 0, rk);
            }
            pj = wl_int(&w, m, rj, GMS_REG_NONE);
            uint8_t rdn = wl_ldg_idx(&w, m, s->d[DATA], j, pj);
            WL_SH_LD(&w, m, float, data[j[l]]);
            px = wl_int(&w, m, rix, GMS_REG_NONE);
            WL_LANES(m, l) ad[l] = pbl_addr(s, X, i[l]);
            uint8_t rtn = wl_ldg(&w, m, ad, px);
            WL_SH_LD(&w, m, float, x[i[l]]);
            WL_LANES(m, l) {
                sum[l] = PBL_MAD(d[l], t[l], sum[l]);
                d[l] = data[j[l]];
                t[l] = x[i[l]];
            }
            rsum = wl_fp(&w, m, rd, rt, rsum);
            rd = rdn;
            rt = rtn;
        }
        uint8_t rs = wl_fp(&w, m, rd, rt, GMS_REG_NONE);                            /* FFMA last */
        WL_LANES(m, l) sum[l] = PBL_MAD(d[l], t[l], sum[l]);
        uint8_t pp = wl_int(&w, m, ri, GMS_REG_NONE);
        uint8_t rpm = wl_ldg_idx(&w, m, s->d[PERM], ix, pp);                        /* d_perm[ix] */
        WL_SH_LD(&w, m, uint32_t, perm[ix[l]]);
        uint8_t po = wl_int(&w, m, rpm, GMS_REG_NONE);
        WL_LANES(m, l) { ad[l] = pbl_addr(s, DST, perm[ix[l]]); dst[perm[ix[l]]] = sum[l]; }
        wl_stg(&w, m, ad, po, rs);
        WL_SH_ST(&w, m, float, sum[l]);
        wl_exit(&w, m);
    }
    return 0;
}

static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    /* jds_ptr_int (cudaMemcpyToSymbol in main.cu): host-only, computed once */
    const uint32_t *zc = PBL_U(s, NZCNT);
    if (!s->aux) {
        s->aux = wl_malloc(zc[0], sizeof(uint64_t));
        jds_ptrs(s, zc, s->aux, zc[0]);
    }
    uint64_t *ptr = s->aux;
    int64_t args[1] = { (int64_t)(uintptr_t)ptr };
    for (uint64_t it = 0; it < s->dim[ITERS]; it++)
        wl_launch(p, "_Z8spmv_jdsPfPKfPKiS3_S1_S3_i", wl_dim3(wl_cdiv(s->dim[ROWS], BLOCK), 1, 1), wl_dim3(BLOCK, 1, 1), 24,
                  0, fill, s, args, 1);
}

static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    const uint32_t *zc = h[NZCNT], *idx = h[INDEX], *perm = h[PERM];
    const float *data = h[DATA], *x = h[X];
    float *dst = h[DST];
    uint64_t depth = zc[0];
    uint64_t *ptr = wl_malloc(depth, sizeof *ptr);
    jds_ptrs(s, zc, ptr, depth);
    for (uint64_t jr = 0; jr < s->dim[ROWS]; jr++) {
        float sum = 0.0f;
        for (uint64_t k = 0; k < zc[jr / 32]; k++) sum = PBL_MAD(data[ptr[k] + jr], x[idx[ptr[k] + jr]], sum);
        dst[perm[jr]] = sum;
    }
    free(ptr);
}

static const pbl_def def = {
    .name = "spmv",
    .arrs = { { "d_data", 1, 0, 0, PBL_F32 }, { "d_index", 1, 0, 0, PBL_U32 }, { "d_perm", 1, 0, 0, PBL_U32 },
              { "x_vec", 1, 0, 0, PBL_F32 }, { "d_nzcnt", 1, 0, 0, PBL_U32 }, { "dst_vector", 0, 1, 1, PBL_F32 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(spmv, "spmv", def, params, "linear algebra", "I",
             "sparse matrix-vector product in JDS format (spmv_jds x 50), gathers of x through the column indices");
