/* Memory-issue schemes without arithmetic of their own: none (every kernel issues freely),
 * RBMI (memory instructions of the kernels in loose round-robin order) and SMIL (a static cap
 * on each kernel's in-flight memory instructions per SM, -gms_cke_mi smil:L0,L1[,L2]). */
#include "cke/cke_mi.h"

const gms_cke_mi_ops gms_cke_mi_none = { .name = "none", .summary = "no control: warps issue as the scheduler picks them" };

/* the kernel whose turn it is goes first if it has demand (a memory instruction ready at the
 * gate or for the LSU, now or in the previous cycle: the schedulers are visited in order
 * within a cycle); else anyone may */
static int rbmi_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    if (!(is_mem & GMS_CKE_BMI)) return 1;
    gms_cke_mark(cs, app, now);
    uint32_t t = cs->rr_turn;
    if (t == app || !gms_cke_wants(cs, t, now)) return 1;
    cs->a[app].denied++;
    return 0;
}
static void rbmi_issued(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    (void)now;
    if (is_mem & GMS_CKE_BMI) cs->rr_turn = (app + 1) % cs->napps;
}
/* at the LSU: the kernel whose turn it is first, then the next ones in turn */
static int64_t rbmi_prio(const gms_cke_sm *cs, uint32_t app)
{
    return -(int64_t)((app + cs->napps - cs->rr_turn) % cs->napps);
}
const gms_cke_mi_ops gms_cke_mi_rbmi = { .name = "rbmi", .knobs = GMS_KNOBS("gms_cke_bmi_demand"), .summary = "RBMI: the kernels' memory instructions in loose round-robin order",
                                         .gate = rbmi_gate, .issued = rbmi_issued, .prio = rbmi_prio };

static int smil_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    (void)now;
    if (!(is_mem & GMS_CKE_MIL) || gms_cke_under_limit(cs, app)) return 1;
    cs->a[app].denied++;
    return 0;
}
static void smil_init(gms_cke_sm *cs)
{
    for (uint32_t k = 0; k < cs->napps; k++) cs->a[k].limit = k < cs->c->nmi_args ? cs->c->mi_args[k] : 0;
}
const gms_cke_mi_ops gms_cke_mi_smil = { .name = "smil", .summary = "SMIL: static in-flight memory-instruction limits per kernel and SM (smil:L0,L1[,L2]; 0 = none)",
                                         .gate = smil_gate, .init = smil_init };
