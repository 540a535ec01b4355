/* DMIL (spec 001 section 4.5): one limit generator per kernel per SM. Every interval of the
 * kernel's requests its in-flight limit becomes Max_Inflight / (RF >> log2(interval)) (at
 * least 1; under one reservation fail per request no limit, or with -gms_cke_dmil_met keep the
 * limit it had), RF counted in a
 * -gms_cke_dmil_rf_bits wide saturating counter. A kernel at its limit issues no memory
 * instruction; its other instructions are not held. QBMI+DMIL applies both gates. */
#include "cke/cke_mi.h"

void gms_cke_dmil_interval(gms_cke_sm *cs, uint32_t app)
{
    gms_cke_app_sm *a = &cs->a[app];
    uint32_t ilog2 = 0;
    while ((1u << (ilog2 + 1)) <= cs->c->interval) ilog2++;
    uint32_t l = gms_dmil_limit(a->max_inflight, a->rf_iv, cs->c->rf_bits, ilog2);
    if (l || !cs->c->dmil_keep) a->limit = l;   /* keep: the goal met, the limit stays */
}

static int dmil_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    (void)now;
    if (!(is_mem & GMS_CKE_MIL) || gms_cke_under_limit(cs, app)) return 1;
    cs->a[app].denied++;
    return 0;
}
const gms_cke_mi_ops gms_cke_mi_dmil = { .name = "dmil", .knobs = GMS_KNOBS("gms_cke_dmil_"), .summary = "DMIL: per-kernel in-flight memory-instruction limit from its reservation fails, every interval",
                                         .gate = dmil_gate, .interval = gms_cke_dmil_interval };

/* a kernel at its limit does not compete for the quota arbitration either */
static int qdmil_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    return dmil_gate(cs, app, is_mem, now) && gms_cke_qbmi_gate(cs, app, is_mem, now);
}
const gms_cke_mi_ops gms_cke_mi_qbmi_dmil = { .name = "qbmi+dmil", .knobs = GMS_KNOBS("gms_cke_dmil_", "gms_cke_bmi_demand"), .summary = "QBMI and DMIL together",
                                              .gate = qdmil_gate, .issued = gms_cke_qbmi_issued,
                                              .interval = gms_cke_dmil_interval, .init = gms_cke_qbmi_init,
                                              .prio = gms_cke_qbmi_prio };
