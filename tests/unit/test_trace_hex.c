/* trace_parse.c reads PCs, masks and listed addresses in one pass (next_hex); tokens it does
 * not take as plain hex go through the general tokenizer, so values and errors are those of
 * the general path: 0x / 0X prefixes, upper and lower case, 16 digits, leading zeros; and
 * 17 digits, a bare "0x", a bad digit after the prefix, a digit run glued to a letter. */
#include "test.h"
#include "test_trace_util.h"
#include "frontend/trace.h"
#include <string.h>

#define HX_HDR "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n" \
               "-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n-accelsim tracer version = 4\n\n" \
               "#traces format = ...\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"

typedef struct hx_seen { uint32_t pc, mask; uint64_t addr[2]; int n; } hx_seen;

static int hx_block(void *ud, const gms_kernel_src *k, uint64_t block, const gms_block_trace *b)
{
    hx_seen *s = ud;
    const gms_warp_trace *w = &b->warps[0];
    if (!w->n) return 0;
    const gms_inst *in = &w->insts[0];
    s->pc = in->pc;
    s->mask = in->mask;
    s->n = 0;
    if (in->addr_mode == GMS_ADDR_LIST)
        for (uint32_t i = 0; i < 2 && in->base + i < w->naddr; i++) s->addr[s->n++] = w->addrs[in->base + i];
    return 0;
}

/* parses one instruction line; 0 with *s filled, or -1 with the error in msg */
static int hx_parse(const char *line, hx_seen *s, char *msg, size_t cap)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s\n#END_TB\n", HX_HDR, line);
    memset(s, 0, sizeof *s);
    return walk_one_kernel(text, hx_block, s, msg, cap);
}

TEST(trace_hex_tokens_values_and_errors)
{
    hx_seen s;
    char msg[1100];
    REQUIRE(hx_parse("00F0 0X00000003 1 R2 LDG.E 1 R4 4 0 0x7F00aBcD 0XFFFFFFFFFFFFFFFF 0", &s, msg, sizeof msg) == 0);
    CHECK_EQ(s.pc, 0xf0);
    CHECK_EQ(s.mask, 3);
    CHECK_EQ(s.n, 2);
    CHECK_EQ(s.addr[0], 0x7f00abcdULL);
    CHECK_EQ(s.addr[1], 0xffffffffffffffffULL);
    REQUIRE(hx_parse("0000000000000010 ffffffff 0 EXIT 0 0 0", &s, msg, sizeof msg) == 0);   /* 16 digits */
    CHECK_EQ(s.pc, 0x10);
    /* errors: the field named, the token quoted */
    CHECK(hx_parse("00000000000000010 ffffffff 0 EXIT 0 0 0", &s, msg, sizeof msg) == -1);   /* 17 digits */
    CHECK_CONTAINS(msg, "field 'pc': expected a hex PC, got '00000000000000010'");
    CHECK(hx_parse("0x ffffffff 0 EXIT 0 0 0", &s, msg, sizeof msg) == -1);
    CHECK_CONTAINS(msg, "got '0x'");
    CHECK(hx_parse("0000 0xfffg 0 EXIT 0 0 0", &s, msg, sizeof msg) == -1);
    CHECK_CONTAINS(msg, "field 'mask': expected a 32-bit hex mask, got '0xfffg'");
    CHECK(hx_parse("0000 1ffffffff 0 EXIT 0 0 0", &s, msg, sizeof msg) == -1);                /* > 32 bits */
    CHECK_CONTAINS(msg, "field 'mask'");
    CHECK(hx_parse("0000 00000003 1 R2 LDG.E 1 R4 4 0 0x10 12z 0", &s, msg, sizeof msg) == -1);
    CHECK_CONTAINS(msg, "field 'address': expected a hex address (one per active lane), got '12z'");
    CHECK(hx_parse("0000 00000001 1 R2 LDG.E 1 R4 4 0 0x1\t0", &s, msg, sizeof msg) == 0);     /* tab ends it */
}
