/* barnes-hut (LonestarGPU BH, Burtscher & Pingali's CUDA BarnesHut v1.1): state shared by
 * its files. lonestar_bh.c: parameters, input (Plummer model), program, bounding box,
 * initialization and integration kernels, verify; lonestar_bh_tree.c: tree building,
 * summarization, sort; lonestar_bh_force.c: force calculation; lonestar_bh_ref.c: the CPU
 * reference each time step is checked against. docs/workloads-lonestar.md. */
#ifndef GMS_WORKLOADS_LONESTAR_BH_H
#define GMS_WORKLOADS_LONESTAR_BH_H
#include <stdint.h>
#include "workloads/wl_util.h"

/* the source's thread counts and block factors (blocks = factor x SMs) */
#define BH_T1 512   /* BoundingBoxKernel (a power of 2) */
#define BH_T2 288   /* TreeBuildingKernel */
#define BH_T3 256   /* SummarizationKernel */
#define BH_T4 512   /* SortKernel */
#define BH_T5 384   /* ForceCalculationKernel */
#define BH_T6 512   /* IntegrationKernel */
#define BH_F1 1
#define BH_F2 2
#define BH_F3 1
#define BH_F4 1
#define BH_F5 2
#define BH_F6 1
#define BH_MAXDEPTH 26

/* the __device__ scalars, one allocation ("globals"): byte offsets */
enum { BH_G_ERR = 0, BH_G_STEP = 4, BH_G_BOTTOM = 8, BH_G_MAXDEPTH = 12, BH_G_BLKCNT = 16, BH_G_RADIUS = 20,
       BH_G_BYTES = 32 };

typedef struct bh {
    uint32_t nb;          /* bodies */
    uint32_t nn;          /* nnodes: cells are nb..nn, the root is nn */
    uint32_t sms, steps, repeat, seed;
    uint32_t inc;         /* alias stride in the child array: nb rounded up to 32 */
    float dtime, dthf, epssq, itolsq;
    /* host copies of device memory */
    float *mass, *px, *py, *pz;            /* nn + 1 */
    int32_t *child;                        /* 8 (nn + 1); vel, acc, sort alias its front */
    int32_t *count, *start;                /* nn + 1 */
    float *vx, *vy, *vz, *ax, *ay, *az;    /* nb: the aliased arrays' host copies */
    int32_t *sort;                         /* nb */
    float *bmin[3], *bmax[3];              /* per bounding-box block */
    int32_t err, step, bottom, maxdepth;   /* the __device__ scalars */
    uint32_t blkcnt;
    float radius;
    /* device addresses */
    uint64_t d_mass, d_px, d_py, d_pz, d_child, d_count, d_start, d_bmin[3], d_bmax[3], d_glob;
    /* per time step check (lonestar_bh_ref.c) */
    float *spx, *spy, *spz;                /* positions at the step's start */
    float *ipx, *ipy, *ipz, *ivx, *ivy, *ivz, *iax, *iay, *iaz; /* before the last integration */
    uint64_t checked;                      /* time steps checked */
    int failed;
    char fail[256];
    /* summarization and sort (lonestar_bh_tree.c): the child slots before compaction of
     * cells bottom..nn, and each cell's parent */
    int32_t *sumpre, *parent;
    uint64_t rep, st;                      /* program position (next) */
    wl_shadow *sh;
} bh;

/* kernels (fill functions) */
int bh_k_tree(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err);
int bh_k_summarize(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err);
int bh_k_sort(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err);
/* ForceCalculationKernel: resumable (wl_gen.h), per-warp state of bh_force_wsize() bytes */
int bh_step_force(const wl_kernel *k, wl_wgen *ws, gms_error *err);
size_t bh_force_wsize(void);

/* device addresses of the arrays aliased into the child array */
static inline uint64_t bh_d_alias(const bh *s, int which) { return s->d_child + 4ull * (uint64_t)which * s->inc; }
enum { BH_VX = 0, BH_VY, BH_VZ, BH_AX, BH_AY, BH_AZ, BH_SORT };

/* CPU reference: check the step's tree, summaries, sort and forces (after the force kernel);
 * records the first failure in s->fail */
void bh_ref_check_step(bh *s);
/* octant of (x, y, z) around the cell centre (cx, cy, cz), as the kernels compute it */
static inline int bh_octant(float cx, float cy, float cz, float x, float y, float z)
{
    return (cx < x ? 1 : 0) + (cy < y ? 2 : 0) + (cz < z ? 4 : 0);
}
/* the force of the tree on the warp-sized group of sorted bodies k0 .. k0+n-1 */
void bh_ref_force_warp(const bh *s, uint32_t k0, uint32_t n, float *ax, float *ay, float *az);

#endif
