/* Writing Accel-Sim traces: kernel header, thread blocks and instruction lines (tracer
 * version 4 or 5 layout, Volta opcodes), and a whole program as a trace directory. */
#ifndef GMS_FRONTEND_TRACE_WRITE_H
#define GMS_FRONTEND_TRACE_WRITE_H
#include <stdio.h>
#include "frontend/program.h"

#define GMS_TRACE_BINARY_VERSION 70   /* Volta: the opcode texts the writer uses */

typedef struct gms_tw_buf { char *p; size_t n, cap; } gms_tw_buf;
void gms_tw_buf_free(gms_tw_buf *b);

/* Opcode text for a record: its opcode_id when known (canonical ids; otherwise `resolve`,
 * e.g. the texts of the trace it came from), else the writer's Volta choice. */
typedef const char *(*gms_opcode_resolver)(const void *ud, uint16_t id);

/* Append one instruction line (with '\n'); -1 with err when the record has no opcode text. */
int gms_tw_inst(gms_tw_buf *b, const gms_warp_trace *w, const gms_inst *in, gms_opcode_resolver resolve,
                const void *ud, gms_error *err);
/* The address fields of a memory line, chosen as the tracer does: "1 base stride" when the
 * active lanes are contiguous and evenly spaced (stride fits in 32 bits; also one lane, and
 * no lane: "1 0x0 0"), else "2 base delta..." (popcount-1 deltas) when every delta fits in 32
 * bits, else "0 addr...". */
void gms_tw_addrs(gms_tw_buf *b, const gms_warp_trace *w, const gms_inst *in);
/* binary_version: GMS_TRACE_BINARY_VERSION, or the source trace's when re-writing a trace */
void gms_tw_header(gms_tw_buf *b, const gms_kernel_src *k, int kernel_id, int version, int binary_version);
int gms_tw_block(gms_tw_buf *b, const gms_block_trace *bt, gms_opcode_resolver resolve, const void *ud,
                 gms_error *err);

/* Run `src` (every block filled in order) and write it to `outdir` (created if missing):
 * kernelslist.g with MemcpyHtoD lines for copies to the device (and MemcpyDtoH lines for
 * copies back when keep_d2h: a trace re-written; Accel-Sim's tracer writes none, so an
 * exported workload has none) and kernel-N.traceg per launch. */
int gms_trace_write_program(gms_program_src *src, const char *outdir, int version, int uvm, int prefetch,
                            int keep_d2h, gms_error *err);

#endif
