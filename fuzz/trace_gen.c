/* Random Accel-Sim traces for the timing-level trace sweep (fuzz/trace_sweep.sh,
 * docs/fuzzing.md). Writes DIR/kernelslist.g and 1-3 kernel files (tracer version 4) drawn
 * from SEED (1-6 kernels, copies to and from the device between them): grids of 1-400 blocks, blocks of 1-1024 threads (partial last warps), shared
 * memory and registers up to what one SM may or may not hold, and per warp 0-150 instructions
 * from every class the reader knows: ALU, SFU, double, tensor, branches, global, local, shared
 * and generic loads and stores of every width, atomics, reductions, memory barriers, barriers
 * (usually as many per warp, sometimes fewer: warps that exit early), masks partly or wholly
 * off, the three address formats, and now and then addresses at the ends of the address space,
 * negative and huge strides, constant, texture and LDGSTS loads with addresses. One kernel in
 * seven or so is malformed on purpose (a block missing or twice, warps shuffled or missing,
 * an instruction count off by one), for which a clear error is the expected outcome; such a
 * trace gets an empty DIR/MALFORMED, so that the sweep can tell an expected refusal from a
 * well-formed trace refused.
 * Standalone (no project code), deterministic: the same seed writes the same files. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t rng_state;
static int planted;   /* a defect was written on purpose (DIR/MALFORMED: a refusal is expected) */

static uint64_t rnd(void)   /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint32_t below(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }
static double unit(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }
#define PICK(arr) ((arr)[below((uint32_t)(sizeof(arr) / sizeof((arr)[0])))])

#define SHBASE 0x00007ff000000000ULL
#define LOBASE 0x00007ff100000000ULL
#define GBASE 0x7f0000000000ULL

typedef struct {
    int ver;            /* -binary version */
    uint32_t shmem;
    int tv, lineinfo;   /* -accelsim tracer version (2: lines start with cta x y z, warp), -enable lineinfo */
    uint32_t bx, by, bz, warp;
} kctx;

/* what starts every instruction line before the PC: the block and warp (tracer version < 3),
 * a source line (lineinfo) */
static void prefix(FILE *f, const kctx *k)
{
    if (k->tv < 3) fprintf(f, "%u %u %u %u ", k->bx, k->by, k->bz, k->warp);
    if (k->lineinfo) fprintf(f, "%u ", below(5000));
}

static void reg(char *out)
{
    double u = unit();
    if (u < 0.03) strcpy(out, "RZ");
    else if (u < 0.06) sprintf(out, "R%u", 200 + below(56));   /* up to R255, the zero register */
    else sprintf(out, "R%u", below(21));
}

/* an address field for `pop` (> 0) active lanes: format 0 (list), 1 (base, stride) or 2
 * (base, deltas) */
static void addrs(FILE *f, uint32_t pop, uint64_t base, uint64_t span, uint32_t width)
{
    int mode = (int)below(3);
    int kind = (int)below(5);   /* 0,1 consecutive; 2 random; 3 one address; 4 a page apart */
    uint64_t b = base + ((rnd() % span) & ~(uint64_t)(width - 1));
    uint64_t a[32] = {0};
    for (uint32_t k = 0; k < pop; k++) {
        if (kind <= 1) a[k] = b + (uint64_t)k * width;
        else if (kind == 2) a[k] = base + ((rnd() % span) & ~(uint64_t)(width - 1));
        else if (kind == 3) a[k] = b;
        else a[k] = b + (uint64_t)k * 4096;
    }
    if (mode == 1 && kind != 2) {
        fprintf(f, " 1 0x%" PRIx64 " %" PRId64, a[0], pop > 1 ? (int64_t)(a[1] - a[0]) : (int64_t)width);
    } else if (mode == 2) {
        fprintf(f, " 2 0x%" PRIx64, a[0]);
        for (uint32_t k = 1; k < pop; k++) fprintf(f, " %" PRId64, (int64_t)(a[k] - a[k - 1]));
    } else {
        fprintf(f, " 0");
        for (uint32_t k = 0; k < pop; k++) fprintf(f, " 0x%" PRIx64, a[k]);
    }
}

static const char *width_suffix(uint32_t w)
{
    switch (w) {
    case 1: return ".U8";
    case 2: return ".U16";
    case 8: return ".64";
    case 16: return ".128";
    default: return "";
    }
}

/* a load (1 destination) or store (2 sources) named op with the given address field */
static void mem_line(FILE *f, unsigned pc, uint32_t mask, const char *op, int load, uint32_t width,
                     uint64_t base, uint64_t span)
{
    /* no active lane: a memory opcode needs addresses, so a NOP instead */
    if (!mask) { fprintf(f, "%04x %08x 0 NOP 0 0\n", pc, mask); return; }
    char r1[8], r2[8];
    reg(r1);
    reg(r2);
    if (load) fprintf(f, "%04x %08x 1 %s %s 1 %s %u", pc, mask, r1, op, r2, width);
    else fprintf(f, "%04x %08x 0 %s 2 %s %s %u", pc, mask, op, r1, r2, width);
    addrs(f, (uint32_t)__builtin_popcount(mask), base, span, width);
    fputc('\n', f);
}

/* huge or wrapping addresses, negative and huge strides; loads the reader treats specially */
static void exotic_line(FILE *f, unsigned pc, uint32_t mask, int ver)
{
    uint32_t pop = (uint32_t)__builtin_popcount(mask);
    if (!pop) { fprintf(f, "%04x %08x 0 NOP 0 0\n", pc, mask); return; }
    static const char *ops[] = { "LDG.E", "STG.E", "LDC", "TEX.B", "LDGSTS.E", "ATOMS.ADD", "LDS", "LD.E" };
    const char *op = PICK(ops);
    if (ver < 80 && !strcmp(op, "LDGSTS.E")) op = "LDG.E";
    uint64_t bases[] = { 0, 0xffffffffffffff00ULL, 0xfffffffffffffffcULL, 0x8000000000000000ULL,
                         SHBASE - 64, LOBASE + 16380, rnd() & ~3ULL };
    uint64_t base = PICK(bases);
    char r1[8], r2[8];
    reg(r1);
    reg(r2);
    if (op[0] == 'S') fprintf(f, "%04x %08x 0 %s 2 %s %s 4", pc, mask, op, r1, r2);
    else fprintf(f, "%04x %08x 1 %s %s 1 %s 4", pc, mask, r1, op, r2);
    int mode = (int)below(3);
    if (mode == 1) {
        int64_t strides[] = { -4, -4096, 4, (int64_t)1 << 40, -((int64_t)1 << 62), 0 };
        fprintf(f, " 1 0x%" PRIx64 " %" PRId64, base, PICK(strides));
    } else if (mode == 2) {
        int64_t deltas[] = { -8, 4, (int64_t)1 << 33, INT64_MIN };
        fprintf(f, " 2 0x%" PRIx64, base);
        for (uint32_t k = 1; k < pop; k++) fprintf(f, " %" PRId64, PICK(deltas));
    } else {
        fprintf(f, " 0");
        for (uint32_t k = 0; k < pop; k++) fprintf(f, " 0x%" PRIx64, base + (uint64_t)4 * k);
    }
    fputc('\n', f);
}

static void inst_line(FILE *f, unsigned pc, uint32_t full, const kctx *k)
{
    prefix(f, k);
    uint32_t mask = full;
    double r = unit();
    if (r < 0.2) mask = full & (uint32_t)rnd();
    else if (r < 0.25) mask = 0;
    double t = unit();
    static const uint32_t widths[] = { 1, 2, 4, 4, 8, 16 };
    uint32_t w = PICK(widths);
    char op[48];
    if (t < 0.45) {
        static const char *alu[] = { "IADD3", "FFMA", "IMAD", "MOV", "DFMA", "MUFU.EX2", "ISETP.GE.AND", "BRA",
                                     "HMMA.884.F32.F32", "SHFL.BFLY", "DADD", "POPC" };
        const char *a = PICK(alu);
        if (k->ver < 70 && !strcmp(a, "HMMA.884.F32.F32")) a = "FFMA";
        if (k->ver < 70 && !strcmp(a, "IADD3")) a = "IADD";
        char rd[8], rd2[8];
        reg(rd);
        reg(rd2);
        if (unit() < 0.1) fprintf(f, "%04x %08x 2 %s %s %s", pc, mask, rd, rd2, a);
        else fprintf(f, "%04x %08x 1 %s %s", pc, mask, rd, a);
        uint32_t ns = below(unit() < 0.1 ? 9 : 4);   /* up to 8 sources (the reader keeps 4) */
        fprintf(f, " %u", ns);
        for (uint32_t i = 0; i < ns; i++) { char rs[8]; reg(rs); fprintf(f, " %s", rs); }
        fprintf(f, " 0\n");
    } else if (t < 0.70) {
        int load = unit() < 0.6;
        snprintf(op, sizeof op, "%s.E%s", load ? "LDG" : "STG", width_suffix(w));
        static const uint64_t spans[] = { 4096, 1 << 20, 64 << 20 };
        mem_line(f, pc, mask, op, load, w, GBASE, PICK(spans));
    } else if (t < 0.82 && k->shmem > 0) {
        int load = unit() < 0.5;
        snprintf(op, sizeof op, "%s%s%s", load ? "LDS" : "STS", w == 4 ? "" : ".U", w == 4 ? "" : width_suffix(w));
        mem_line(f, pc, mask, op, load, w, SHBASE, k->shmem < 64 ? 64 : k->shmem);
    } else if (t < 0.88) {
        static const char *atom[] = { "RED.E.ADD.STRONG.GPU", "ATOMG.E.ADD.STRONG.GPU", "ATOM.E.ADD" };
        const char *a = PICK(atom);
        static const uint64_t spans[] = { 256, 65536 };
        if (a[0] == 'R' || !mask) {
            mem_line(f, pc, mask, a, 0, 4, GBASE, PICK(spans));
        } else {   /* an atomic with a result: 1 destination and 2 sources */
            char rd[8], r1[8], r2[8];
            reg(rd);
            reg(r1);
            reg(r2);
            fprintf(f, "%04x %08x 1 %s %s 2 %s %s 4", pc, mask, rd, a, r1, r2);
            addrs(f, (uint32_t)__builtin_popcount(mask), GBASE, PICK(spans), 4);
            fputc('\n', f);
        }
    } else if (t < 0.93) {
        int load = unit() < 0.5;
        snprintf(op, sizeof op, "%s%s", load ? "LDL" : "STL", width_suffix(w));
        mem_line(f, pc, mask, op, load, w, LOBASE, 16384);
    } else if (t < 0.96) {
        int load = unit() < 0.5;
        snprintf(op, sizeof op, "%s.E%s", load ? "LD" : "ST", width_suffix(w));
        uint64_t bases[] = { GBASE, SHBASE, LOBASE };
        mem_line(f, pc, mask, op, load, w, PICK(bases), 4096);
    } else if (t < 0.98) {
        fprintf(f, "%04x %08x 0 MEMBAR.SC.GPU 0 0\n", pc, mask);
    } else {
        exotic_line(f, pc, mask, k->ver);
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int write_kernel(const char *path, int id, int ver)
{
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "trace_gen: %s: %s\n", path, strerror(errno)); return -1; }
    static const uint32_t gxs[] = { 1, 2, 3, 7, 16, 40, 100 }, gys[] = { 1, 1, 2 }, gzs[] = { 1, 1, 1, 2 };
    static const uint32_t threads_c[] = { 1, 31, 32, 33, 64, 100, 128, 256, 512, 1024 };
    static const uint32_t shmems[] = { 0, 0, 1024, 16384, 48 * 1024 };
    static const uint32_t regs_big[] = { 8, 16, 32, 64 }, regs_small[] = { 8, 32, 64, 128, 255 };
    static const uint32_t streams[] = { 0, 0, 0, 0x55, 0x77 };
    uint32_t gx = PICK(gxs), gy = PICK(gys), gz = PICK(gzs), threads = PICK(threads_c);
    /* the block's shape: x only, or x by 2 by 2 when it divides */
    uint32_t tx = threads, ty = 1, tz = 1;
    if (threads % 4 == 0 && unit() < 0.3) { tx = threads / 4; ty = 2; tz = 2; }
    kctx k = { .ver = ver, .shmem = PICK(shmems) };
    double v = unit();
    k.tv = v < 0.1 ? 2 : v < 0.2 ? 3 : 4;
    k.lineinfo = unit() < 0.15;
    uint32_t nregs = threads > 256 ? PICK(regs_big) : PICK(regs_small);
    fprintf(f, "-kernel name = k%d\n-kernel id = %d\n-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n", id, id, gx,
            gy, gz, tx, ty, tz);
    fprintf(f, "-shmem = %u\n-nregs = %u\n-binary version = %d\n-cuda stream id = %u\n", k.shmem, nregs, ver,
            PICK(streams));
    fprintf(f, "-shmem base_addr = 0x%016llx\n-local mem base_addr = 0x%016llx\n-nvbit version = 1.5.5\n"
               "%s-enable lineinfo = %d\n\n",
            (unsigned long long)SHBASE, (unsigned long long)LOBASE,
            k.tv == 2 ? "" : k.tv == 3 ? "-accelsim tracer version = 3\n" : "-accelsim tracer version = 4\n", k.lineinfo);
    fprintf(f, "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
               "[adrrescompress?] [mem_addresses] immediate\n\n");
    uint32_t nw = (threads + 31) / 32;
    static const uint32_t nbars[] = { 0, 0, 1, 2, 5 };
    uint32_t nbar = PICK(nbars);
    int malform = unit() < 0.15;
    int bad_count = malform && unit() < 0.25;   /* one warp's instruction count off by one */
    uint32_t nblk = gx * gy * gz, order[801];
    uint32_t nb = 0;
    for (uint32_t b = 0; b < nblk; b++) order[nb++] = b;
    if (malform && unit() < 0.5 && nb > 1) {
        if (unit() < 0.5) { uint32_t d = below(nb); memmove(order + d, order + d + 1, (nb - d - 1) * sizeof *order); nb--; }
        else { uint32_t at = below(nb), v = order[below(nb)]; memmove(order + at + 1, order + at, (nb - at) * sizeof *order); order[at] = v; nb++; }
        planted = 1;
    }
    for (uint32_t bi = 0; bi < nb; bi++) {
        k.bx = order[bi] % gx;
        k.by = order[bi] / gx % gy;
        k.bz = order[bi] / (gx * gy);
        fprintf(f, "#BEGIN_TB\n\nthread block = %u,%u,%u\n\n", k.bx, k.by, k.bz);
        uint32_t worder[32], nwo = nw;
        for (uint32_t w = 0; w < nw; w++) worder[w] = w;
        if (malform && unit() < 0.3) {
            for (uint32_t w = nw; w > 1; w--) { uint32_t j = below(w), x = worder[w - 1]; worder[w - 1] = worder[j]; worder[j] = x; }
            if (unit() < 0.3 && nwo > 1) nwo--;
            if (nw > 1) planted = 1;   /* (a shuffle may leave the order as it was: then no defect) */
        }
        for (uint32_t wi = 0; wi < nwo; wi++) {
            uint32_t w = worder[wi];
            k.warp = w;
            uint32_t lanes = threads - 32 * w < 32 ? threads - 32 * w : 32;
            uint32_t full = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
            static const uint32_t ns[] = { 0, 1, 5, 20, 60, 150 };
            uint32_t n = unit() < 0.9 ? PICK(ns) : 0;
            uint32_t mybar = unit() < 0.9 ? nbar : below(nbar + 1);
            uint32_t barpos[8];
            for (uint32_t b = 0; b < mybar; b++) barpos[b] = below(n + 1);
            qsort(barpos, mybar, sizeof *barpos, cmp_u32);
            int has_exit = unit() < 0.95;
            uint32_t count = n + mybar + (uint32_t)has_exit;
            if (bad_count) {
                count = unit() < 0.5 && count ? count - 1 : count + 1;
                bad_count = 0;
                planted = 1;
            }
            fprintf(f, "warp = %u\ninsts = %u\n", w, count);
            unsigned pc = 0;
            uint32_t b = 0;
            for (uint32_t i = 0; i <= n; i++) {
                for (; b < mybar && barpos[b] == i; b++, pc += 16) {
                    prefix(f, &k);
                    fprintf(f, "%04x %08x 0 BAR.SYNC 0 0\n", pc, unit() < 0.05 ? full & (uint32_t)rnd() : full);
                }
                if (i == n) break;
                inst_line(f, pc, full, &k);
                /* now and then a branch: the next PC anywhere, backwards too, or far */
                double j = unit();
                pc = j < 0.03 ? below(0x1000) * 16 : j < 0.035 ? (unsigned)(rnd() & 0xfffffff0u) : pc + 16;
            }
            if (has_exit) {
                prefix(f, &k);
                fprintf(f, "%04x %08x 0 EXIT 0 0\n", pc, full);
            }
            fputc('\n', f);
        }
        fprintf(f, "#END_TB\n\n");
    }
    if (fclose(f)) { fprintf(stderr, "trace_gen: %s: write failed\n", path); return -1; }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: trace_gen DIR SEED\n"); return 2; }
    char *end;
    errno = 0;
    unsigned long long seed = strtoull(argv[2], &end, 10);
    if (errno || *end || end == argv[2]) { fprintf(stderr, "trace_gen: SEED '%s' is not a number\n", argv[2]); return 2; }
    rng_state = seed * 0x2545f4914f6cdd1dULL + 1;
    if (mkdir(argv[1], 0777) && errno != EEXIST) { fprintf(stderr, "trace_gen: %s: %s\n", argv[1], strerror(errno)); return 1; }
    char path[4096];
    snprintf(path, sizeof path, "%s/kernelslist.g", argv[1]);
    FILE *kl = fopen(path, "w");
    if (!kl) { fprintf(stderr, "trace_gen: %s: %s\n", path, strerror(errno)); return 1; }
    static const int nks[] = { 1, 1, 2, 3, 6 }, vers[] = { 70, 70, 61, 75, 86, 52 };
    int nk = PICK(nks), ver = PICK(vers);
    for (int i = 1; i <= nk; i++) {
        if (unit() < 0.2) {
            static const unsigned bytes[] = { 32, 4096, 1 << 20 };
            fprintf(kl, "MemcpyHtoD,0x%016llx,%u\n", (unsigned long long)GBASE, PICK(bytes));
        }
        fprintf(kl, "kernel-%d.traceg\n", i);
        if (unit() < 0.1) fprintf(kl, "MemcpyDtoH,0x%016llx,%u\n", (unsigned long long)GBASE, 4096u);
        snprintf(path, sizeof path, "%s/kernel-%d.traceg", argv[1], i);
        if (write_kernel(path, i, ver)) { fclose(kl); return 1; }
    }
    if (fclose(kl)) { fprintf(stderr, "trace_gen: kernelslist.g: write failed\n"); return 1; }
    if (planted) {
        snprintf(path, sizeof path, "%s/MALFORMED", argv[1]);
        FILE *m = fopen(path, "w");
        if (!m || fclose(m)) { fprintf(stderr, "trace_gen: %s: %s\n", path, strerror(errno)); return 1; }
    }
    return 0;
}
