/* Static wavefront limiting (SWL, from CCWS [Rogers et al.]; spec 001 section 2.4): each warp
 * scheduler may issue only from its K oldest warps (-gms_swl K, 0 = no limit), done warps
 * and warps at a barrier left out, as GPGPU-Sim's swl scheduler orders its supervised warps
 * oldest first with finished and waiting ones last and keeps the first K. */
#ifndef GMS_CORE_SWL_H
#define GMS_CORE_SWL_H
struct gms_sm;
/* recompute which warps may issue (after the schedulers' warps changed: a block came or
 * went, a warp finished, entered or left a barrier) */
void gms_swl_update(struct gms_sm *s);
#endif
