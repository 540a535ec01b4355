/* Canonical Volta opcode texts for the trace writer: one text per (class, memory kind, width,
 * L1 bypass) so that writing a record and reading it back gives the same record. */
#include "frontend/opcodes.h"
#include <string.h>

#define W5(a, b) a ".U8" b, a ".U16" b, a b, a ".64" b, a ".128" b

enum {
    C_MOV = 1, C_IMAD, C_FFMA, C_DFMA, C_MUFU, C_HMMA, C_BRA, C_BAR, C_EXIT, C_NOP, C_TEXOP,
    C_LDG = 12, C_LDG_BYP = C_LDG + 5, C_STG = C_LDG_BYP + 5, C_LDL = C_STG + 5,
    C_LDL_BYP = C_LDL + 5, C_STL = C_LDL_BYP + 5, C_LDS = C_STL + 5, C_STS = C_LDS + 5,
    C_LDC = C_STS + 5, C_TLD = C_LDC + 5, C_ATOMG = C_TLD + 5, C_RED = C_ATOMG + 5,
    C_ATOMS = C_RED + 5, C_END = C_ATOMS + 5
};

static const char *const CANON[C_END] = {
    NULL, "MOV", "IMAD", "FFMA", "DFMA", "MUFU.EX2", "HMMA.884.F32.F32", "BRA", "BAR.SYNC", "EXIT",
    "NOP", "TEX",
    W5("LDG.E", ""), W5("LDG.E", ".STRONG.GPU"), W5("STG.E", ""),
    W5("LDL", ""), W5("LDL", ".STRONG.GPU"), W5("STL", ""),
    W5("LDS", ""), W5("STS", ""), W5("LDC", ""), W5("TLD", ""),
    W5("ATOMG.E.ADD", ".STRONG.GPU"), W5("RED.E.ADD", ".STRONG.GPU"), W5("ATOMS.ADD", ""),
};

const char *gms_opcode_canon_text(uint16_t id)
{
    return id > 0 && id < C_END ? CANON[id] : NULL;
}

uint16_t gms_opcode_canon_find(const char *text, size_t len)
{
    for (uint16_t i = 1; i < C_END; i++)
        if (strlen(CANON[i]) == len && !memcmp(CANON[i], text, len)) return i;
    return 0;
}

static int width_index(unsigned w)
{
    switch (w) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    default: return -1;
    }
}

uint16_t gms_opcode_choose(const gms_inst *in)
{
    int has_src = 0;
    for (int i = 0; i < GMS_MAX_SRC; i++) has_src |= in->src[i] != GMS_REG_NONE;
    switch (in->op) {
    case GMS_OP_INT: return has_src ? C_IMAD : C_MOV;
    case GMS_OP_SP: return C_FFMA;
    case GMS_OP_DP: return C_DFMA;
    case GMS_OP_SFU: return C_MUFU;
    case GMS_OP_TENSOR: return C_HMMA;
    case GMS_OP_BRA: return C_BRA;
    case GMS_OP_BAR: return C_BAR;
    case GMS_OP_EXIT: return C_EXIT;
    case GMS_OP_NOP: return C_NOP;
    case GMS_OP_TEX: return C_TEXOP;
    case GMS_OP_MEM: break;
    default: return 0;
    }
    int wi = width_index(in->width);
    if (wi < 0) return 0;
    int byp = (in->flags & GMS_INST_BYPASS_L1) != 0;
    int base;
    switch (in->mem) {
    case GMS_MEM_LD_GLOBAL: case GMS_MEM_LDGSTS: base = byp ? C_LDG_BYP : C_LDG; break;
    case GMS_MEM_ST_GLOBAL: base = C_STG; break;
    case GMS_MEM_LD_LOCAL: base = byp ? C_LDL_BYP : C_LDL; break;
    case GMS_MEM_ST_LOCAL: base = C_STL; break;
    case GMS_MEM_LD_SHARED: base = C_LDS; break;
    case GMS_MEM_ST_SHARED: base = C_STS; break;
    case GMS_MEM_LD_CONST: base = C_LDC; break;
    case GMS_MEM_LD_TEX: base = C_TLD; break;
    case GMS_MEM_ATOM_GLOBAL: base = in->dst[0] != GMS_REG_NONE ? C_ATOMG : C_RED; break;
    case GMS_MEM_ATOM_SHARED: base = C_ATOMS; break;
    default: return 0;
    }
    return (uint16_t)(base + wi);
}
