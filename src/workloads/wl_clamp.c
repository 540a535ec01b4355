#include "workloads/wl_clamp.h"
#include "workloads/wl_util.h"
#include <math.h>
#include <stdio.h>

uint64_t wl_clamp_min(const gms_wl_args *a, const char *name, uint64_t v, uint64_t min)
{
    uint64_t used = v < min && gms_wl_u64(a, name) >= min ? min : v;
    gms_wl_note_size(a, name, used, v);
    return used;
}

int wl_clamp_scaled(const gms_wl_args *a, const char *wl, const char *name, uint64_t mult, uint64_t min, uint64_t max,
                    uint64_t *out, gms_error *err)
{
    *out = 0;   /* written on every path: callers' sizes are never read uninitialised */
    double sc = gms_wl_f64(a, "scale");
    if (!(sc > 0) || !isfinite(sc))
        return gms_err(err, "workload %s: parameter scale=%s must be a positive number", wl, gms_wl_str(a, "scale"));
    double v = (double)gms_wl_u64(a, name) * sc;
    if (v > (double)max)
        return gms_err(err, "workload %s: %s=%s scaled by scale=%s is %.0f, above the limit %llu", wl, name,
                       gms_wl_str(a, name), gms_wl_str(a, "scale"), v, (unsigned long long)max);
    uint64_t u = (uint64_t)v;
    if (mult > 1) u = u / mult * mult;
    /* min 0: no clamp and nothing noted (the size lines would be new output for the
     * workloads that never clamped) */
    if (min) u = wl_clamp_min(a, name, u, min);
    if (u == 0)
        return gms_err(err, "workload %s: %s=%s scaled by scale=%s is zero%s", wl, name, gms_wl_str(a, name),
                       gms_wl_str(a, "scale"), mult > 1 ? " after rounding down to a multiple of its granule" : "");
    *out = u;
    return 0;
}

int wl_clamp_size(const gms_wl_args *a, const char *wl, const char *name, uint64_t min, uint64_t max, uint64_t *out,
                  gms_error *err)
{
    *out = 0;   /* written on every path (see wl_clamp_scaled) */
    const char *s = gms_wl_str(a, "scale");
    if (s && *s) {
        double sc = gms_wl_f64(a, "scale");
        if (!(sc > 0) || !isfinite(sc))
            return gms_err(err, "workload %s: parameter scale=%s must be a positive number", wl, s);
    }
    *out = wl_clamp_min(a, name, wl_scaled(a, name), min);
    return wl_need_size(wl, a, name, *out, max, err);
}

gms_wl_args *wl_clamp_args(const gms_wl_args *a, const char *const *names, const uint64_t *mins)
{
    char buf[8][48];
    const char *kv[10];
    int n = 0;
    for (; names[n] && n < 8; n++) {
        snprintf(buf[n], sizeof buf[n], "%s=%llu", names[n],
                 (unsigned long long)wl_clamp_min(a, names[n], wl_scaled(a, names[n]), mins[n]));
        kv[n] = buf[n];
    }
    kv[n++] = "scale=1";
    kv[n] = NULL;
    return gms_wl_args_with(a, kv);
}
