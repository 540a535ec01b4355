/* Shared by the GraphBIG GPU workloads (graphbig_*.c; docs/workloads-graphbig.md).
 *
 * Every one runs on a graph (graph_csr.h) in GraphBIG's cudaGraph layout: vertexlist
 * (8-byte edge offsets, here nv + 1 of them so that vertex v's edges end at vlist[v+1]),
 * degreelist (8-byte degrees) and edgelist (8-byte destinations), copied to the device as
 * cudaGraphCopy does, plus the workload's own arrays. The driver here parses the common
 * parameters, builds the graph, allocates, runs a workload's host loop (gb_algo.run) once per
 * repetition and checks each repetition's result against the CPU reference (gb_algo.check).
 *
 * Kernels are resumable (wl_gen.h) since a thread or warp of a power-law graph may loop over
 * a hub's many edges: every kernel's per-warp state is one gb_w. Loads and stores go through
 * gb_ld / gb_st / gb_atom, which emit the instruction and keep the shadow memory of
 * functional verify runs (wl_shadow.h) in step with the host arrays. */
#ifndef GMS_WORKLOADS_GRAPHBIG_UTIL_H
#define GMS_WORKLOADS_GRAPHBIG_UTIL_H
#include "workloads/graph_csr.h"
#include "workloads/wl_buf.h"

#define GB_INF 0xffffff00u   /* GraphBIG's MY_INFINITY */
#define GB_MAXBUF 12
enum { GB_VL, GB_DL, GB_EL, GB_FIRST };   /* the graph's arrays; a workload's own follow */

typedef struct gb gb;
typedef struct gb_algo {
    const char *name;
    int nbuf;                         /* the workload's own arrays, b[GB_FIRST ...] */
    const char *const *bufname;
    /* bytes of own array i for a graph of nv vertices and ne edge entries */
    uint64_t (*bytes)(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a);
    /* after the graph is built and the arrays' host copies exist: the reference result */
    int (*setup)(gb *s, const gms_wl_args *a, gms_error *err);
    /* push the next commands of the current repetition; 1 = pushed, 0 = the repetition is
       over (its result copied back, ready for check) */
    int (*run)(gb *s, gms_program *p, gms_error *err);
    /* compare the result (read through gb_host_read) with the reference; fills s->bad */
    void (*check)(gb *s);
    void (*destroy)(gb *s);           /* optional: free s->x */
} gb_algo;

struct gb {
    const gb_algo *al;
    gms_graph g;
    uint64_t root;                    /* source vertex (BFS, SSSP) */
    uint64_t repeat, rep;
    uint32_t tpb;                     /* GraphBIG's num_thread_per_block, min(vertices, 1024), in whole warps */
    wl_buf b[GB_MAXBUF];
    int phase;                        /* the workload's host loop */
    int64_t it, it2;                  /* its counters */
    char bad[512];
    wl_shadow *sh;
    void *x;                          /* workload extras (reference arrays) */
    int allocated, done;
};

/* the parameters every GraphBIG workload has (in this order, then its own, then {NULL}) */
#define GB_PARAMS                                                                                        \
    {"graph", "", "rmat (default: Graph500 R-MAT, a=0.57 b=c=0.19), uniform, or a graph file (edge list, .mtx, " \
                      "GraphBIG CSV directory)"},                                                        \
    {"vertices", "262144", "vertices of a generated graph (Graph500 scale 18)"},                        \
    {"edges", "4194304", "undirected edges of a generated graph (Graph500 edge factor 16)"},            \
    {"degree", "0", "if not 0: edges = vertices * degree / 2 (average degree)"},                        \
    {"undirected", "1", "1: every edge also stored reversed (generated graphs always)"},                \
    {"root", "", "source vertex (default: the vertex with the most edges)"},                            \
    {"scale", "1", "multiplies vertices and edges"},                                                    \
    {"repeat", "1", "run the algorithm N times on the same allocations"}

/* the end of every graphbig_*.c: the gms_workload_ops SYM of the gb_algo ALGO (whose name
   is NAME) with parameters PARAMS (GB_PARAMS, the workload's own, {NULL}) */
#define GB_WORKLOAD(SYM, NAME, ALGO, PARAMS, SUMMARY)                                                    \
    static int SYM##_create(const gms_wl_args *a, void **st, gms_error *err)                            \
    {                                                                                                    \
        return gb_create(&(ALGO), a, st, err);                                                           \
    }                                                                                                    \
    static uint64_t SYM##_footprint(const gms_wl_args *a) { return gb_footprint(&(ALGO), a); }          \
    const gms_workload_ops SYM = {                                                                       \
        .name = NAME, .suite = "graphbig", .domain = "graph", .ri = "I", .summary = SUMMARY,             \
        .params = PARAMS, .create = SYM##_create, .next = gb_next, .verify = gb_verify,                  \
        .destroy = gb_destroy, .footprint = SYM##_footprint,                                             \
    }

int gb_create(const gb_algo *al, const gms_wl_args *a, void **out, gms_error *err);
int gb_next(void *st, gms_program *p, gms_error *err);
int gb_verify(void *st, gms_error *err);
void gb_destroy(void *st);
uint64_t gb_footprint(const gb_algo *al, const gms_wl_args *a);

#define GB_D(s, k) ((s)->b[k].d)
#define GB_U32(s, k) ((uint32_t *)(s)->b[k].h)
#define GB_U64(s, k) ((uint64_t *)(s)->b[k].h)
#define GB_U8(s, k) ((uint8_t *)(s)->b[k].h)
#define GB_F32(s, k) ((float *)(s)->b[k].h)

/* ------------------------------------------------------------ host side */
/* the host's reads and writes of device memory: through the shadow in a verify run */
void gb_host_read(gb *s, int k, uint64_t off, uint64_t bytes);
/* H2D copy of bytes at off of array k (host copy -> device, and the shadow) */
void gb_h2d(gms_program *p, gb *s, int k, uint64_t off, uint64_t bytes);
void gb_d2h(gms_program *p, gb *s, int k, uint64_t off, uint64_t bytes);
/* grid of a 1D launch over n threads, GraphBIG's ceil(n / num_thread_per_block) */
uint32_t gb_blocks(const gb *s, uint64_t n);
/* launch step on `blocks` blocks of s->tpb threads */
void gb_launch(gms_program *p, gb *s, const char *name, wl_step_fn step, uint32_t blocks, const int64_t *i, int ni);
/* record the first mismatch "workload W: what[i] = got, reference want" */
void gb_mismatch(gb *s, const char *what, uint64_t i, double got, double want);

/* ------------------------------------------------------------ kernels */
typedef struct gb_w {
    wl_wgen ws;
    uint32_t act, m2, flag;           /* lanes running; scratch masks */
    uint8_t ri, r1, r2, r3;           /* registers kept across yields */
    uint64_t v[32], beg[32], end[32]; /* lane's vertex and its edge range */
    uint64_t it, maxn;                /* edge loop */
    uint64_t vi, vend;                /* warp-centric: vertex loop over the warp's chunk */
    uint64_t u64[32];                 /* per-lane scratch */
    double f[32];
} gb_w;

/* the state of k's step functions */
#define GB_S(k) ((gb *)(k)->st)
/* Thread-centric prologue: tid = blockIdx.x*blockDim.x + threadIdx.x; if (tid < n).
   Sets w->v[l] = tid and returns the lanes with tid < n (w->ri: the index register) */
uint32_t gb_tid(gb_w *w, uint32_t tpb, uint64_t n);
/* gb_tid over the vertices, then the kernel's first test of its vertex: LDG of array k (elem
   bytes) at tid, ISETP, BRA (pc 0x30, 0x38, 0x40); returns the lanes with tid < nv (the
   caller picks those whose value passes) */
uint32_t gb_tid_ld(gb *s, gb_w *w, int k, int elem);
/* the same on the 1-byte flag array k: returns the lanes whose vertex's flag is set */
uint32_t gb_tid_flag(gb *s, gb_w *w, int k);
/* Warp-centric prologue (CHUNK_SZ = 32 vertices per warp): w->vi .. w->vend, the warp's
   vertices; returns 0 when the warp has none (it returns) */
int gb_warp_chunk(gb_w *w, uint64_t n, uint32_t tpb);
/* LDG of vlist[v[l]] and vlist[v[l] + 1] for lanes m: beg/end; returns the largest degree */
uint64_t gb_ranges(gb *s, gb_w *w, uint32_t pc, uint32_t m);
/* edge iteration w->it of lanes m: the lanes with beg + it < end (IADD, ISETP, BRA, LDG of
   edgelist[beg + it]); dst[l] their destinations */
uint32_t gb_edge(gb *s, gb_w *w, uint32_t pc, uint32_t m, uint64_t dst[32]);
/* Warp-centric: the same for vertex w->vi whose range is beg[0], end[0] (all lanes): lane l
   takes edge beg + it*32 + l */
uint32_t gb_wedge(gb *s, gb_w *w, uint32_t pc, uint32_t m, uint64_t dst[32]);

/* LDG of array k (elem 1, 4 or 8 bytes) at index idx[l] for lanes m; shadow-checked
   against the host copy */
uint8_t gb_ld(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, const uint64_t idx[32], uint8_t areg);
/* the same index for every lane */
uint8_t gb_ld1(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, uint64_t idx, uint8_t areg);
/* STG of val[l] at index idx[l] (host copy written in lane order, the last lane wins) */
void gb_st(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, const uint64_t idx[32], const uint64_t val[32],
           uint8_t areg, uint8_t dreg);
/* the same value at the same index from every lane of m */
void gb_st1(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, uint64_t idx, uint64_t val, uint8_t areg);
/* ATOM (4 bytes) at idx[l] for lanes m, after the caller applied the lanes' updates to the
   host copy: the shadow gets the value the instruction leaves */
uint8_t gb_atom(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, const uint64_t idx[32], uint8_t areg, uint8_t dreg);

/* ------------------------------------------------------------ common pieces */
/* GraphBIG's initialize kernel: for every vertex, n (<= 6) arrays bufs[j] = vals[j] */
void gb_init_kernel(gms_program *p, gb *s, int n, const int *bufs, const int64_t *vals);
/* the same for one array k = GB_INF (vproplist in BFS, SSSP and GC) */
void gb_init_inf(gms_program *p, gb *s, int k);
/* a data-driven host loop's turn, worklists in and out (their 4-byte ends at in + 1 and
   out + 1): the items of in (its end, as the last launch's D2H left it), out_worklist->clear();
   when there are none the result, vproplist b[GB_FIRST], is copied back */
uint32_t gb_worklist_turn(gms_program *p, gb *s, int in, int out);
/* threads per block for n items: whole warps, at most 1024 */
uint32_t gb_worklist_tpb(uint32_t n);
/* BFS levels from root (GB_INF: unreached), the reference of the BFS variants */
void gb_ref_bfs(const gms_graph *g, uint64_t root, uint32_t *lev);
/* compare the nv 4-byte values of array k (read through the shadow) with ref */
void gb_check_u32(gb *s, int k, const char *what, const uint32_t *ref);
/* a 1-byte flag (changed / over): read it (after the D2H), set it (H2D) */
int gb_flag_read(gb *s, int k);
void gb_flag_set(gms_program *p, gb *s, int k, int v);

/* s->x freed: the gb_algo.destroy of a workload whose extras are one allocation */
void gb_free_x(gb *s);

/* the BFS variants (graphbig_bfs_common.c); vproplist is b[GB_FIRST]. gb_bfs_setup: the
   reference levels into s->x; gb_bfs_check compares vproplist with them */
int gb_bfs_setup(gb *s, const gms_wl_args *a, gms_error *err);
void gb_bfs_check(gb *s);
/* the arrays of the variants with a `changed` flag (TA, TTC, TWC): vproplist, changed */
uint64_t gb_bfs_bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a);
/* their host loop: initialize (vproplist = INF), root's level = 0, then "changed = false;
   kernel (level in k->arg[0]) on `blocks` blocks; read changed" until nothing changed */
int gb_bfs_changed_run(gb *s, gms_program *p, wl_step_fn step, uint32_t blocks);

/* graph coloring (graphbig_gc.c), vproplist b[GB_FIRST] and randlist b[GB_FIRST + 1]: setup
   puts random numbers into randlist and the reference colouring into s->x, check compares
   vproplist with it; the kernel of GC-TTC (i[1] = 0) and GC-DTC (i[1] = 1) */
int gb_gc_setup(gb *s, const gms_wl_args *a, gms_error *err);
void gb_gc_check(gb *s);
int gb_gc_step(const wl_kernel *k, wl_wgen *ws, gms_error *err);
/* launch with blocks of tpb threads (a data-driven kernel sized by its worklist) */
void gb_launch_tpb(gms_program *p, gb *s, const char *name, wl_step_fn step, uint32_t blocks, uint32_t tpb,
                   const int64_t *i, int ni);

#endif
