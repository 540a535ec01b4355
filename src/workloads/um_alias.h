/* A UVMSmart benchmarks/Managed workload whose kernels are the same as a built-in one's (the
 * Polybench/GPU files it ships unchanged but for the problem size): the base workload's
 * create/next/verify run with this workload's parameter list, whose defaults are UVMSmart's
 * sizes. UM_ALIAS(sym, name, base, params, end_sync, domain, ri, summary) defines
 * `const gms_workload_ops gms_wl_<sym>`; end_sync 0 drops the base program's final device
 * synchronisation, for a UVMSmart program that never calls cudaDeviceSynchronize (so
 * -uvm_sync_writeback copies nothing back at its end), 1 keeps the base's, 2 adds one when the
 * base program ends without (the UVMSmart program calls it before reading its results), 3
 * keeps exactly one, at the end (the base syncs between its launches, UVMSmart's does not). */
#ifndef GMS_WORKLOADS_UM_ALIAS_H
#define GMS_WORKLOADS_UM_ALIAS_H
#include "workloads/workload.h"
#include "frontend/program.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

/* drop the last command when it is a device synchronisation */
static inline void um_drop_end_sync(gms_program *p)
{
    if (p->n > p->head && p->q[p->n - 1].kind == GMS_CMD_SYNC) p->n--;
}

/* add a device synchronisation at the end when the last command is not one */
static inline void um_ensure_end_sync(gms_program *p)
{
    if (!(p->n > p->head && p->q[p->n - 1].kind == GMS_CMD_SYNC)) gms_prog_sync(p);
}

/* one device synchronisation, at the end, for the commands pushed from n0 on: the base
 * program's syncs between its launches (UVMBench's) go, as the UVMSmart program has none */
static inline void um_only_end_sync(gms_program *p, size_t n0)
{
    size_t w = n0;
    for (size_t c = n0; c < p->n; c++)
        if (p->q[c].kind != GMS_CMD_SYNC) p->q[w++] = p->q[c];
    p->n = w;
    gms_prog_sync(p);
}

/* cudaMemPrefetchAsync of the named managed allocations just before the first launch the
 * program pushed from command n0 on, when it also allocated them there (its first call) */
static inline void um_prefetch_before_launch(gms_program *p, size_t n0, const char *const *names, int nnames)
{
    if (!p->uvm) return;
    size_t k = n0, allocs = 0;
    for (size_t c = n0; c < p->n; c++) allocs += p->q[c].kind == GMS_CMD_ALLOC;
    while (k < p->n && p->q[k].kind != GMS_CMD_LAUNCH) k++;
    if (!allocs || k == p->n) return;
    size_t before = p->n;
    for (int i = 0; i < nnames; i++)
        for (size_t a = 0; a < p->nallocs; a++)
            if (p->allocs[a].managed && !strcmp(p->allocs[a].name, names[i])) gms_prog_prefetch(p, p->allocs[a].addr, p->allocs[a].bytes);
    size_t added = p->n - before;
    if (!added) return;
    /* rotate the appended prefetches to position k */
    gms_cmd *tmp = gms_xmalloc(added * sizeof *tmp);
    memcpy(tmp, p->q + before, added * sizeof *tmp);
    memmove(p->q + k + added, p->q + k, (before - k) * sizeof *tmp);
    memcpy(p->q + k, tmp, added * sizeof *tmp);
    free(tmp);
}

#define UM_ALIAS(sym, wname, BASE, PARAMS, END_SYNC, DOMAIN, RI, SUMMARY)                              \
    extern const gms_workload_ops BASE;                                                                \
    static int sym##_create(const gms_wl_args *a, void **st, gms_error *e) { return BASE.create(a, st, e); } \
    static int sym##_next(void *st, gms_program *p, gms_error *e)                                      \
    {                                                                                                  \
        size_t n0 = p->n;                                                                              \
        int r = BASE.next(st, p, e);                                                                   \
        if (r == 1 && !(END_SYNC)) um_drop_end_sync(p);                                                \
        if (r == 1 && (END_SYNC) == 2) um_ensure_end_sync(p);                                          \
        if (r == 1 && (END_SYNC) == 3) um_only_end_sync(p, n0);                                        \
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
