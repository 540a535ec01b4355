/* A UVMSmart benchmarks/Managed workload whose kernels are the same as a built-in one's (the
 * Polybench/GPU files it ships unchanged but for the problem size): the base workload's
 * create/next/verify run with this workload's parameter list, whose defaults are UVMSmart's
 * sizes. UM_ALIAS(sym, name, base, params, end_sync, domain, ri, summary) defines
 * `const gms_workload_ops gms_wl_<sym>`; end_sync 0 drops the base program's final device
 * synchronisation, for a UVMSmart program that never calls cudaDeviceSynchronize (so
 * -uvm_sync_writeback copies nothing back at its end). */
#ifndef GMS_WORKLOADS_UM_ALIAS_H
#define GMS_WORKLOADS_UM_ALIAS_H
#include "workloads/workload.h"
#include "frontend/program.h"

/* drop the last command when it is a device synchronisation */
static inline void um_drop_end_sync(gms_program *p)
{
    if (p->n > p->head && p->q[p->n - 1].kind == GMS_CMD_SYNC) p->n--;
}

#define UM_ALIAS(sym, wname, BASE, PARAMS, END_SYNC, DOMAIN, RI, SUMMARY)                              \
    extern const gms_workload_ops BASE;                                                                \
    static int sym##_create(const gms_wl_args *a, void **st, gms_error *e) { return BASE.create(a, st, e); } \
    static int sym##_next(void *st, gms_program *p, gms_error *e)                                      \
    {                                                                                                  \
        int r = BASE.next(st, p, e);                                                                   \
        if (r == 1 && !(END_SYNC)) um_drop_end_sync(p);                                                \
        return r;                                                                                      \
    }                                                                                                  \
    static int sym##_verify(void *st, gms_error *e) { return BASE.verify(st, e); }                     \
    static void sym##_destroy(void *st) { BASE.destroy(st); }                                          \
    static uint64_t sym##_footprint(const gms_wl_args *a) { return BASE.footprint(a); }                \
    const gms_workload_ops gms_wl_##sym = {                                                            \
        .name = wname, .suite = "uvmsmart", .domain = DOMAIN, .ri = RI, .summary = SUMMARY,            \
        .params = PARAMS, .create = sym##_create, .next = sym##_next, .verify = sym##_verify,          \
        .destroy = sym##_destroy, .footprint = sym##_footprint,                                        \
    }

#endif
