/* The per-SM bookkeeping every memory-issue scheme shares (the SM's hooks, cke.h): what each
 * kernel issued, its in-flight memory instructions and its requests per memory instruction,
 * measured over intervals of gms_cke_params.interval requests. */
#include "cke/cke.h"
#include <string.h>

void gms_cke_sm_init(gms_cke_sm *cs, const gms_cke_params *c, uint32_t napps, const gms_cke_mi_ops *mi,
                     const uint32_t *wq_share)
{
    memset(cs, 0, sizeof *cs);
    cs->c = c;
    cs->napps = napps;
    cs->mi = mi;
    for (uint32_t k = 0; k < napps; k++) {
        cs->a[k].rpm = 1;
        cs->wq_share[k] = wq_share ? wq_share[k] : 1;
    }
    if (cs->mi->init) cs->mi->init(cs);
}

void gms_cke_issued(gms_cke_sm *cs, uint32_t app, int is_mem, uint32_t threads, uint64_t now)
{
    gms_cke_app_sm *a = &cs->a[app];
    a->winst++;
    a->tinst += threads;
    a->last_issue = now;
    if (is_mem & GMS_CKE_SFU) a->sinst++;
    if (is_mem & (GMS_CKE_LSU | GMS_CKE_BMI | GMS_CKE_MIL)) a->linst++;   /* executed by the LSU */
    if (is_mem & GMS_CKE_BMI) {
        a->minst++;
        a->minst_iv++;
    }
    if (is_mem & GMS_CKE_MIL) {
        a->ginst++;
        if (++a->inflight > a->max_inflight) a->max_inflight = a->inflight;
        if (a->inflight > a->peak_inflight) a->peak_inflight = a->inflight;
    }
    if (cs->mi->issued) cs->mi->issued(cs, app, is_mem, now);
}

void gms_cke_requests(gms_cke_sm *cs, uint32_t app, uint32_t nreq, uint64_t now)
{
    gms_cke_app_sm *a = &cs->a[app];
    a->reqs += nreq;
    if (now < (uint64_t)GMS_CKE_SAMPLES * GMS_CKE_SAMPLE_EVERY) a->req_t[now / GMS_CKE_SAMPLE_EVERY] += nreq;
    a->req_iv += nreq;
    if (a->req_iv < cs->c->interval) return;
    /* Req/Minst of the interval: as measured, for QBMI's quotas (gms_qbmi_rpm scales the
     * kernels' ratios together before rounding), and alone rounded to an integer >= 1 */
    uint64_t m = a->minst_iv ? a->minst_iv : 1;
    uint64_t r = (a->req_iv + m / 2) / m;
    a->rpm = r ? (uint32_t)(r > 32 ? 32 : r) : 1;
    a->rpm_req = a->req_iv;
    a->rpm_minst = m;
    if (cs->mi->interval) cs->mi->interval(cs, app);
    a->req_iv = a->minst_iv = a->rf_iv = 0;
    a->max_inflight = a->inflight;
}
