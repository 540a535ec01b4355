/* Far-fault stalls for the functional walk of the Belady bound (core/opt_prepass.c), without
 * timing: the limit where a far fault takes longer than any amount of work that hits.
 *
 * A warp whose memory instruction touches pages that are not resident waits until they have
 * all arrived (core/resident_walk.h); meanwhile warps whose pages are resident go on.
 * Requested pages arrive one at a time, oldest request first, and only when no warp can run
 * (one fault at a time, as UVMSmart's runtime and the study's runs take them: batches of about
 * one fault); a page arriving at full memory evicts the least recently used resident page.
 * Without this, warps that each stream over their own pages (hybridsort's merge passes: 32
 * buckets a warp instruction) all advance together and the string cycles through every page
 * of the pass at every step, where the timed run lets the warps whose pages are in run ahead. */
#ifndef GMS_CORE_WALK_FAULTS_H
#define GMS_CORE_WALK_FAULTS_H
#include "core/resident_walk.h"

typedef struct gms_walk_faults gms_walk_faults;

/* cap: frames for managed pages (0 = unlimited: only first touches fault) */
gms_walk_faults *gms_walk_faults_new(uint64_t cap);
void gms_walk_faults_free(gms_walk_faults *f);
/* warp h's instruction touches the distinct pages p[0..n) (dense page ids): resident ones
 * become the most recently used, the others are requested (once) and h waits for them */
void gms_walk_faults_access(gms_walk_faults *f, gms_walk_warp h, const uint32_t *p, uint32_t n);
/* the oldest requested page arrives and wakes the warps waiting for it: 1, or 0 if none */
int gms_walk_faults_service(gms_walk_faults *f);

#endif
