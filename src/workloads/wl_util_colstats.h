/* Column-statistics kernels shared by CORR and COVAR (Polybench correlation.cu and
 * covariance.cu): both work on an (N+1) x (M+1) data matrix (rows and columns from 1) with
 * one thread per column and accumulators kept in memory, and differ only where noted below.
 * The kernels take the pb_state array indices and the sizes as launch arguments. */
#ifndef GMS_WORKLOADS_WL_UTIL_COLSTATS_H
#define GMS_WORKLOADS_WL_UTIL_COLSTATS_H
#include "workloads/wl_util_poly.h"

/* the sources' float_n (3214212.01, which rounds to this float either way) */
#define PB_COLSTATS_FLOAT_N 3214212.01f

/* mean_kernel: mean[j] = sum_i data[i][j] / float_n for columns 1..M.
 * Launch with args { data, mean (array indices), M, N }. */
int pb_fill_col_mean(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err);

/* reduce_kernel, one element per thread (2D grid): data[i][j] -= mean[j] and, when the
 * std array index is >= 0 (CORR), then data[i][j] /= sqrt(float_n) * std[j].
 * Launch with args { data, mean, std (-1: none), M, N }. */
int pb_fill_col_center(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err);

/* corr_kernel / covar_kernel, resumable (wl_gen.h): thread j1 computes row j1 of the upper
 * triangle sym[j1][j2] = sym[j2][j1] = sum_i data[i][j1] * data[i][j2] for j2 >= j1 + off,
 * accumulated in memory. off = 1 (CORR) also sets sym[j1][j1] = 1 and leaves column M out;
 * off = 0 (COVAR) includes the diagonal. Launch with args { data, sym, M, N, off } via
 * pb_launch_gen with pb_col_sym_wsize(). */
int pb_step_col_sym(const wl_kernel *k, wl_wgen *ws, gms_error *err);
size_t pb_col_sym_wsize(void);

/* CPU references of the same, over the columns the truncated grids cover (j <= jc for the
 * column kernels; i <= ir, j <= jr for the centering) */
void pb_cpu_col_mean(const float *data, float *mean, int64_t m, int64_t n, int64_t jc);
void pb_cpu_col_center(float *data, const float *mean, const float *sd, int64_t m, int64_t n, int64_t ir,
                       int64_t jr);
void pb_cpu_col_sym(const float *data, float *sym, int64_t m, int64_t n, int64_t jc, int64_t off);

#endif
