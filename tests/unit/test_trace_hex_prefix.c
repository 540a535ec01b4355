/* trace_parse.c reads a PC, a mask or a lane's address knowing the field's previous token and
 * reads only the digits after their shared prefix (next_hex_memo). Random lines whose tokens
 * share prefixes of every length with the one before (the same token, one digit more or less,
 * "0x" and "0X" or none, upper case, tabs, 16 digits) must give strtoull's values, and a token
 * that grows past 16 digits from a shared prefix must be the general path's error. */
#include "test.h"
#include "test_trace_util.h"
#include "frontend/trace.h"
#include "util/rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HP_LINES 300

#define HP_HDR "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n" \
               "-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n-accelsim tracer version = 4\n\n" \
               "#traces format = ...\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"

typedef struct hp_want { uint32_t pc[HP_LINES]; uint64_t addr[HP_LINES][32]; int bad; } hp_want;

static int hp_block(void *ud, const gms_kernel_src *k, uint64_t block, const gms_block_trace *b)
{
    (void)k;
    (void)block;
    hp_want *h = ud;
    const gms_warp_trace *w = &b->warps[0];
    if (w->n != HP_LINES) h->bad++;
    for (uint32_t i = 0; i < w->n && i < HP_LINES; i++) {
        const gms_inst *in = &w->insts[i];
        if (in->pc != h->pc[i] || in->mask != 0xffffffffu || in->addr_mode != GMS_ADDR_LIST) { h->bad++; continue; }
        for (int l = 0; l < 32; l++) h->bad += w->addrs[in->base + (uint64_t)l] != h->addr[i][l];
    }
    return 0;
}

/* a token near prev (digits only, no prefix): the same, one digit changed at some depth, one
 * digit more or less, or new; then maybe upper case and a "0x" / "0X" prefix */
static void hp_token(gms_rng *r, char *prev, char *out)
{
    size_t n = strlen(prev);
    switch (gms_rng_below(r, 5)) {
    case 0: break;
    case 1: prev[n - 1 - gms_rng_below(r, n)] = "0123456789abcdef"[gms_rng_below(r, 16)]; break;
    case 2: if (n < 16) { prev[n] = "0123456789abcdef"[gms_rng_below(r, 16)]; prev[n + 1] = 0; } break;
    case 3: if (n > 1) prev[n - 1] = 0; break;
    default: {
        size_t m = 1 + gms_rng_below(r, 16);
        for (size_t i = 0; i < m; i++) prev[i] = "0123456789abcdef"[gms_rng_below(r, 16)];
        prev[m] = 0;
    }
    }
    const char *pre = gms_rng_below(r, 4) ? "0x" : gms_rng_below(r, 2) ? "0X" : "";
    int upper = gms_rng_below(r, 8) == 0;
    size_t o = (size_t)sprintf(out, "%s", pre);
    for (size_t i = 0; prev[i]; i++) out[o++] = upper && prev[i] >= 'a' ? (char)(prev[i] - 32) : prev[i];
    out[o] = 0;
}

TEST(trace_hex_shared_prefix_matches_strtoull)
{
    static hp_want want;
    static char text[HP_LINES * 700 + 1024];
    gms_rng r;
    gms_rng_seed(&r, 30);
    char pc[20] = "0", ad[20] = "7f0000000000", tok[24];
    size_t o = (size_t)sprintf(text, "%sinsts = %d\n", HP_HDR, HP_LINES);
    memset(&want, 0, sizeof want);
    for (int i = 0; i < HP_LINES; i++) {
        hp_token(&r, pc, tok);
        if (strlen(pc) > 8) pc[8] = 0, tok[0] = 0;   /* a PC of 32 bits */
        if (!tok[0]) sprintf(tok, "%s", pc);
        want.pc[i] = (uint32_t)strtoull(tok, NULL, 16);
        o += (size_t)sprintf(text + o, "%s ffffffff 1 R2 LDG.E 1 R4 4 0", tok);
        for (int l = 0; l < 32; l++) {
            hp_token(&r, ad, tok);
            want.addr[i][l] = strtoull(tok, NULL, 16);
            o += (size_t)sprintf(text + o, "%s%s", gms_rng_below(&r, 10) ? " " : "\t", tok);
        }
        o += (size_t)sprintf(text + o, " 0\n");
    }
    sprintf(text + o, "#END_TB\n");
    char dir[256], p[512], k[512];
    make_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    write_file(p, "kernel-1.traceg\n");
    snprintf(k, sizeof k, "%s/kernel-1.traceg", dir);
    write_file(k, text);
    gms_program_src src;
    gms_error err = {0};
    REQUIRE(gms_trace_program(p, &src, &err) == 0);
    gms_trace_stats st;
    CHECK(gms_program_walk(&src, &st, hp_block, &want, &err) == 0);
    src.destroy(src.self);
    CHECK_EQ(want.bad, 0);
}

/* one parsed line: 0, or -1 with the error in msg */
static int hp_line(const char *line, char *msg, size_t cap)
{
    char text[2048];
    snprintf(text, sizeof text, "%sinsts = 1\n%s\n#END_TB\n", HP_HDR, line);
    return walk_one_kernel(text, NULL, NULL, msg, cap);
}

TEST(trace_hex_shared_prefix_errors)
{
    char msg[1100];
    /* 16 digits, then the same 16 and one more: 17 digits */
    CHECK(hp_line("0000 00000003 1 R2 LDG.E 1 R4 4 0 0x1000000000000000 0x10000000000000001 0", msg,
                  sizeof msg) == -1);
    CHECK_CONTAINS(msg, "got '0x10000000000000001'");
    /* a shared prefix, then a letter that is no digit */
    CHECK(hp_line("0000 00000003 1 R2 LDG.E 1 R4 4 0 0x7f0000000000 0x7f000000000g 0", msg, sizeof msg) == -1);
    CHECK_CONTAINS(msg, "got '0x7f000000000g'");
    /* "0" then "0x..." (the previous token had no prefix) */
    CHECK(hp_line("0000 00000003 1 R2 LDG.E 1 R4 4 0 0 0x12 0", msg, sizeof msg) == 0);
}
