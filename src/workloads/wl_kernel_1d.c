#include "workloads/wl_kernel_1d.h"

int wl_fill_1d(const wl_kernel *k, uint64_t block, gms_block_trace *bt, uint64_t n, wl_body_1d_fn body)
{
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t i[32];
        uint8_t ri;
        uint32_t m = wl_prologue_1d(&w, n, i, &ri);
        if (!m) continue;
        wl_exit(&w, body(k, &w, m, i, ri));
    }
    return 0;
}

wl_xy_regs wl_ldg_xy(wl_warp *w, uint32_t m, const uint64_t i[32], uint8_t ri, uint64_t dx, const float *hx,
                     uint64_t dy, const float *hy)
{
    wl_xy_regs r;
    r.r4 = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV 0x4 */
    r.px = wl_int(w, m, ri, r.r4);                     /* IMAD.WIDE x+i */
    r.py = wl_int(w, m, ri, r.r4);                     /* IMAD.WIDE y+i */
    r.vx = wl_ldg_idx(w, m, dx, i, r.px);
    WL_SH_LD(w, m, float, hx[i[l]]);
    r.vy = wl_ldg_idx(w, m, dy, i, r.py);
    WL_SH_LD(w, m, float, hy[i[l]]);
    return r;
}

uint32_t wl_grid_stride_next(wl_warp *w, uint32_t m, uint64_t i[32], uint8_t *ri, uint8_t rs, uint64_t n)
{
    uint64_t stride = (uint64_t)w->gdim.x * w->bdim.x;
    *ri = wl_int(w, m, *ri, rs);          /* i += stride */
    wl_pred(w, m, *ri, GMS_REG_NONE);     /* ISETP.GE */
    uint32_t again = 0;
    WL_LANES(m, l) if ((i[l] += stride) < n) again |= 1u << l;
    wl_bra(w, m);                         /* @!P0 BRA loop */
    return again;
}
