#include "workloads/parboil_util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int pbl_sizes(const pbl_def *def, const gms_wl_args *a, uint64_t *dim, uint64_t *n, int *narr,
                     gms_error *err)
{
    if (def->sizes(a, dim, err)) return -1;
    int k = 0;
    for (; k < PBL_MAX_ARRS && def->arrs[k].name; k++) {
        uint64_t bytes;
        n[k] = def->elems(dim, k);
        char what[96];
        snprintf(what, sizeof what, "array %s", def->arrs[k].name);
        if (wl_bytes(def->name, what, n[k] ? n[k] : 1, 1, 1, pbl_esize(def->arrs[k].type), WL_MAX_ARRAY_BYTES,
                     &bytes, err))
            return -1;
    }
    *narr = k;
    return 0;
}

static void pbl_alloc_host(const pbl_state *s, void **h)
{
    for (int k = 0; k < s->narr; k++) h[k] = wl_calloc(s->n[k] ? s->n[k] : 1, pbl_esize(s->def->arrs[k].type));
}

int pbl_create(const pbl_def *def, const gms_wl_args *a, void **state, gms_error *err)
{
    pbl_state tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.def = def;
    if (pbl_sizes(def, a, tmp.dim, tmp.n, &tmp.narr, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    tmp.repeat = gms_wl_u64(a, "repeat");
    tmp.seed = gms_wl_seed(a);
    pbl_state *s = gms_xcalloc(1, sizeof *s);
    *s = tmp;
    pbl_alloc_host(s, s->h);
    def->init(s, s->h);
    *state = s;
    return 0;
}

int pbl_next(void *state, gms_program *p, gms_error *err)
{
    pbl_state *s = state;
    if (!wl_once(&s->done)) return 0;
    const pbl_def *def = s->def;
    for (int k = 0; k < s->narr; k++)
        if (!def->arrs[k].host)
            s->d[k] = gms_prog_alloc(p, s->n[k] * pbl_esize(def->arrs[k].type), def->arrs[k].name);
    /* device memory starts as the host model's arrays (inputs copied; the others as the
     * model has them, zeros) */
    s->sh = p->shadow;
    for (int k = 0; k < s->narr; k++) {
        if (def->arrs[k].host) continue;
        const pbl_arr_def *ad = &def->arrs[k];
        /* an input the kernels only read (copied in, neither copied out nor checked): loads
         * of it are checked by their place in the host copy (wl_sh_init_ro) */
        if (ad->copy_in && !ad->copy_out && !ad->check) wl_sh_init_ro(p, s->d[k], s->h[k], s->n[k] * pbl_esize(ad->type));
        else wl_sh_init(p, s->d[k], s->h[k], s->n[k] * pbl_esize(ad->type));
    }
    for (int k = 0; k < s->narr; k++)
        if (def->arrs[k].copy_in && !def->arrs[k].host)
            gms_prog_copy_h2d(p, s->d[k], s->n[k] * pbl_esize(def->arrs[k].type));
    for (uint64_t r = 0; r < s->repeat; r++) def->launch(s, p, r);
    for (int k = 0; k < s->narr; k++)
        if (def->arrs[k].copy_out && !def->arrs[k].host) gms_prog_copy_d2h(p, s->d[k], s->n[k] * pbl_esize(def->arrs[k].type));
    gms_prog_sync(p);
    return 1;
}

/* elements first .. first+n-1 of integer array k (got and want point at element `first`) */
static int pbl_cmp_int(const pbl_def *def, int k, const void *got, const void *want, uint64_t n, uint64_t first,
                       gms_error *err)
{
    for (uint64_t i = 0; i < n; i++) {
        uint32_t g, w;
        if (def->arrs[k].type == PBL_U16) {
            g = ((const uint16_t *)got)[i];
            w = ((const uint16_t *)want)[i];
        } else if (def->arrs[k].type == PBL_U8) {
            g = ((const uint8_t *)got)[i];
            w = ((const uint8_t *)want)[i];
        } else {
            g = ((const uint32_t *)got)[i];
            w = ((const uint32_t *)want)[i];
        }
        if (g != w)
            return gms_err(err, "workload %s: %s[%llu] = %u, CPU reference %u", def->name, def->arrs[k].name,
                           (unsigned long long)(first + i), g, w);
    }
    return 0;
}

/* elements first .. first+n-1 of checked array k against the reference's */
static int pbl_cmp(const pbl_def *def, int k, const void *got, const void *want, uint64_t n, uint64_t first,
                   gms_error *err)
{
    if (def->arrs[k].type == PBL_F32)
        return wl_check_f32_from(def->name, def->arrs[k].name, got, want, n, first, def->rtol, def->atol, err);
    return pbl_cmp_int(def, k, got, want, n, first, err);
}

int pbl_verify(void *state, gms_error *err)
{
    pbl_state *s = state;
    const pbl_def *def = s->def;
    /* Host speed: in a functional run the results are read from the shadow memory, so the
     * host copies of the device arrays are no longer needed; freed before the reference's
     * arrays are allocated, their (already faulted-in) memory is reused instead of the
     * kernel zeroing as much again (lbm: 17 MB), and each result is compared a piece at a
     * time through one small buffer instead of a third copy of the array. */
    const int from_shadow = wl_shadow_active(s->sh);
    if (from_shadow)
        for (int k = 0; k < s->narr; k++)
            if (!def->arrs[k].host) { free(s->h[k]); s->h[k] = NULL; }
    void *ref[PBL_MAX_ARRS] = { 0 };
    pbl_alloc_host(s, ref);
    def->init(s, ref);
    for (uint64_t r = 0; r < s->repeat; r++) def->cpu(s, ref, r);
    enum { PIECE = 1u << 16 };   /* bytes read from the shadow at a time */
    uint8_t *buf = from_shadow ? gms_xmalloc(PIECE) : NULL;
    int rc = 0;
    for (int k = 0; k < s->narr && !rc; k++) {
        if (!def->arrs[k].check) continue;
        const size_t es = pbl_esize(def->arrs[k].type);
        if (!from_shadow || def->arrs[k].host) {
            rc = pbl_cmp(def, k, s->h[k], ref[k], s->n[k], 0, err);
            continue;
        }
        for (uint64_t i = 0; i < s->n[k] && !rc; i += PIECE / es) {
            const uint64_t m = s->n[k] - i < PIECE / es ? s->n[k] - i : PIECE / es;
            wl_shadow_read(s->sh, s->d[k] + i * es, buf, m * es);
            rc = pbl_cmp(def, k, buf, (const uint8_t *)ref[k] + i * es, m, i, err);
        }
    }
    free(buf);
    for (int k = 0; k < s->narr; k++) free(ref[k]);
    return rc;
}

void pbl_destroy(void *state)
{
    pbl_state *s = state;
    if (!s) return;
    for (int k = 0; k < s->narr; k++) free(s->h[k]);
    free(s->aux);
    free(s);
}

uint64_t pbl_footprint(const pbl_def *def, const gms_wl_args *a)
{
    uint64_t dim[PBL_MAX_DIMS] = { 0 }, n[PBL_MAX_ARRS] = { 0 }, total = 0;
    int narr = 0;
    gms_error e;
    if (pbl_sizes(def, a, dim, n, &narr, &e)) return 0;
    for (int k = 0; k < narr; k++)
        if (!def->arrs[k].host) total += n[k] * pbl_esize(def->arrs[k].type);
    return total;
}
