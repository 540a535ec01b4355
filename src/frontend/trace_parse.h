/* Parsing of one kernel-N.traceg: the `-key = value` header, then thread blocks
 * (#BEGIN_TB / thread block = x,y,z / warp = w / insts = n / n instruction lines / #END_TB)
 * read one at a time into a gms_block_trace. Internal to the trace reader. */
#ifndef GMS_FRONTEND_TRACE_PARSE_H
#define GMS_FRONTEND_TRACE_PARSE_H
#include <stdint.h>
#include <string.h>
#include "frontend/inst.h"
#include "frontend/opcodes.h"
#include "frontend/trace_lines.h"

typedef struct gms_trace_hdr {
    char name[256];
    int kernel_id;
    gms_dim3 grid, block;
    uint32_t shmem, nregs;
    uint64_t stream;            /* -cuda stream id as written (a CUstream handle value) */
    int binary_version, tracer_version, lineinfo;
    uint64_t shmem_base, local_base;
    gms_isa isa;
} gms_trace_hdr;

/* Reads header lines up to the first '#' line (the "#traces format" line; a "#BEGIN_TB"
 * there is pushed back). Requires grid dim, block dim and binary version. */
int gms_trace_read_header(gms_linereader *lr, gms_trace_hdr *h, gms_error *err);

/* Opcode texts seen in one kernel -> decoded info and id (a small open-addressing table). */
typedef struct gms_opc_entry {
    char *text;
    uint64_t w[2];              /* the text's first 16 bytes, zero past its end (gms_opcache_get_near) */
    uint32_t len, hash;
    uint16_t id;
    gms_opinfo info;
} gms_opc_entry;

typedef struct gms_opcache {
    gms_opc_entry *slots;
    uint32_t cap, n;
    char **dyn;                 /* dyn[id - GMS_OPCODE_DYN_BASE] = text */
    uint8_t *dyn_own;           /* dyn_own[k]: dyn[k] is owned by dyn[] (not a slot's text) */
    uint32_t ndyn, dyn_cap;
    uint32_t near[256];         /* gms_opcache_get_near: a slot by a hash of the text's words */
} gms_opcache;

void gms_opcache_free(gms_opcache *c);
/* text of an opcode id (canonical or seen by this cache), or NULL */
const char *gms_opcache_text(const gms_opcache *c, uint16_t id);
/* append a text as the next dynamic id (the trace cache restoring a parser's texts in the
 * order the parser met them; the texts are not entered in the lookup table) */
void gms_opcache_push_dyn(gms_opcache *c, const char *text);
/* the entry for text (decoded on first sight); NULL with err if no table knows it */
const gms_opc_entry *gms_opcache_get(gms_opcache *c, gms_isa isa, const char *text, size_t len);
/* gms_opcache_get_near's miss: gms_opcache_get, and the entry's slot recorded at near[k] */
const gms_opc_entry *gms_opcache_get_near_miss(gms_opcache *c, gms_isa isa, const char *text, size_t len,
                                               uint32_t k);
/* gms_opcache_get for a text inside a line (end: the line's NUL): a text of at most 16 bytes
 * is first looked for in the slot its words' hash last led to, and taken when the entry's
 * words and length equal it (a slot reused by another text, or an empty or grown table,
 * fails the compare). Host speed: one multiply and two compares instead of FNV-1a over the
 * characters and a memcmp; inline, the miss out of line. */
static inline const gms_opc_entry *gms_opcache_get_near(gms_opcache *c, gms_isa isa, const char *text,
                                                        size_t len, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (len <= 16) {
        uint64_t w0, w1;
        if (end - text >= 15) {
            memcpy(&w0, text, 8);
            memcpy(&w1, text + 8, 8);
            if (len < 8) {   /* the bytes past the text out, as in e->w */
                w0 &= (1ULL << 8 * len) - 1;
                w1 = 0;
            } else if (len < 16) {
                w1 &= (1ULL << 8 * (len - 8)) - 1;
            }
        } else {             /* near the line's end ("EXIT 0 0 0"): the text's bytes alone */
            uint64_t w[2] = { 0, 0 };
            memcpy(w, text, len);
            w0 = w[0];
            w1 = w[1];
        }
        uint32_t k = (uint32_t)(((w0 ^ w1 * 31) * 0x9E3779B97F4A7C15ULL) >> 56);
        uint32_t j = c->near[k];
        if (j < c->cap) {
            const gms_opc_entry *e = &c->slots[j];
            if (e->text && e->len == len && e->w[0] == w0 && e->w[1] == w1) return e;
        }
        return gms_opcache_get_near_miss(c, isa, text, len, k);
    }
#else
    (void)end;
#endif
    return gms_opcache_get(c, isa, text, len);
}

/* The previous token of one field (a line's PC, its mask, a lane's address), for the parser's
 * shortcut over a shared prefix: the first 16 bytes of its text from where the field's scan
 * starts (the blanks before the token, the token and the character after it), that text's
 * length up to the character after the token, the blanks before it, where its digits start
 * (after the blanks and "0x"; GMS_HEX_MEMO_NONE: no usable token, so nothing matches) and its
 * value. */
#define GMS_HEX_MEMO_NONE 16
typedef struct gms_hex_memo {
    uint64_t txt[2], v;
    uint8_t len, ws, hs;
} gms_hex_memo;

typedef struct gms_trace_dec {
    gms_trace_hdr hdr;
    gms_hex_memo pc, mask, addr;
    int memo_set;               /* the memos were set to GMS_HEX_MEMO_NONE (first block) */
    gms_opcache oc;
    uint32_t nwarps;            /* warps per block from the block dim */
    uint64_t *seen;             /* the grid's blocks read so far (a block twice is an error); malloc'd */
} gms_trace_dec;

/* Read the next thread block: 1 = read into out, 0 = no more blocks, -1 = error. */
int gms_trace_read_block(gms_linereader *lr, gms_trace_dec *d, gms_block_trace *out, gms_error *err);

#endif
