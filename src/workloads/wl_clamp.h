/* Size clamping for tiny `scale` values. `scale` multiplies a workload's size parameters;
 * below the workload's smallest valid problem (a grid of zero blocks, a window wider than the
 * image, a working set larger than the training set) the size is clamped up to that smallest
 * problem instead of refused, the run says so in one line on stderr, and the sizes used are
 * in the stats (gms_workload_clamped, gms_workload_size_<param>; workload.c). A size the user
 * gave too small without `scale` is still an error: only what `scale` took below the minimum
 * is clamped. */
#ifndef GMS_WORKLOADS_WL_CLAMP_H
#define GMS_WORKLOADS_WL_CLAMP_H
#include <stdint.h>
#include "workloads/workload.h"

/* `v` is the scaled value of size parameter `name` and `min` the workload's smallest valid
 * one: returns min when v < min and the unscaled value is itself >= min (the clamp), else v.
 * Notes the value used for the stats either way. */
uint64_t wl_clamp_min(const gms_wl_args *a, const char *name, uint64_t v, uint64_t min);

/* A size parameter times `scale` (which must be a positive number), rounded down to a
 * multiple of `mult`, at most `max` (else an error), with the clamp: a result below `min` (a
 * multiple of `mult`) becomes min when the unscaled value is >= min. Otherwise a zero result
 * is an error and a result in (0, min) is returned for the workload's own checks to report.
 * min = 0: no clamp, and the size is not noted in the stats (gms_workload_size_*). */
int wl_clamp_scaled(const gms_wl_args *a, const char *wl, const char *name, uint64_t mult, uint64_t min, uint64_t max,
                    uint64_t *out, gms_error *err);

/* A size parameter of a workload whose sizes are given directly (the microbenchmarks, cnn):
 * *out = its value times `scale` (wl_scaled; the value itself without `scale`), clamped up to
 * `min` as wl_clamp_min does, then checked by wl_need_size (zero, above `max`). A `scale` that
 * is not a positive number is an error. */
int wl_clamp_size(const gms_wl_args *a, const char *wl, const char *name, uint64_t min, uint64_t max, uint64_t *out,
                  gms_error *err);

/* For workloads built on a shared create (pb_create): a copy of `a` in which each of the
 * NULL-terminated `names` holds its scaled value (wl_scaled, wl_util.h) clamped to mins[i],
 * and scale=1. Free with gms_wl_args_free. */
gms_wl_args *wl_clamp_args(const gms_wl_args *a, const char *const *names, const uint64_t *mins);

#endif
