/* DL-MSHR (spec 000a section 3, spec 002): test and debug access to a table made by
 * gms_mshr_dlmshr.create. Sets are numbered 0..n-1; the reserved head-only sets come first. */
#ifndef GMS_MEM_MSHR_DL_H
#define GMS_MEM_MSHR_DL_H
#include <stddef.h>
#include <stdint.h>

/* the per-set behavioural FSM of spec 000a Fig. 3.8: S0 free; head path S1..S5; attached
 * path S6..S10 (docs/dlmshr.md gives every transition) */
enum { GMS_DL_S0, GMS_DL_S1, GMS_DL_S2, GMS_DL_S3, GMS_DL_S4, GMS_DL_S5,
       GMS_DL_S6, GMS_DL_S7, GMS_DL_S8, GMS_DL_S9, GMS_DL_S10 };

typedef struct gms_dl_set_view {
    uint8_t H, L, S_free, S_full, reserved, nused, state;
    uint32_t P, tail, head;        /* head: the chain's head set (UINT32_MAX when free) */
} gms_dl_set_view;

uint32_t gms_dl_nsets(const void *m);
uint32_t gms_dl_nfree(const void *m);                     /* nFreeSet */
gms_dl_set_view gms_dl_set(const void *m, uint32_t i);
/* the invariants of spec 000a 8.3: 0 if they hold, else -1 with the first broken one in why */
int gms_dl_check(const void *m, char *why, size_t n);

#endif
