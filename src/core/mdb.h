/* Model-driven L1D bypassing (MDB, spec 001 sections 2.2-2.3): the pieces of the Bypassing
 * Parameter Generator that tests check by hand. bypass_mdb.c puts them together. */
#ifndef GMS_CORE_MDB_H
#define GMS_CORE_MDB_H
#include <stdint.h>

#define GMS_MDB_MAX_CALC 64   /* -gms_mdb_level sm-warp models up to a Fermi/Maxwell SM's 48 (64) warps */

/* The selector: L in 1..lmax maximising
 *     Adjusted_Hits(L) = hits[L-1] - rf * (L/n)^3 * e / scale
 * (the cubic reservation-fail model; hits[L-1] is calculator L's shadow-tag hit count: warps or
 * blocks 0..L-1 use the L1D; scale is the set-sampling ratio, which puts the RF count of all
 * sets on the sampled sets' scale). A tie goes to the larger L (less bypassing). */
uint32_t gms_mdb_choose(const uint64_t *hits, uint32_t lmax, uint64_t rf, uint32_t n, double e, double scale);

/* the decay after a decision: the n hit counters and the RF counter are halved (right shift by 1) */
void gms_mdb_decay(uint64_t *hits, uint32_t n, uint64_t *rf);
/* the largest value of a saturating counter of `bits` bits (0 or 64 and more: UINT64_MAX) */
uint64_t gms_mdb_counter_max(uint32_t bits);

/* Is L1D set `set` one of the sampled sets (1 of every `ratio`: with 32 sets and ratio 8, the
 * sets 0, 8, 16 and 24)? */
static inline int gms_mdb_sampled(uint32_t set, uint32_t ratio) { return set % ratio == 0; }

/* One LRU set of a shadow tag array: `assoc` ways of tags (block address + 1; 0 = invalid)
 * and last-use stamps. Looks `block` up, makes it the most recent; returns 1 on a hit, else
 * replaces an invalid way or the least recently used one and returns 0. */
int gms_mdb_shadow_access(uint64_t *tags, uint32_t *stamps, uint32_t assoc, uint32_t *clock, uint64_t block);

/* The cubic model's prediction for a static L of N (spec 001 2.2): RF(L) / RF_base =
 * (min(L, N) / N)^3; 1 when n is 0 (bypass_static.c, which reports it for the C2.4 fit). */
double gms_static_rf_model(uint32_t l, uint32_t n);

#endif
