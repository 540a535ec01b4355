/* One traced kernel as a gms_kernel_src: the header is read when the launch is created, the
 * file is (re)opened at the first dispatched block and read one thread block per fill_block,
 * so memory stays bounded by one block whatever the file size. Internal to the reader. */
#ifndef GMS_FRONTEND_TRACE_KERNEL_H
#define GMS_FRONTEND_TRACE_KERNEL_H
#include "frontend/program.h"
#include "frontend/trace_parse.h"

typedef struct gms_trace_kernel gms_trace_kernel;

/* Reads the header of `path`; NULL with err on failure. */
gms_trace_kernel *gms_trace_kernel_open(const char *path, gms_error *err);
const gms_trace_hdr *gms_trace_kernel_hdr(const gms_trace_kernel *k);
/* Fill a gms_kernel_src whose fill_block/release use k (release frees k). */
void gms_trace_kernel_src(gms_trace_kernel *k, int stream, gms_kernel_src *out);
/* opcode text of an id found in records filled from this kernel (NULL if unknown) */
const char *gms_trace_kernel_opcode_text(const gms_trace_kernel *k, uint16_t id);
void gms_trace_kernel_free(gms_trace_kernel *k);

/* gms_kernel_src callbacks (exposed for tools that drive a kernel directly) */
int gms_trace_kernel_fill(void *self, uint64_t block_linear, gms_block_trace *out, gms_error *err);

#endif
