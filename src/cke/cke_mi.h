/* Helpers shared by the memory-issue schemes (cke_mi_*.c). */
#ifndef GMS_CKE_MI_H
#define GMS_CKE_MI_H
#include "cke/cke.h"

/* a ready memory instruction of app met the gate in cycle now */
static inline void gms_cke_mark(gms_cke_sm *cs, uint32_t app, uint64_t now) { cs->a[app].demand_at = now + 1; }
/* has app had a ready memory instruction at the gate in this cycle or the previous one? */
static inline int gms_cke_wants(const gms_cke_sm *cs, uint32_t app, uint64_t now) { return cs->a[app].demand_at >= now; }
/* is app under its in-flight limit (MIL)? */
static inline int gms_cke_under_limit(const gms_cke_sm *cs, uint32_t app)
{
    return !cs->a[app].limit || cs->a[app].inflight < cs->a[app].limit;
}

/* QBMI's parts, for QBMI+DMIL (cke_mi_qbmi.c) */
int gms_cke_qbmi_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now);
void gms_cke_qbmi_issued(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now);
void gms_cke_qbmi_init(gms_cke_sm *cs);
int64_t gms_cke_qbmi_prio(const gms_cke_sm *cs, uint32_t app);
/* DMIL's limit update (cke_mi_dmil.c) */
void gms_cke_dmil_interval(gms_cke_sm *cs, uint32_t app);

#endif
