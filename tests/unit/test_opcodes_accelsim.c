/* Opcode decoding as Accel-Sim's trace front end does it (trace_driven.cc: set_latency,
 * parse_from_trace_struct; GPGPU-Sim's scheduler_unit::cycle for the pipe): the classes the
 * SM sees per ISA table. */
#include "test.h"
#include "frontend/opcodes.h"

static gms_opinfo dec(gms_isa isa, const char *text)
{
    gms_opinfo o;
    memset(&o, 0xee, sizeof o);
    CHECK_EQ(gms_opcode_decode(isa, text, strlen(text), &o), 0);
    return o;
}

/* Kepler/Pascal BRANCH_OP, CALL_OPS, RET_OPS take the INT latency (set_latency) and go where
 * ALU_OP goes (the INT pipe): an INT instruction. Volta+ branches are specialised unit 1's. */
TEST(opcode_kepler_pascal_branches_are_int)
{
    static const char *const kepler[] = {"BRA", "BRX", "JMP", "JMX", "BPT", "CAL", "JCAL", "RET", "BRK", "CONT",
                                         "SSY", "PBK", "PCNT", "PRET"};
    for (size_t i = 0; i < sizeof kepler / sizeof kepler[0]; i++) {
        gms_opinfo o = dec(GMS_ISA_KEPLER, kepler[i]);
        CHECK_EQ(o.op, GMS_OP_INT);
        CHECK_EQ(o.nomem_op, GMS_OP_INT);
        CHECK_EQ(o.spec_unit, 0);
    }
    static const char *const pascal[] = {"BRA", "BSSY", "SYNC", "WARPSYNC", "CALL", "PBK", "PEXIT", "RET", "RTT"};
    for (size_t i = 0; i < sizeof pascal / sizeof pascal[0]; i++) {
        gms_opinfo o = dec(GMS_ISA_PASCAL, pascal[i]);
        CHECK_EQ(o.op, GMS_OP_INT);
        CHECK_EQ(o.spec_unit, 0);
    }
    for (gms_isa isa = GMS_ISA_VOLTA; isa <= GMS_ISA_AMPERE; isa++) {
        gms_opinfo o = dec(isa, "BRA");
        CHECK_EQ(o.op, GMS_OP_BRA);
        CHECK_EQ(o.spec_unit, 1);
    }
}

/* Turing/Ampere SPECIALIZED_UNIT_4_OP (uniform datapath) has a pipe of its own */
TEST(opcode_uniform_datapath_has_its_own_pipe)
{
    static const char *const udp[] = {"ULDC", "S2UR", "R2UR", "UIADD3", "UMOV", "VOTEU"};
    for (size_t i = 0; i < sizeof udp / sizeof udp[0]; i++) {
        gms_opinfo t = dec(GMS_ISA_TURING, udp[i]);
        CHECK_EQ(t.op, GMS_OP_UDP);
        CHECK_EQ(t.spec_unit, 4);
        gms_opinfo a = dec(GMS_ISA_AMPERE, udp[i]);
        CHECK_EQ(a.op, GMS_OP_UDP);
        CHECK_EQ(a.spec_unit, 4);
    }
    gms_opinfo r = dec(GMS_ISA_AMPERE, "REDUX.SUM");
    CHECK_EQ(r.op, GMS_OP_UDP);
    CHECK_EQ(r.spec_unit, 4);
}
