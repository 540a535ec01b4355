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

/* Kepler's LDSLK, STSCUL and surface ops: LOAD_OP / STORE_OP with no memory space (the LDST
 * unit; the reader refuses an active lane, as Accel-Sim aborts) */
TEST(opcode_kepler_no_space_loads_stores)
{
    static const char *const ld[] = {"LDSLK", "SUCLAMP", "SUBFM", "SUEAU", "SULDGA"};
    static const char *const st[] = {"STSCUL", "SUSTGA"};
    for (size_t i = 0; i < sizeof ld / sizeof ld[0]; i++) {
        gms_opinfo o = dec(GMS_ISA_KEPLER, ld[i]);
        CHECK_EQ(o.op, GMS_OP_MEM);
        CHECK_EQ(o.nomem_op, GMS_OP_MEM);
        CHECK_EQ(o.mem, GMS_MEM_LD_GLOBAL);
        CHECK_EQ(o.no_space, 1);
        CHECK_EQ(o.need_addr, 0);
    }
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        gms_opinfo o = dec(GMS_ISA_KEPLER, st[i]);
        CHECK_EQ(o.op, GMS_OP_MEM);
        CHECK_EQ(o.mem, GMS_MEM_ST_GLOBAL);
        CHECK_EQ(o.no_space, 1);
    }
    /* the ones Accel-Sim gives a space keep it */
    gms_opinfo s = dec(GMS_ISA_KEPLER, "LDS.U.128");
    CHECK_EQ(s.mem, GMS_MEM_LD_SHARED);
    CHECK_EQ(s.no_space, 0);
    gms_opinfo g = dec(GMS_ISA_KEPLER, "ST.E");
    CHECK_EQ(g.mem, GMS_MEM_ST_GLOBAL);
    CHECK_EQ(g.no_space, 0);
}
