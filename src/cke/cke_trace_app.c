/* An Accel-Sim trace as one application of a multiprogrammed run (issue 27: "each a built-in
 * workload or an Accel-Sim trace"): `gpumemsim run --trace A/kernelslist.g --trace B/kernelslist.g`
 * (or a trace beside a --workload), i.e. the workload cke with apps=trace0+trace1 and
 * args=trace0:path=A,offset=...;trace1:path=B,offset=.... Not a built-in workload of its own
 * (gms_cke_apps_parse knows the names trace0..trace2).
 *
 * The trace's program (gms_trace_program: its kernels, its copies, which take no time in the
 * window) with every global address moved by `offset` bytes: traces are recorded at the
 * CUDA driver's addresses (0x7f...), so two traces, or a trace and a built-in workload (whose
 * allocations start at 0x7f0000000000 + k x 2^36), would otherwise share cache lines they do
 * not share on a GPU that runs them as separate processes. Shared and local addresses are
 * per block and per thread and stay as they are. */
#include "cke/cke_apps.h"
#include "frontend/trace.h"
#include <stdlib.h>
#include <string.h>

typedef struct tapp { gms_program_src src; uint64_t off; char *path; } tapp;
typedef struct tkern { gms_kernel_src inner; uint64_t off; char *path; } tkern;   /* paths owned */

/* an address the offset would carry past 2^64 - 1: an error naming the trace and the offset */
static int wraps(uint64_t addr, uint64_t off, const char *path, gms_error *err)
{
    if (addr <= UINT64_MAX - off) return 0;
    return gms_err(err, "workload cke: trace application %s: offset=0x%llx moves its address 0x%llx past 2^64 - 1 "
                   "(addresses would wrap)", path, (unsigned long long)off, (unsigned long long)addr);
}

static int moved(uint8_t mem)
{
    return mem != GMS_MEM_NONE && mem != GMS_MEM_LD_SHARED && mem != GMS_MEM_ST_SHARED &&
           mem != GMS_MEM_ATOM_SHARED && mem != GMS_MEM_LD_LOCAL && mem != GMS_MEM_ST_LOCAL;
}

/* the instructions from index i0 on: global (and constant, texture) addresses + off; -1 with
 * err if one would wrap */
static int move_warp(gms_warp_trace *w, uint32_t i0, const tkern *t, gms_error *err)
{
    uint64_t off = t->off;
    for (uint32_t i = i0; i < w->n; i++) {
        gms_inst *in = &w->insts[i];
        if (!moved(in->mem)) continue;
        if (in->addr_mode == GMS_ADDR_STRIDE) {
            /* active lane l at base + l x stride (signed): the highest must not wrap either */
            uint32_t n = (uint32_t)__builtin_popcount(in->mask);
            uint64_t top = in->base;
            if (in->stride > 0 && n > 1) top += (uint64_t)in->stride * (n - 1u);
            if (wraps(in->base, off, t->path, err) || (top >= in->base && wraps(top, off, t->path, err))) return -1;
            in->base += off;
        } else if (in->addr_mode == GMS_ADDR_LIST) {
            uint32_t n = (uint32_t)__builtin_popcount(in->mask);
            for (uint32_t k = 0; k < n && in->base + k < w->naddr; k++) {
                if (wraps(w->addrs[in->base + k], off, t->path, err)) return -1;
                w->addrs[in->base + k] += off;
            }
        }
    }
    return 0;
}

static int tk_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    tkern *t = self;
    if (t->inner.fill_block(t->inner.self, b, out, err)) return -1;
    for (uint32_t w = 0; w < out->nwarps; w++)
        if (move_warp(&out->warps[w], 0, t, err)) return -1;
    return 0;
}

static int tk_more(void *self, uint64_t b, uint32_t warp, gms_warp_trace *wt, gms_error *err)
{
    tkern *t = self;
    uint32_t n0 = wt->n;
    int r = t->inner.fill_warp_more(t->inner.self, b, warp, wt, err);
    if (r >= 0 && move_warp(wt, n0, t, err)) return -1;
    return r;
}

static void tk_release(void *self)
{
    tkern *t = self;
    if (t->inner.release) t->inner.release(t->inner.self);
    free(t->path);
    free(t);
}

static const char *tk_opcode(void *self, uint16_t id)
{
    tkern *t = self;
    return t->inner.opcode_text ? t->inner.opcode_text(t->inner.self, id) : NULL;
}

static int create(const gms_wl_args *a, void **state, gms_error *err)
{
    const char *path = gms_wl_str(a, "path");
    if (!*path) return gms_err(err, "workload cke: a trace application needs path=DIR/kernelslist.g");
    if (gms_wl_u64(a, "scale") != 1)
        return gms_err(err, "workload cke: a trace application (%s) has no scale (its inputs are the trace's)", path);
    /* whole lines (128 B, the largest line size), or the trace's accesses would straddle lines
     * they do not straddle on the GPU; a wrap past 2^64 - 1 is refused where it happens */
    uint64_t off = gms_wl_u64(a, "offset");
    if (off % 128)
        return gms_err(err, "workload cke: trace application %s: offset=%s is not a multiple of 128 bytes (a cache line)",
                       path, gms_wl_str(a, "offset"));
    tapp *t = gms_xcalloc(1, sizeof *t);
    t->off = off;
    t->path = gms_xstrdup(path);
    if (gms_trace_program(path, &t->src, err)) { free(t->path); free(t); return -1; }
    *state = t;
    return 0;
}

static int next(void *state, gms_program *prog, gms_error *err)
{
    tapp *t = state;
    size_t n0 = prog->n;
    int r = t->src.next(t->src.self, prog, err);
    if (r < 0) return r;
    for (size_t i = n0; i < prog->n; i++) {
        gms_cmd *c = &prog->q[i];
        /* copies and allocations (no time in the window; kept consistent) */
        if (c->kind != GMS_CMD_LAUNCH && (wraps(c->addr, t->off, t->path, err) ||
                                          (c->bytes && wraps(c->addr + c->bytes - 1, t->off, t->path, err))))
            return -1;
        c->addr += t->off;
        if (c->kind != GMS_CMD_LAUNCH || !t->off) continue;
        tkern *k = gms_xcalloc(1, sizeof *k);
        k->inner = c->kernel;
        k->off = t->off;
        k->path = gms_xstrdup(t->path);
        c->kernel.self = k;
        c->kernel.fill_block = tk_fill;
        c->kernel.fill_warp_more = k->inner.fill_warp_more ? tk_more : NULL;
        c->kernel.release = tk_release;
        c->kernel.opcode_text = tk_opcode;
    }
    return r;
}

static void destroy(void *state)
{
    tapp *t = state;
    if (!t) return;
    if (t->src.destroy) t->src.destroy(t->src.self);
    free(t->path);
    free(t);
}

static const gms_wl_param params[] = {
    { "path", "", "the trace's kernelslist.g" },
    { "offset", "0", "bytes added to every global address of the trace (the CLI gives application k (k + 1) x 2^44)" },
    { "scale", "1", "accepted as 1 only (a multiprogrammed run gives every application a scale)" },
    { NULL, NULL, NULL },
};

const gms_workload_ops gms_cke_trace_app = {
    .name = "trace", .suite = "cke", .domain = "Accel-Sim trace", .ri = "-",
    .summary = "an Accel-Sim trace as an application of a multiprogrammed run",
    .params = params, .create = create, .next = next, .destroy = destroy,
};
