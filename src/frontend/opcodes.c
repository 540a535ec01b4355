/* Opcode text -> gms_opinfo: execution class from the ISA table, memory space from the base
 * name, access width from the suffix (Accel-Sim's trace_parser.cc rule), L1 bypass for
 * LDG/LDGSTS/LDL ... .STRONG.GPU (trace_driven.cc). */
#include "frontend/opcodes.h"
#include <string.h>

static int tok_eq(const char *t, size_t n, const char *s)
{
    return strlen(s) == n && !memcmp(t, s, n);
}

static int all_digits(const char *t, size_t n)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (t[i] < '0' || t[i] > '9') return 0;
    return 1;
}

static unsigned digits_value(const char *t, size_t n)
{
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        v = v * 10u + (unsigned)(t[i] - '0');
        if (v > 100000u) return 100000u;   /* absurd sizes stay absurd without overflow */
    }
    return v;
}

unsigned gms_opcode_width(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len) {
        const char *t = text + i;
        const char *dot = memchr(t, '.', len - i);
        size_t n = dot ? (size_t)(dot - t) : len - i;
        if (n > 0) {
            if (all_digits(t, n)) return digits_value(t, n) / 8u;
            if (t[0] == 'U' && all_digits(t + 1, n - 1)) return digits_value(t + 1, n - 1) / 8u;
        }
        i += n + 1;
    }
    return 4;
}

static int has_token(const char *text, size_t len, const char *want)
{
    size_t i = 0;
    while (i < len) {
        const char *t = text + i;
        const char *dot = memchr(t, '.', len - i);
        size_t n = dot ? (size_t)(dot - t) : len - i;
        if (n > 0 && tok_eq(t, n, want)) return 1;
        i += n + 1;
    }
    return 0;
}

static void set_class(gms_opinfo *o, gms_op_cat cat)
{
    switch (cat) {
    case GMS_CAT_SP: o->op = GMS_OP_SP; break;
    case GMS_CAT_DP: o->op = GMS_OP_DP; break;
    case GMS_CAT_SFU: o->op = GMS_OP_SFU; break;
    /* Kepler/Pascal BRANCH_OP, CALL_OPS, RET_OPS: trace_config::set_latency gives them the INT
     * latency and interval, and GPGPU-Sim's scheduler_unit::cycle sends them where it sends
     * ALU_OP (the INT pipe, or the SP pipe without INT units): an INT instruction here */
    case GMS_CAT_BRANCH: case GMS_CAT_CALL: case GMS_CAT_RET: o->op = GMS_OP_INT; break;
    case GMS_CAT_EXIT: o->op = GMS_OP_EXIT; break;
    case GMS_CAT_BARRIER: o->op = GMS_OP_BAR; break;
    case GMS_CAT_SPEC1: o->op = GMS_OP_BRA; o->spec_unit = 1; break;
    case GMS_CAT_SPEC2: o->op = GMS_OP_TEX; o->spec_unit = 2; break;
    case GMS_CAT_SPEC3: o->op = GMS_OP_TENSOR; o->spec_unit = 3; break;
    case GMS_CAT_SPEC4: o->op = GMS_OP_UDP; o->spec_unit = 4; break;
    /* MEMORY_BARRIER_OP: every GPGPU-Sim scheduler_unit::cycle (3.x and 4.x) issues it to the
     * memory pipe (ID_OC_MEM) with the loads and stores; the LDST unit passes it in a cycle
     * with no access (undefined space: ldst_unit::cycle's stages are all done). A MEM
     * instruction with no memory space (GMS_MEM_NONE) */
    case GMS_CAT_MEMBAR: o->op = GMS_OP_MEM; break;
    default: o->op = GMS_OP_INT; break;   /* ALU, INTP; LOAD/STORE set below */
    }
}

int gms_opcode_decode(gms_isa isa, const char *text, size_t len, gms_opinfo *o)
{
    memset(o, 0, sizeof *o);
    size_t i = 0;
    while (i < len && text[i] == '.') i++;          /* Accel-Sim skips empty tokens */
    const char *base = text + i;
    const char *dot = memchr(base, '.', len - i);
    size_t bl = dot ? (size_t)(dot - base) : len - i;
    gms_op_cat cat;
    if (gms_opcode_category(isa, base, bl, &cat)) return -1;
    set_class(o, cat);
    if (cat == GMS_CAT_MEMBAR) o->flags |= GMS_INST_MEMBAR;
    o->nomem_op = o->op;
    o->nomem_spec = o->spec_unit;
    unsigned w = gms_opcode_width(text, len);
    o->width = (uint8_t)(w > 255 ? 255 : w);
    o->bad_width = !(w == 1 || w == 2 || w == 4 || w == 8 || w == 16);

    uint8_t mem = GMS_MEM_NONE;
    int need = 0;
#define IS(s) tok_eq(base, bl, s)
    if (IS("LDG")) { mem = GMS_MEM_LD_GLOBAL; need = 1; }
    else if (IS("LDL")) { mem = GMS_MEM_LD_LOCAL; need = 1; }
    else if (IS("STG")) { mem = GMS_MEM_ST_GLOBAL; need = 1; }
    else if (IS("STL")) { mem = GMS_MEM_ST_LOCAL; need = 1; }
    else if (IS("LDS") || IS("LDSM")) { mem = GMS_MEM_LD_SHARED; need = 1; }
    else if (IS("STS")) { mem = GMS_MEM_ST_SHARED; need = 1; }
    else if (IS("ATOM") || IS("ATOMG") || IS("RED")) { mem = GMS_MEM_ATOM_GLOBAL; need = 1; }
    else if (IS("ATOMS")) { mem = GMS_MEM_ATOM_SHARED; need = 1; }
    else if (IS("LDGSTS")) mem = GMS_MEM_LDGSTS;
    else if (IS("LDC")) mem = GMS_MEM_LD_CONST;
    else if (IS("TEX") || IS("TLD") || IS("TLD4") || IS("TMML") || IS("TXD") || IS("TXQ") ||
             IS("TEXS") || IS("TLD4S") || IS("TLDS")) mem = GMS_MEM_LD_TEX;
    else if (IS("LD") || IS("ST")) {
        need = 1;
        if (isa == GMS_ISA_KEPLER) mem = IS("LD") ? GMS_MEM_LD_GLOBAL : GMS_MEM_ST_GLOBAL;
        else { o->generic = 1; o->is_store = (uint8_t)IS("ST"); mem = IS("LD") ? GMS_MEM_LD_GLOBAL : GMS_MEM_ST_GLOBAL; }
    }
    /* Accel-Sim's parse_from_trace_struct: "FP16 has 2X throughput than FP32" for exactly
     * these (not HMUL2, HMNMX2), whatever the ISA */
    if (IS("HADD2") || IS("HADD2_32I") || IS("HFMA2") || IS("HFMA2_32I") || IS("HMUL2_32I") || IS("HSET2") ||
        IS("HSETP2"))
        o->flags |= GMS_INST_HALF_II;
#undef IS
    if (mem == GMS_MEM_NONE && (cat == GMS_CAT_LOAD || cat == GMS_CAT_STORE)) {
        /* Kepler's LDSLK, STSCUL and surface ops: LOAD_OP / STORE_OP in Accel-Sim's table, but
         * parse_from_trace_struct gives them no memory space. To the LDST unit, with or without
         * addresses; with an active lane Accel-Sim aborts (the trace reader refuses it), with
         * none it passes the unit without an access (a global access with no lane here) */
        o->op = o->nomem_op = GMS_OP_MEM;
        o->mem = cat == GMS_CAT_LOAD ? GMS_MEM_LD_GLOBAL : GMS_MEM_ST_GLOBAL;
        o->no_space = 1;
        return 0;
    }
    if (mem != GMS_MEM_NONE) {
        o->op = GMS_OP_MEM;
        o->mem = mem;
        o->spec_unit = 0;
        o->need_addr = (uint8_t)need;
        /* trace_warp_inst_t::parse_from_trace_struct (accel-sim-framework e5653f0): OP_LDG,
         * OP_LDGSTS and OP_LDL share one case, which sets cache_op = CACHE_GLOBAL (around the
         * L1D in ldst_unit::memory_cycle) when the opcode has the tokens STRONG and GPU */
        if ((mem == GMS_MEM_LD_GLOBAL || mem == GMS_MEM_LD_LOCAL || mem == GMS_MEM_LDGSTS) && !o->generic &&
            has_token(text, len, "STRONG") && has_token(text, len, "GPU"))
            o->flags |= GMS_INST_BYPASS_L1;
        if (o->nomem_op == GMS_OP_MEM) o->nomem_op = GMS_OP_INT;
    }
    return 0;
}
