/* um-pathfinder: UVMSmart's benchmarks/Managed/pathfinder (Rodinia dynproc with managed
 * gpuResult[0], gpuResult[1], gpuWall filled on the host): the built-in pathfinder's kernel and
 * launches at UVMSmart's input (`pathfinder 1000 1000 100`: 1000 columns, 1000 rows, pyramid
 * height 100), with its cudaMemPrefetchAsync of gpuResult[0] and gpuWall before the first
 * launch, then cudaDeviceSynchronize. The wall values are the built-in's (rand() % 10 there). */
#include "workloads/um_alias.h"

static const gms_wl_param params[] = {
    {"cols", "1000", "row length (UVMSmart's row_len)"},
    {"rows", "1000", "number of rows (UVMSmart's col_len)"},
    {"pyramid", "100", "pyramid height: rows per kernel launch (UVMSmart's 100)"},
    {"prefetch_wall", "1", "1: the benchmark's cudaMemPrefetchAsync of gpuResult[0] and gpuWall (managed memory only)"},
    {"scale", "1", "multiplies cols"},
    {"repeat", "1", "run the whole search N times from the same input"},
    {NULL, NULL, NULL},
};

extern const gms_workload_ops gms_wl_pathfinder;

typedef struct umpf { void *base; int prefetch; } umpf;

static int create(const gms_wl_args *a, void **st, gms_error *e)
{
    if (gms_wl_check_range(a, "prefetch_wall", 0, 1, e)) return -1;
    umpf *s = gms_xcalloc(1, sizeof *s);
    s->prefetch = (int)gms_wl_u64(a, "prefetch_wall");
    if (gms_wl_pathfinder.create(a, &s->base, e)) { free(s); return -1; }
    *st = s;
    return 0;
}

static int next(void *st, gms_program *p, gms_error *e)
{
    umpf *s = st;
    size_t n0 = p->n;
    int r = gms_wl_pathfinder.next(s->base, p, e);
    static const char *const names[] = { "gpuResult0", "gpuWall" };
    if (r == 1 && s->prefetch) um_prefetch_before_launch(p, n0, names, 2);
    return r;
}

static int verify(void *st, gms_error *e) { return gms_wl_pathfinder.verify(((umpf *)st)->base, e); }

static void destroy(void *st)
{
    umpf *s = st;
    if (!s) return;
    gms_wl_pathfinder.destroy(s->base);
    free(s);
}

static uint64_t footprint(const gms_wl_args *a) { return gms_wl_pathfinder.footprint(a); }

const gms_workload_ops gms_wl_um_pathfinder = {
    .name = "um-pathfinder", .suite = "uvmsmart", .domain = "grid traversal", .ri = "R",
    .summary = "UVMSmart Managed pathfinder: 1000x1000 grid, pyramid 100, wall and first row prefetched",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy, .footprint = footprint,
};
