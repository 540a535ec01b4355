/* Opcode -> category tables, one per ISA, transcribed from Accel-Sim's
 * gpu-simulator/ISA_Def/{kepler,pascal,volta,turing,ampere}_opcode.h (accel-sim-framework).
 * Each row lists the base names (space-separated) that map to one category. Lookups happen
 * once per distinct opcode text per kernel (the parser caches them), so a scan is enough. */
#include "frontend/opcodes.h"
#include <string.h>

typedef struct { gms_op_cat cat; const char *names; } cat_row;

#define VOLTA_SP "FADD FADD32I FCHK FFMA32I FFMA FMNMX FMUL FMUL32I FSEL FSET FSETP FSWZADD " \
                 "HADD2 HADD2_32I HFMA2 HFMA2_32I HMUL2 HMUL2_32I HSET2 HSETP2"
#define MEM_LS_LOAD "LD LDG LDL LDS"
#define MEM_LS_STORE "ST STG STL STS ATOM ATOMS ATOMG RED"
#define MISC_ALU "B2R CS2R CSMTEST DEPBAR GETLMEMBASE LEPC NOP PMTRIG R2B S2R SETCTAID " \
                 "SETLMEMBASE VOTE VOTE_VTG"
#define MEM_ALU "LDC MATCH QSPC CCTL CCTLL ERRBAR CCTLT"
#define PRED_ALU "PLOP3 PSETP P2R R2P"
#define TEX_NAMES "TEX TLD TLD4 TMML TXD TXQ"
#define INT_VOLTA "BMSK BREV FLO IABS IADD IADD3 IADD32I IDP IDP4A IMAD IMNMX IMUL IMUL32I " \
                  "ISCADD ISCADD32I ISETP LEA LOP LOP3 LOP32I POPC SHF SHR VABSDIFF VABSDIFF4"
#define UNIFORM_TURING "R2UR S2UR UBMSK UBREV UCLEA UFLO UIADD3 UIMAD UISETP ULDC ULEA ULOP " \
                       "ULOP3 ULOP32I UMOV UP2UR UPLOP3 UPOPC UPRMT UPSETP UR2UP USEL USGXT " \
                       "USHF USHL USHR VOTEU"
#define BRANCH_TURING "BMOV BPT BRA BREAK BRX BRXU BSSY BSYNC CALL JMP JMX JMXU NANOSLEEP RET " \
                      "RPCMOV RTT WARPSYNC YIELD"
#define SURFACE_TURING "SUATOM SULD SURED SUST"

static const cat_row KEPLER[] = {
    {GMS_CAT_SP, "FFMA FFMA32I FADD FADD32I FCMP FMUL FMUL32I FMNMX FSWZ FSET FSETP FCHK RRO"},
    {GMS_CAT_SFU, "MUFU"},
    {GMS_CAT_DP, "DFMA DADD DMUL DMNMX DSET DSETP"},
    {GMS_CAT_INTP, "IMAD IMADSP IMUL IMUL32I IADD IADD32I ISUB ISCADD ISCADD32I ISAD IMNMX BFE BFI "
                   "SHR SHL SHF LOP LOP32I FLO ISET ISETP ICMP POPC"},
    {GMS_CAT_ALU, "F2F F2I I2F I2I MOV MOV32I SEL PRMT SHFL P2R R2P CSET CSETP PSET PSETP "
                  "TEX TLD TLD4 TXQ LDC CCTL CCTLL NOP S2R B2R VOTE"},
    {GMS_CAT_LOAD, "LD LDG LDL LDS LDSLK SUCLAMP SUBFM SUEAU SULDGA"},
    {GMS_CAT_STORE, "ST STL STS STSCUL ATOM RED SUSTGA"},
    {GMS_CAT_MEMBAR, "MEMBAR"},
    {GMS_CAT_BRANCH, "BRA BRX JMP JMX BPT"},
    {GMS_CAT_CALL, "CAL JCAL"},
    {GMS_CAT_RET, "RET BRK CONT SSY PBK PCNT PRET"},
    {GMS_CAT_EXIT, "EXIT"},
    {GMS_CAT_BARRIER, "BAR"},
};

static const cat_row PASCAL[] = {
    {GMS_CAT_SP, "FADD FADD32I FCHK FFMA32I FFMA FMNMX FMUL FMUL32I FSEL FSET FSETP FSWZADD RRO FCMP "
                 "HADD2 HFMA2 HMUL2 HSET2 HSETP2"},
    {GMS_CAT_SFU, "MUFU"},
    {GMS_CAT_DP, "DADD DFMA DMUL DSETP DMNMX DSET"},
    {GMS_CAT_INTP, "BMSK BREV FLO IABS IADD IADD3 IADD32I IDP IDP4A IMAD IMMA IMNMX IMUL IMUL32I "
                   "ISCADD ISCADD32I ISETP ISET LEA LOP LOP3 LOP32I POPC SHF SHR VABSDIFF VABSDIFF4 "
                   "VADD BFE BFI ICMP IMADSP SHL XMAD VMNMX"},
    {GMS_CAT_ALU, "F2F F2I I2F I2I I2IP FRND MOV MOV32I PRMT SEL SGXT SHFL " PRED_ALU
                  " CSET CSETP PSET " MEM_ALU " " TEX_NAMES " TEXS TLD4S TLDS " MISC_ALU},
    {GMS_CAT_LOAD, MEM_LS_LOAD},
    {GMS_CAT_STORE, MEM_LS_STORE},
    {GMS_CAT_MEMBAR, "MEMBAR"},
    {GMS_CAT_BRANCH, "BMOV BPT BRA BREAK BRX BSSY BSYNC JMP SSY SYNC JMX KILL NANOSLEEP RPCMOV "
                     "WARPSYNC YIELD"},
    {GMS_CAT_CALL, "CALL CAL JCAL PRET BRK PBK CONT PCNT PEXIT"},
    {GMS_CAT_RET, "RET RTT"},
    {GMS_CAT_EXIT, "EXIT"},
    {GMS_CAT_BARRIER, "BAR"},
};

static const cat_row VOLTA[] = {
    {GMS_CAT_SP, VOLTA_SP},
    {GMS_CAT_SFU, "MUFU"},
    {GMS_CAT_SPEC3, "HMMA"},
    {GMS_CAT_DP, "DADD DFMA DMUL DSETP"},
    {GMS_CAT_INTP, INT_VOLTA " IMMA"},
    {GMS_CAT_ALU, "F2F F2I I2F I2I I2IP FRND MOV MOV32I PRMT SEL SGXT SHFL " PRED_ALU " " MEM_ALU
                  " " MISC_ALU},
    {GMS_CAT_LOAD, MEM_LS_LOAD},
    {GMS_CAT_STORE, MEM_LS_STORE},
    {GMS_CAT_MEMBAR, "MEMBAR"},
    {GMS_CAT_SPEC2, TEX_NAMES},
    {GMS_CAT_SPEC1, "BMOV BPT BRA BREAK BRX BSSY BSYNC CALL JMP JMX KILL NANOSLEEP RET RPCMOV RTT "
                    "WARPSYNC YIELD"},
    {GMS_CAT_EXIT, "EXIT"},
    {GMS_CAT_BARRIER, "BAR"},
};

static const cat_row TURING[] = {
    {GMS_CAT_SP, VOLTA_SP},
    {GMS_CAT_SFU, "MUFU"},
    {GMS_CAT_SPEC3, "HMMA BMMA IMMA KILL"},
    {GMS_CAT_DP, "DADD DFMA DMUL DSETP"},
    {GMS_CAT_INTP, INT_VOLTA " SHL"},
    {GMS_CAT_ALU, "F2F F2I I2F I2I I2IP FRND MOV MOV32I MOVM PRMT SEL SGXT SHFL " PRED_ALU " "
                  MEM_ALU " " SURFACE_TURING " " MISC_ALU},
    {GMS_CAT_LOAD, MEM_LS_LOAD " LDSM"},
    {GMS_CAT_STORE, MEM_LS_STORE},
    {GMS_CAT_MEMBAR, "MEMBAR"},
    {GMS_CAT_SPEC4, UNIFORM_TURING},
    {GMS_CAT_SPEC2, TEX_NAMES},
    {GMS_CAT_SPEC1, BRANCH_TURING},
    {GMS_CAT_EXIT, "EXIT"},
    {GMS_CAT_BARRIER, "BAR"},
};

static const cat_row AMPERE[] = {
    {GMS_CAT_SP, VOLTA_SP " HMNMX2"},
    {GMS_CAT_SFU, "MUFU"},
    {GMS_CAT_SPEC3, "HMMA DMMA BMMA IMMA KILL"},
    {GMS_CAT_DP, "DADD DFMA DMUL DSETP"},
    {GMS_CAT_INTP, INT_VOLTA " SHL"},
    {GMS_CAT_ALU, "F2F F2FP F2I I2F I2I I2IP I2FP F2IP FRND MOV MOV32I MOVM PRMT SEL SGXT SHFL "
                  PRED_ALU " " MEM_ALU " LDGDEPBAR " SURFACE_TURING " SUQUERY " MISC_ALU},
    {GMS_CAT_LOAD, MEM_LS_LOAD " LDSM LDGSTS"},
    {GMS_CAT_STORE, MEM_LS_STORE},
    {GMS_CAT_MEMBAR, "MEMBAR"},
    {GMS_CAT_SPEC4, UNIFORM_TURING " REDUX UF2FP"},
    {GMS_CAT_SPEC2, TEX_NAMES},
    {GMS_CAT_SPEC1, BRANCH_TURING},
    {GMS_CAT_EXIT, "EXIT"},
    {GMS_CAT_BARRIER, "BAR"},
};

static const struct { const cat_row *rows; size_t n; const char *name; } TABLES[GMS_ISA__COUNT] = {
    [GMS_ISA_KEPLER] = {KEPLER, sizeof KEPLER / sizeof KEPLER[0], "Kepler"},
    [GMS_ISA_PASCAL] = {PASCAL, sizeof PASCAL / sizeof PASCAL[0], "Pascal"},
    [GMS_ISA_VOLTA] = {VOLTA, sizeof VOLTA / sizeof VOLTA[0], "Volta"},
    [GMS_ISA_TURING] = {TURING, sizeof TURING / sizeof TURING[0], "Turing"},
    [GMS_ISA_AMPERE] = {AMPERE, sizeof AMPERE / sizeof AMPERE[0], "Ampere"},
};

const char *gms_isa_name(gms_isa isa) { return isa < GMS_ISA__COUNT ? TABLES[isa].name : "?"; }

int gms_isa_from_binary_version(int bv, gms_isa *isa)
{
    if (bv >= 30 && bv <= 37) *isa = GMS_ISA_KEPLER;
    else if (bv >= 50 && bv <= 62) *isa = GMS_ISA_PASCAL;
    else if (bv >= 70 && bv <= 72) *isa = GMS_ISA_VOLTA;
    else if (bv >= 73 && bv <= 75) *isa = GMS_ISA_TURING;
    else if (bv >= 80 && bv <= 89) *isa = GMS_ISA_AMPERE;
    else return -1;
    return 0;
}

/* whole-word match of name[0..len) in a space-separated list */
static int in_list(const char *list, const char *name, size_t len)
{
    const char *p = list;
    while (*p) {
        while (*p == ' ') p++;
        const char *q = p;
        while (*q && *q != ' ') q++;
        if ((size_t)(q - p) == len && !memcmp(p, name, len)) return 1;
        p = q;
    }
    return 0;
}

int gms_opcode_category(gms_isa isa, const char *base, size_t len, gms_op_cat *cat)
{
    if (isa >= GMS_ISA__COUNT || len == 0) return -1;
    for (size_t i = 0; i < TABLES[isa].n; i++)
        if (in_list(TABLES[isa].rows[i].names, base, len)) {
            *cat = TABLES[isa].rows[i].cat;
            return 0;
        }
    return -1;
}
