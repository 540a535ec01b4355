/* SASS opcode tables: what an Accel-Sim trace opcode (e.g. "LDG.E.64.STRONG.GPU") means to
 * the simulator. One table per ISA (Kepler, Pascal, Volta, Turing, Ampere), written from
 * Accel-Sim's gpu-simulator/ISA_Def/<isa>_opcode.h; the table is chosen by the kernel's
 * `-binary version`. Also the canonical opcode texts the trace writer uses (Volta). */
#ifndef GMS_FRONTEND_OPCODES_H
#define GMS_FRONTEND_OPCODES_H
#include <stddef.h>
#include <stdint.h>
#include "frontend/inst.h"

typedef enum {
    GMS_ISA_KEPLER = 0, GMS_ISA_PASCAL, GMS_ISA_VOLTA, GMS_ISA_TURING, GMS_ISA_AMPERE, GMS_ISA__COUNT
} gms_isa;

/* Accel-Sim's op categories (abstract_hardware_model.h op_type, as used by the tables) */
typedef enum {
    GMS_CAT_ALU = 0, GMS_CAT_INTP, GMS_CAT_SP, GMS_CAT_DP, GMS_CAT_SFU, GMS_CAT_LOAD, GMS_CAT_STORE,
    GMS_CAT_BRANCH, GMS_CAT_CALL, GMS_CAT_RET, GMS_CAT_EXIT, GMS_CAT_BARRIER, GMS_CAT_MEMBAR,
    GMS_CAT_SPEC1, GMS_CAT_SPEC2, GMS_CAT_SPEC3, GMS_CAT_SPEC4, GMS_CAT__COUNT
} gms_op_cat;

/* 0 and *isa set, or -1 when the binary version is not one we have a table for.
 * Kepler 30-37, Maxwell/Pascal 50-62 (Pascal table), Volta 70-72, Turing 73-75,
 * Ampere/Ada 80-89 (Ampere table). */
int gms_isa_from_binary_version(int binary_version, gms_isa *isa);
const char *gms_isa_name(gms_isa isa);

/* Look a base opcode name (text before the first '.') up in an ISA's table. */
int gms_opcode_category(gms_isa isa, const char *base, size_t len, gms_op_cat *cat);

/* What an opcode text decodes to. `op/mem/spec_unit` apply when the trace line carries
 * addresses (mem_width > 0); `nomem_op/nomem_spec` when it does not. */
typedef struct gms_opinfo {
    uint8_t op, mem, width, flags, spec_unit;
    uint8_t nomem_op, nomem_spec;
    uint8_t need_addr;   /* Accel-Sim asserts these carry addresses (LDG, STS, ATOM, ...) */
    uint8_t generic;     /* LD/ST: space resolved from the address (shared/local window) */
    uint8_t is_store;    /* generic ST */
    uint8_t bad_width;   /* the width suffix gives a size other than 1,2,4,8,16 bytes */
    uint8_t no_space;    /* a LOAD_OP/STORE_OP Accel-Sim gives no memory space (Kepler's LDSLK, STSCUL,
                          * SUCLAMP, SUBFM, SUEAU, SULDGA, SUSTGA): it takes the LDST unit, and
                          * Accel-Sim aborts on it when a lane is active (generate_mem_accesses) */
} gms_opinfo;

/* Decode a full opcode text. 0 on success; -1 if the base name is in no table of `isa`. */
int gms_opcode_decode(gms_isa isa, const char *text, size_t len, gms_opinfo *out);
/* Accel-Sim's rule: the first '.'-token that is a number N, or U<N>, gives N/8 bytes; else 4. */
unsigned gms_opcode_width(const char *text, size_t len);

/* ---- canonical opcode texts (writer) ----
 * Ids 1..GMS_OPCODE_DYN_BASE-1 name fixed Volta texts; readers give other texts ids from
 * GMS_OPCODE_DYN_BASE upwards, private to the kernel that read them. */
#define GMS_OPCODE_DYN_BASE 1024u
/* text of a canonical id, or NULL */
const char *gms_opcode_canon_text(uint16_t id);
/* canonical id of a text, or 0 */
uint16_t gms_opcode_canon_find(const char *text, size_t len);
/* The Volta opcode the writer uses for a record (never 0; 0 if the record cannot be
 * written: a memory width that is not 1, 2, 4, 8 or 16 bytes). */
uint16_t gms_opcode_choose(const gms_inst *in);

#endif
