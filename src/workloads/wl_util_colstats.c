#include "workloads/wl_util_colstats.h"
#include <math.h>

int pb_fill_col_mean(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int di = (int)k->arg[0], mi = (int)k->arg[1];
    int64_t m = k->arg[2], n = k->arg[3];
    const float *data = s->h[di];
    float *mean = s->h[mi];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t j[32];
        uint8_t r[2];
        uint32_t mk = wl_guard_span(&w, 1, 1, m + 1, 2, j, r);
        if (!mk) continue;
        uint64_t ma[32], da[32];
        float acc[32];
        WL_FADDR(ma, mk, s->d[mi], j[l]);
        uint8_t four = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pm = wl_int(&w, mk, r[0], four);
        uint8_t rm = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);    /* MOV RZ */
        wl_stg(&w, mk, ma, pm, rm);
        WL_LANES(mk, l) acc[l] = 0.0f;
        WL_SH_ST(&w, mk, float, 0.0f);
        wl_loop L;
        wl_loop_begin(&L, &w, mk, (uint64_t)n, 4, 1, r[0]);
        for (int64_t i = 1; i <= n; i++) {
            wl_loop_top(&L, &w);
            WL_FADDR(da, mk, s->d[di], i * (m + 1) + j[l]);
            uint8_t v = wl_ldg(&w, mk, da, L.ptr[0]);
            WL_SH_LD(&w, mk, float, data[i * (m + 1) + j[l]]);
            rm = wl_fp(&w, mk, rm, v, GMS_REG_NONE);                  /* FADD */
            wl_stg(&w, mk, ma, pm, rm);
            WL_LANES(mk, l) acc[l] += data[i * (m + 1) + j[l]];
            WL_SH_ST(&w, mk, float, acc[l]);
            wl_loop_end(&L, &w, mk, i < n ? mk : 0);
        }
        rm = wl_fdiv(&w, mk, rm, GMS_REG_NONE);
        wl_stg(&w, mk, ma, pm, rm);
        WL_LANES(mk, l) mean[j[l]] = acc[l] / PB_COLSTATS_FLOAT_N;
        WL_SH_ST(&w, mk, float, mean[j[l]]);
        wl_exit(&w, mk);
    }
    return 0;
}

int pb_fill_col_center(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int di = (int)k->arg[0], mi = (int)k->arg[1], si = (int)k->arg[2];
    int64_t m = k->arg[3], n = k->arg[4];
    float *data = s->h[di];
    const float *mean = s->h[mi], *sd = si >= 0 ? s->h[si] : NULL;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32], j[32];
        uint32_t in = 0;
        WL_LANES(w.live, l) {
            j[l] = wl_gx(&w, l) + 1;
            i[l] = wl_gy(&w, l) + 1;
            if (i[l] >= 1 && i[l] < n + 1 && j[l] >= 1 && j[l] < m + 1) in |= 1u << l;
        }
        uint8_t r[2];
        uint32_t mk = wl_guard(&w, 2, 4, in, r);
        if (!mk) continue;
        uint64_t da[32], ma[32], sa[32];
        WL_FADDR(da, mk, s->d[di], i[l] * (m + 1) + j[l]);
        WL_FADDR(ma, mk, s->d[mi], j[l]);
        uint8_t idx = wl_int(&w, mk, r[1], r[0]);
        uint8_t four = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pd = wl_int(&w, mk, idx, four);
        uint8_t pm = wl_int(&w, mk, r[0], four);
        uint8_t v = wl_ldg(&w, mk, da, pd);
        WL_SH_LD(&w, mk, float, data[i[l] * (m + 1) + j[l]]);
        uint8_t mv = wl_ldg(&w, mk, ma, pm);
        WL_SH_LD(&w, mk, float, mean[j[l]]);
        v = wl_fp(&w, mk, v, mv, GMS_REG_NONE);                        /* FADD */
        wl_stg(&w, mk, da, pd, v);
        WL_SH_ST(&w, mk, float, data[i[l] * (m + 1) + j[l]] - mean[j[l]]);
        if (sd) {
            WL_FADDR(sa, mk, s->d[si], j[l]);
            uint8_t ps = wl_int(&w, mk, r[0], four);
            uint8_t sv = wl_ldg(&w, mk, sa, ps);
            WL_SH_LD(&w, mk, float, sd[j[l]]);
            sv = wl_fp(&w, mk, sv, GMS_REG_NONE, GMS_REG_NONE);        /* FMUL sqrt(float_n)*std */
            v = wl_fdiv(&w, mk, v, sv);
            wl_stg(&w, mk, da, pd, v);
            WL_SH_ST(&w, mk, float,
                     (data[i[l] * (m + 1) + j[l]] - mean[j[l]]) / (sqrtf(PB_COLSTATS_FLOAT_N) * sd[j[l]]));
        }
        WL_LANES(mk, l) {
            float x = data[i[l] * (m + 1) + j[l]] - mean[j[l]];
            if (sd) x = x / (sqrtf(PB_COLSTATS_FLOAT_N) * sd[j[l]]);
            data[i[l] * (m + 1) + j[l]] = x;
        }
        wl_exit(&w, mk);
    }
    return 0;
}

/* pb_step_col_sym's warp: what lives across a yield (each thread loops ~M columns x N rows) */
typedef struct col_sym_warp {
    wl_wgen ws;
    int64_t j1[32], jmin, t, i;
    uint32_t mk, act, otop;
    uint8_t four, ps, rj, rs;
    uint64_t sa[32];
    float acc[32];
    wl_loop L;
} col_sym_warp;

size_t pb_col_sym_wsize(void) { return sizeof(col_sym_warp); }

int pb_step_col_sym(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    col_sym_warp *g = (col_sym_warp *)ws;
    wl_warp *w = &ws->w;
    pb_state *s = k->st;
    int di = (int)k->arg[0], yi = (int)k->arg[1];
    int64_t m = k->arg[2], n = k->arg[3], off = k->arg[4];
    const float *data = s->h[di];
    float *sym = s->h[yi];
    const int64_t *j1 = g->j1;
    WL_GEN_BEGIN(&ws->g)
    uint8_t r[2];
    g->mk = wl_guard_span(w, 1, 1, m + 1 - off, 2, g->j1, r);
    if (!g->mk) return 0;
    uint32_t mk = g->mk;
    g->four = wl_int(w, mk, GMS_REG_NONE, GMS_REG_NONE);
    g->ps = wl_int(w, mk, r[0], g->four);
    if (off) {
        WL_FADDR(g->sa, mk, s->d[yi], j1[l] * (m + 1) + j1[l]);
        uint8_t one = wl_int(w, mk, GMS_REG_NONE, GMS_REG_NONE);
        wl_stg(w, mk, g->sa, g->ps, one);                               /* symmat[j1][j1] = 1 */
        WL_LANES(mk, l) sym[j1[l] * (m + 1) + j1[l]] = 1.0f;
        WL_SH_ST(w, mk, float, 1.0f);
    }
    g->jmin = INT64_MAX;
    WL_LANES(mk, l) if (j1[l] < g->jmin) g->jmin = j1[l];
    g->rj = wl_int(w, mk, r[0], GMS_REG_NONE);                          /* j2 = j1 (+1): MOV / IADD3 */
    g->otop = w->pc;
    for (g->t = 0; g->jmin + off + g->t <= m; g->t++) {
        int64_t t = g->t;
        g->act = 0;
        WL_LANES(g->mk, l) if (j1[l] + off + t <= m) g->act |= 1u << l;
        w->pc = g->otop;
        WL_FADDR(g->sa, g->act, s->d[yi], j1[l] * (m + 1) + j1[l] + off + t);
        g->rs = wl_int(w, g->act, GMS_REG_NONE, GMS_REG_NONE);
        wl_stg(w, g->act, g->sa, g->ps, g->rs);                         /* symmat[j1][j2] = 0 */
        WL_LANES(g->act, l) g->acc[l] = 0.0f;
        WL_SH_ST(w, g->act, float, 0.0f);
        wl_loop_begin(&g->L, w, g->act, (uint64_t)n, 4, 2, g->rj);
        for (g->i = 1; g->i <= n; g->i++) {
            int64_t i = g->i, tt = g->t;
            uint32_t act = g->act;
            uint64_t a1[32], a2[32];
            wl_loop_top(&g->L, w);
            WL_FADDR(a1, act, s->d[di], i * (m + 1) + j1[l]);
            WL_FADDR(a2, act, s->d[di], i * (m + 1) + j1[l] + off + tt);
            uint8_t v1 = wl_ldg(w, act, a1, g->L.ptr[0]);
            WL_SH_LD(w, act, float, data[i * (m + 1) + j1[l]]);
            uint8_t v2 = wl_ldg(w, act, a2, g->L.ptr[1]);
            WL_SH_LD(w, act, float, data[i * (m + 1) + j1[l] + off + tt]);
            g->rs = wl_fp(w, act, v1, v2, g->rs);                       /* FFMA */
            wl_stg(w, act, g->sa, g->ps, g->rs);
            WL_LANES(act, l)
                g->acc[l] = fmaf(data[i * (m + 1) + j1[l]], data[i * (m + 1) + j1[l] + off + tt], g->acc[l]);
            WL_SH_ST(w, act, float, g->acc[l]);
            wl_loop_end(&g->L, w, act, i < n ? act : 0);
            WL_GEN_YIELD(&ws->g);
        }
        uint32_t act = g->act;
        int64_t t2 = g->t;
        uint64_t a1[32];
        WL_FADDR(a1, act, s->d[yi], (j1[l] + off + t2) * (m + 1) + j1[l]);
        uint8_t pt = wl_int(w, act, g->rj, g->four);                    /* IMAD.WIDE &symmat[j2][j1] */
        wl_stg(w, act, a1, pt, g->rs);
        WL_SH_ST(w, act, float, g->acc[l]);
        WL_LANES(act, l) {
            sym[j1[l] * (m + 1) + j1[l] + off + t2] = g->acc[l];
            sym[(j1[l] + off + t2) * (m + 1) + j1[l]] = g->acc[l];
        }
        uint32_t more = 0;
        WL_LANES(act, l) if (j1[l] + off + t2 + 1 <= m) more |= 1u << l;
        g->rj = wl_int(w, act, g->rj, GMS_REG_NONE);                    /* IADD3 j2++ */
        wl_pred(w, act, g->rj, GMS_REG_NONE);
        wl_bra(w, more);
    }
    wl_exit(w, g->mk);
    WL_GEN_END(&ws->g);
}

void pb_cpu_col_mean(const float *data, float *mean, int64_t m, int64_t n, int64_t jc)
{
    for (int64_t j = 1; j <= m && j <= jc; j++) {
        float mu = 0;
        for (int64_t i = 1; i <= n; i++) mu += data[i * (m + 1) + j];
        mean[j] = mu / PB_COLSTATS_FLOAT_N;
    }
}

void pb_cpu_col_center(float *data, const float *mean, const float *sd, int64_t m, int64_t n, int64_t ir,
                       int64_t jr)
{
    for (int64_t i = 1; i <= n && i <= ir; i++)
        for (int64_t j = 1; j <= m && j <= jr; j++) {
            float x = data[i * (m + 1) + j] - mean[j];
            if (sd) x = x / (sqrtf(PB_COLSTATS_FLOAT_N) * sd[j]);
            data[i * (m + 1) + j] = x;
        }
}

void pb_cpu_col_sym(const float *data, float *sym, int64_t m, int64_t n, int64_t jc, int64_t off)
{
    for (int64_t j1 = 1; j1 + off <= m && j1 <= jc; j1++) {
        if (off) sym[j1 * (m + 1) + j1] = 1.0f;
        for (int64_t j2 = j1 + off; j2 <= m; j2++) {
            float c = 0;
            for (int64_t i = 1; i <= n; i++) c += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
            sym[j1 * (m + 1) + j2] = c;
            sym[j2 * (m + 1) + j1] = c;
        }
    }
}
