/* Instruction, block and header text of the Accel-Sim trace format. Numbers are formatted
 * by hand into a growing buffer: exporting a large workload must not be printf-bound. */
#include "frontend/trace_write.h"
#include "frontend/opcodes.h"
#include <stdlib.h>
#include <string.h>

void gms_tw_buf_free(gms_tw_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static char *room(gms_tw_buf *b, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 1 << 16;
        while (c < b->n + n + 1) c *= 2;
        b->p = gms_xrealloc(b->p, c);
        b->cap = c;
    }
    return b->p + b->n;
}

static void put(gms_tw_buf *b, const char *s, size_t n)
{
    memcpy(room(b, n), s, n);
    b->n += n;
}

static void puts_(gms_tw_buf *b, const char *s) { put(b, s, strlen(s)); }

/* hex without 0x; at least `minw` digits */
static void put_hex(gms_tw_buf *b, uint64_t v, int minw)
{
    char tmp[16];
    int n = 0;
    do { tmp[n++] = "0123456789abcdef"[v & 15]; v >>= 4; } while (v);
    while (n < minw) tmp[n++] = '0';
    char *o = room(b, (size_t)n);
    for (int i = 0; i < n; i++) o[i] = tmp[n - 1 - i];
    b->n += (size_t)n;
}

static void put_u(gms_tw_buf *b, uint64_t v)
{
    char tmp[20];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    char *o = room(b, (size_t)n);
    for (int i = 0; i < n; i++) o[i] = tmp[n - 1 - i];
    b->n += (size_t)n;
}

static void put_s(gms_tw_buf *b, int64_t v)
{
    if (v < 0) { put(b, "-", 1); put_u(b, 0 - (uint64_t)v); }
    else put_u(b, (uint64_t)v);
}

static void put_reg(gms_tw_buf *b, uint8_t r)
{
    put(b, " R", 2);
    put_u(b, r);
}

/* " N Ra Rb ...": the count of the registers in use, then each (GMS_REG_NONE: unused) */
static void put_regs(gms_tw_buf *b, const uint8_t *regs, int n)
{
    int used = 0;
    for (int i = 0; i < n; i++) used += regs[i] != GMS_REG_NONE;
    put(b, " ", 1);
    put_u(b, (uint64_t)used);
    for (int i = 0; i < n; i++)
        if (regs[i] != GMS_REG_NONE) put_reg(b, regs[i]);
}

/* the sources of a record with GMS_INST_SRC_RZ (a source was R255): each unused slot before
 * the last register in use is written as R255, and one R255 after them if none was, so that
 * reading the line again gives the same slots and the flag */
static void put_srcs_rz(gms_tw_buf *b, const uint8_t *regs, int n)
{
    int last = -1, rz = 0;
    for (int i = 0; i < n; i++) if (regs[i] != GMS_REG_NONE) last = i;
    for (int i = 0; i < last; i++) rz += regs[i] == GMS_REG_NONE;
    put(b, " ", 1);
    put_u(b, (uint64_t)(last + 1 + (rz ? 0 : 1)));
    for (int i = 0; i <= last; i++) put_reg(b, regs[i]);
    if (!rz) put_reg(b, GMS_REG_NONE);
}

static int fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

void gms_tw_addrs(gms_tw_buf *b, const gms_warp_trace *w, const gms_inst *in)
{
    uint64_t lane[32], a[32];
    int n = gms_inst_lane_addrs(w, in, lane);
    int k = 0;
    for (int l = 0; l < 32; l++)
        if (in->mask >> l & 1u) a[k++] = lane[l];
    if (n == 0) { puts_(b, " 1 0x0 0"); return; }
    uint32_t run = in->mask >> __builtin_ctz(in->mask);
    int contiguous = (run & (run + 1)) == 0;
    int64_t stride = n > 1 ? (int64_t)(a[1] - a[0]) : 0;
    int prog = contiguous && fits32(stride);
    int small = 1;
    for (int i = 1; i < n; i++) {
        int64_t d = (int64_t)(a[i] - a[i - 1]);
        if (d != stride) prog = 0;
        if (!fits32(d)) small = 0;
    }
    if (prog) {
        puts_(b, " 1 0x");
        put_hex(b, a[0], 1);
        put(b, " ", 1);
        put_s(b, stride);
    } else if (small) {
        puts_(b, " 2 0x");
        put_hex(b, a[0], 1);
        for (int i = 1; i < n; i++) {
            put(b, " ", 1);
            put_s(b, (int64_t)(a[i] - a[i - 1]));
        }
    } else {
        puts_(b, " 0");
        for (int i = 0; i < n; i++) {
            puts_(b, " 0x");
            put_hex(b, a[i], 16);
        }
    }
}

int gms_tw_inst(gms_tw_buf *b, const gms_warp_trace *w, const gms_inst *in, gms_opcode_resolver resolve,
                const void *ud, gms_error *err)
{
    const char *opc = NULL;
    if (in->opcode_id) {
        opc = gms_opcode_canon_text(in->opcode_id);
        if (!opc && resolve) opc = resolve(ud, in->opcode_id);
    }
    if (!opc) opc = gms_opcode_canon_text(gms_opcode_choose(in));
    if (!opc)
        return gms_err(err, "trace writer: no opcode for a record (class %u, memory kind %u, width %u)",
                       in->op, in->mem, in->width);
    put_hex(b, in->pc, 4);
    put(b, " ", 1);
    put_hex(b, in->mask, 8);
    /* every register kept: one destination for what Accel-Sim's tracer writes and its parser
     * takes (MAX_DST 1), two for a trace that came in with more (ours keeps two), so that
     * `trace convert` keeps both dependencies */
    put_regs(b, in->dst, GMS_MAX_DST);
    put(b, " ", 1);
    puts_(b, opc);
    if (in->flags & GMS_INST_SRC_RZ) put_srcs_rz(b, in->src, GMS_MAX_SRC);
    else put_regs(b, in->src, GMS_MAX_SRC);
    if (in->op == GMS_OP_MEM && in->mem != GMS_MEM_NONE) {   /* not a MEMBAR */
        put(b, " ", 1);
        put_u(b, in->width);
        gms_tw_addrs(b, w, in);
        puts_(b, " 0\n");
    } else {
        puts_(b, " 0 0\n");
    }
    return 0;
}

static void put_dim(gms_tw_buf *b, gms_dim3 d)
{
    put(b, "(", 1); put_u(b, d.x); put(b, ",", 1); put_u(b, d.y); put(b, ",", 1); put_u(b, d.z); put(b, ")\n", 2);
}

void gms_tw_header(gms_tw_buf *b, const gms_kernel_src *k, int kernel_id, int version, int binary_version)
{
    char name[256];
    snprintf(name, sizeof name, "%s", k->name[0] ? k->name : "kernel");
    for (char *c = name; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    puts_(b, "-kernel name = "); puts_(b, name); put(b, "\n", 1);
    puts_(b, "-kernel id = "); put_u(b, (uint64_t)kernel_id); put(b, "\n", 1);
    puts_(b, "-grid dim = "); put_dim(b, k->grid);
    puts_(b, "-block dim = "); put_dim(b, k->block);
    puts_(b, "-shmem = "); put_u(b, k->shmem_bytes); put(b, "\n", 1);
    puts_(b, "-nregs = "); put_u(b, k->regs_per_thread); put(b, "\n", 1);
    puts_(b, "-binary version = "); put_u(b, (uint64_t)binary_version); put(b, "\n", 1);
    puts_(b, "-cuda stream id = "); put_u(b, (uint64_t)(k->stream < 0 ? 0 : k->stream)); put(b, "\n", 1);
    puts_(b, "-shmem base_addr = 0x00007ff000000000\n");
    puts_(b, "-local mem base_addr = 0x00007ff100000000\n");
    puts_(b, "-nvbit version = 1.5.5\n");
    puts_(b, "-accelsim tracer version = "); put_u(b, (uint64_t)version); put(b, "\n", 1);
    puts_(b, "-enable lineinfo = 0\n\n");
    puts_(b, "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
             "mem_width [adrrescompress?] [mem_addresses] immediate\n\n");
}

int gms_tw_block(gms_tw_buf *b, const gms_block_trace *bt, gms_opcode_resolver resolve, const void *ud,
                 gms_error *err)
{
    puts_(b, "#BEGIN_TB\n\nthread block = ");
    put_u(b, bt->x); put(b, ",", 1); put_u(b, bt->y); put(b, ",", 1); put_u(b, bt->z);
    put(b, "\n\n", 2);
    for (uint32_t w = 0; w < bt->nwarps; w++) {
        const gms_warp_trace *wt = &bt->warps[w];
        if (wt->n == 0) continue;
        puts_(b, "warp = "); put_u(b, w);
        puts_(b, "\ninsts = "); put_u(b, wt->n); put(b, "\n", 1);
        for (uint32_t i = 0; i < wt->n; i++)
            if (gms_tw_inst(b, wt, &wt->insts[i], resolve, ud, err)) return -1;
        put(b, "\n", 1);
    }
    puts_(b, "#END_TB\n\n");
    return 0;
}
