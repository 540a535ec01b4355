#include "workloads/wl_pingpong.h"
#include <stdlib.h>
#include <string.h>

int wl_check_pingpong_f32(const char *wl, const char *what, const wl_shadow *sh, const wl_buf *final,
                          const float *init, uint64_t n, uint64_t steps, wl_sweep_fn sweep, const void *ctx,
                          double tol, gms_error *err)
{
    float *a = gms_xmalloc(4 * n), *b = gms_xmalloc(4 * n);
    memcpy(a, init, 4 * n);
    for (uint64_t t = 0; t < steps; t++) {
        sweep(ctx, a, b);
        float *tmp = a;
        a = b;
        b = tmp;
    }
    void *own;   /* the result as the kernels left it at its device address */
    int rc = wl_check_f32_tol(wl, what, wl_result(sh, final->d, final->h, n, 4, &own), a, n, tol, err);
    free(own);
    free(a);
    free(b);
    return rc ? -1 : 0;
}
