/* Block-partition schemes: one line per member. */
#include "cke/cke.h"
#include "config/params.h"

extern const gms_cke_tb_ops gms_cke_tb_greedy, gms_cke_tb_spatial, gms_cke_tb_manual, gms_cke_tb_ws, gms_cke_tb_smk,
                             gms_cke_tb_ws_ucp;
static const gms_cke_tb_ops *const all[] = { &gms_cke_tb_greedy, &gms_cke_tb_spatial, &gms_cke_tb_manual, &gms_cke_tb_ws,
                                             &gms_cke_tb_smk, &gms_cke_tb_ws_ucp };

static long chosen(const struct gms_params *p) { return p->cke.tb_idx; }
GMS_REGISTRY_DEFINE_KNOBS(gms_cke_tb_reg, "CKE block-partition scheme", "gms_cke_tb", gms_cke_tb_ops, all, name, summary, knobs, NULL, chosen, NULL);

const gms_cke_tb_ops *gms_cke_tb_at(long i) { return i >= 0 && (size_t)i < gms_cke_tb_reg.n ? all[i] : all[0]; }
