#include "workloads/wl_pyramid.h"

/* the lanes of warp x whose thread computed a cell */
static uint32_t computed_lanes(const wl_warp *x, const int *computed)
{
    uint32_t m = 0;
    WL_TLANES(x, x->live, l, t) if (computed[t]) m |= 1u << l;
    return m;
}

void wl_pyramid_copy(wl_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from, uint64_t to)
{
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint32_t m = computed_lanes(x, computed);
        uint64_t af[32], at[32];
        WL_TLANES(x, m, l, t) {
            af[l] = from + 4 * (uint64_t)t;
            at[l] = to + 4 * (uint64_t)t;
        }
        wl_bra_at(x, pc, x->live, GMS_REG_NONE);
        uint8_t v = wl_lds_at(x, pc + 0x8, m, 4, af, GMS_REG_NONE);
        wl_sts_at(x, pc + 0x10, m, 4, at, GMS_REG_NONE, v);
    }
    wl_bar_all(W, nw, pc + 0x18);
}

void wl_pyramid_store(wl_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from,
                      const uint64_t *gaddr, const uint8_t *ri, const uint32_t *vals)
{
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint32_t m = computed_lanes(x, computed);
        uint64_t af[32], ag[32];
        WL_TLANES(x, m, l, t) {
            af[l] = from + 4 * (uint64_t)t;
            ag[l] = gaddr[t];
        }
        wl_bra_at(x, pc, x->live, GMS_REG_NONE);
        uint8_t v = wl_lds_at(x, pc + 0x8, m, 4, af, GMS_REG_NONE);
        wl_stg_at(x, pc + 0x10, m, 4, ag, ri[w], v);
        if (vals) WL_SH_ST(x, m, uint32_t, vals[x->t0 + (uint32_t)l]);
        wl_exit_at(x, WL_PC_END, x->live);
    }
}

int wl_pyramid_launches(gms_program *p, wl_kernel *k, const char *name, uint64_t steps, uint64_t pyramid,
                        uint32_t regs, uint32_t shmem, int sync_each)
{
    int src = 1, dst = 0;
    for (uint64_t t = 0; t < steps; t += pyramid) {
        int tmp = src;
        src = dst;
        dst = tmp;
        k->arg[0] = (int64_t)(pyramid < steps - t ? pyramid : steps - t);
        k->arg[1] = src;
        k->arg[2] = dst;
        k->arg[3] = (int64_t)t;
        wl_launch_k(p, name, k, regs, shmem);
        if (sync_each) gms_prog_sync(p);
    }
    return dst;
}
