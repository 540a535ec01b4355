/* Accel-Sim NVBit traces: kernelslist.g + kernel-N.traceg (plain, .xz, .zst), tracer
 * versions 3-5 (interop.md section 2). Reading streams one thread block at a time. */
#ifndef GMS_FRONTEND_TRACE_H
#define GMS_FRONTEND_TRACE_H
#include "frontend/program.h"
#include "util/err.h"

/* A program source that replays a kernelslist.g: MemcpyHtoD lines become COPY_H2D
 * commands, each kernel line a LAUNCH whose blocks are read from its trace file at dispatch. */
int gms_trace_program(const char *kernelslist, gms_program_src *out, gms_error *err);

/* Write a built-in workload as an Accel-Sim trace directory (kernelslist.g, kernel-N.traceg),
 * tracer version 4 or 5, Volta opcodes. */
int gms_trace_export(const char *workload, const char *const *wl_params, uint64_t seed,
                     const char *outdir, int version, gms_error *err);

/* The same for a workload given by its ops (e.g. one defined in a test). */
struct gms_workload_ops;
int gms_trace_export_ops(const struct gms_workload_ops *ops, const char *const *wl_params, uint64_t seed,
                         const char *outdir, int version, gms_error *err);

#endif
