/* um-srad_v2: UVMSmart's benchmarks/Managed/srad_v2 at its input (`srad 2048 2048 0 127 0 127
 * 0.5 2`, the built-in srad's defaults): the built-in srad's kernels and host loop (per
 * iteration the host reads J for the ROI statistics, launches srad_cuda_1 and srad_cuda_2,
 * cudaDeviceSynchronize; the built-in, as UVMBench's srad.cu, syncs only after the last
 * iteration, so this one adds the per-iteration sync). UVMSmart's program makes only J managed (cudaMallocManaged J_shared,
 * filled on the host); C, E, W, S, N are cudaMalloc device memory. The built-in with uvm=1
 * makes all six managed, so here every allocation but J is turned into device memory. */
#include "workloads/um_alias.h"

static const gms_wl_param params[] = {
    {"rows", "2048", "image rows (multiple of 16)"},
    {"cols", "2048", "image columns (multiple of 16)"},
    {"y1", "0", "ROI first row"}, {"y2", "127", "ROI last row"},
    {"x1", "0", "ROI first column"}, {"x2", "127", "ROI last column"},
    {"lambda", "0.5", "diffusion rate lambda in (0,1)"},
    {"iter", "2", "number of iterations"},
    {"scale", "1", "multiplies rows and cols"},
    {"repeat", "1", "run the whole diffusion N times from the same input"},
    {NULL, NULL, NULL},
};

extern const gms_workload_ops gms_wl_srad;

static int create(const gms_wl_args *a, void **st, gms_error *e) { return gms_wl_srad.create(a, st, e); }

static int next(void *st, gms_program *p, gms_error *e)
{
    size_t n0 = p->n;
    int r = gms_wl_srad.next(st, p, e);
    if (r != 1) return r;
    for (size_t c = n0; c < p->n; c++) {
        gms_cmd *cmd = &p->q[c];
        if (cmd->kind != GMS_CMD_ALLOC || !strcmp(cmd->name, "J_cuda")) continue;
        cmd->managed = 0;
        for (size_t a = 0; a < p->nallocs; a++)
            if (p->allocs[a].addr == cmd->addr) p->allocs[a].managed = 0;
    }
    /* UVMSmart's loop syncs after every iteration ("Wait for GPU to finish before accessing on
     * host"); UVMBench's srad, the built-in, only after its last */
    if (p->n == p->head || p->q[p->n - 1].kind != GMS_CMD_SYNC) gms_prog_sync(p);
    return r;
}

static int verify(void *st, gms_error *e) { return gms_wl_srad.verify(st, e); }
static void destroy(void *st) { gms_wl_srad.destroy(st); }
/* the managed bytes: J only */
static uint64_t footprint(const gms_wl_args *a) { return gms_wl_srad.footprint(a) / 6; }

const gms_workload_ops gms_wl_um_srad_v2 = {
    .name = "um-srad_v2", .suite = "uvmsmart", .domain = "image processing", .ri = "R",
    .summary = "UVMSmart Managed srad_v2: 2048x2048 image, 2 iterations, only J managed (the srad kernels)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy, .footprint = footprint,
};
