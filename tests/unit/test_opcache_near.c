/* gms_opcache_get_near (the trace parser's opcode lookup by a hash of the text's words) gives
 * the entry gms_opcache_get gives, for texts of every length up to 16 and past it, inside a
 * line or at its end, met in a random order (so slots are reused by other texts and the
 * table grows in between). */
#include "test.h"
#include "frontend/trace_parse.h"
#include "util/rng.h"
#include <string.h>

TEST(opcache_near_matches_get)
{
    static const char *const ops[] = {
        "MOV", "S2R", "LEA", "IMAD", "IMAD.WIDE", "IMAD.WIDE.U32", "LDG.E", "LDG.E.64", "STG.E", "EXIT",
        "ISETP.GE.AND", "ISETP.GE.U32.AND", "ISETP.GE.U32.AND.EX", "FADD", "FADD.FTZ", "BRA", "BAR.SYNC",
        "IADD3", "IADD3.X", "SHF.R.U32.HI", "LOP3.LUT", "FFMA", "LDS.U.128", "STS.128", "ATOMG.E.ADD.STRONG.GPU",
        "RED.E.ADD.F32.FTZ.RN.STRONG.GPU", "NOP", "MUFU.RCP", "I2F", "F2I.TRUNC.NTZ", "SEL", "P2R",
    };
    const uint32_t nops = sizeof ops / sizeof ops[0];
    gms_opcache near, plain;
    memset(&near, 0, sizeof near);
    memset(&plain, 0, sizeof plain);
    gms_rng r;
    gms_rng_seed(&r, 7);
    char line[64];
    for (int i = 0; i < 5000; i++) {
        const char *op = ops[gms_rng_below(&r, nops)];
        size_t len = strlen(op);
        /* the text inside a line as the parser sees it, followed by other fields or (odd
         * steps) at the line's end, where fewer than 16 bytes are the line's */
        snprintf(line, sizeof line, "%s%s", op, i & 1 ? "" : " 2 R4 R5 0 0");
        const gms_opc_entry *a = gms_opcache_get_near(&near, GMS_ISA_VOLTA, line, len, line + strlen(line));
        const gms_opc_entry *b = gms_opcache_get(&plain, GMS_ISA_VOLTA, op, len);
        REQUIRE((a == NULL) == (b == NULL));
        if (!a) continue;
        CHECK(a->len == len && !memcmp(a->text, op, len));
        CHECK_EQ(a->id, b->id);
        CHECK(!memcmp(&a->info, &b->info, sizeof a->info));
    }
    CHECK_EQ(near.n, plain.n);
    gms_opcache_free(&near);
    gms_opcache_free(&plain);
}
