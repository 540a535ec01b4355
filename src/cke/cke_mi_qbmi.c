/* QBMI (spec 001 section 4.4): the LSU grants the kernel with the largest current quota of
 * memory instructions; a kernel's quota is LCM(Req/Minst of all) / its Req/Minst, so that in a
 * round each kernel sends about the same number of requests (the ratios made integers together,
 * gms_qbmi_rpm: below 1 request per instruction they are scaled first). When a quota reaches 0 a fresh
 * set (from the latest Req/Minst, re-measured every interval of requests) is ADDED to every
 * kernel's quota, so a kernel with nothing ready never blocks the others.
 * Arbitration (documented choice, docs/cke.md): the LSU takes the waiting memory instruction
 * of the kernel with the largest quota (sm.c, cke_take); and at issue a ready memory
 * instruction waits while another kernel with a larger quota has demand: a memory instruction
 * ready at the gate or ready for the LSU (the one it takes included), in this or the last
 * cycle (the per-scheduler slots before the LSU are few: without the gate the other kernel's
 * instructions would fill them). */
#include "cke/cke_mi.h"

static void refill(gms_cke_sm *cs)
{
    uint32_t rpm[GMS_CKE_MAX_APPS];
    uint64_t req[GMS_CKE_MAX_APPS], minst[GMS_CKE_MAX_APPS];
    int64_t q[GMS_CKE_MAX_APPS];
    /* each kernel's latest measured Req/Minst on this SM (before its first interval: rpm, 1) */
    for (uint32_t k = 0; k < cs->napps; k++) {
        const gms_cke_app_sm *a = &cs->a[k];
        req[k] = a->rpm_minst ? a->rpm_req : a->rpm;
        minst[k] = a->rpm_minst ? a->rpm_minst : 1;
    }
    gms_qbmi_rpm(req, minst, cs->napps, rpm);
    gms_qbmi_quotas(rpm, cs->napps, q);
    for (uint32_t k = 0; k < cs->napps; k++) cs->a[k].quota += q[k];
}

void gms_cke_qbmi_init(gms_cke_sm *cs) { refill(cs); }

int gms_cke_qbmi_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    if (!(is_mem & GMS_CKE_BMI)) return 1;
    /* a ready memory instruction takes part in this cycle's arbitration whether it wins or not
     * (spec 001 4.4: "among warps with a ready memory instruction, the LSU grants the kernel
     * with the highest current quota") */
    gms_cke_mark(cs, app, now);
    for (uint32_t j = 0; j < cs->napps; j++)
        if (j != app && gms_cke_wants(cs, j, now) && cs->a[j].quota > cs->a[app].quota) {
            cs->a[app].denied++;
            return 0;
        }
    return 1;
}

void gms_cke_qbmi_issued(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    (void)now;
    if ((is_mem & GMS_CKE_BMI) && --cs->a[app].quota <= 0) refill(cs);
}

int64_t gms_cke_qbmi_prio(const gms_cke_sm *cs, uint32_t app) { return cs->a[app].quota; }

const gms_cke_mi_ops gms_cke_mi_qbmi = { .name = "qbmi", .knobs = GMS_KNOBS("gms_cke_bmi_demand"), .summary = "QBMI: memory instructions by quota, LCM of the kernels' requests per memory instruction",
                                         .gate = gms_cke_qbmi_gate, .issued = gms_cke_qbmi_issued, .init = gms_cke_qbmi_init,
                                         .prio = gms_cke_qbmi_prio };
