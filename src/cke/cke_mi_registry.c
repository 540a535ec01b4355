/* Memory-issue schemes: one line per member. */
#include "cke/cke.h"
#include "config/params.h"

extern const gms_cke_mi_ops gms_cke_mi_none, gms_cke_mi_rbmi, gms_cke_mi_qbmi, gms_cke_mi_smil, gms_cke_mi_dmil,
    gms_cke_mi_qbmi_dmil, gms_cke_mi_smkw;
static const gms_cke_mi_ops *const all[] = { &gms_cke_mi_none, &gms_cke_mi_rbmi, &gms_cke_mi_qbmi, &gms_cke_mi_smil,
                                             &gms_cke_mi_dmil, &gms_cke_mi_qbmi_dmil, &gms_cke_mi_smkw };

static long chosen(const struct gms_params *p) { return p->cke.mi_idx; }
GMS_REGISTRY_DEFINE_KNOBS(gms_cke_mi_reg, "CKE memory-issue scheme", "gms_cke_mi", gms_cke_mi_ops, all, name, summary, knobs, NULL, chosen, NULL);

const gms_cke_mi_ops *gms_cke_mi_at(long i) { return i >= 0 && (size_t)i < gms_cke_mi_reg.n ? all[i] : all[0]; }
