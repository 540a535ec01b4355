/* Seeded, per-simulation RNG (xoshiro256**, seeded by splitmix64). No global state. */
#ifndef GMS_UTIL_RNG_H
#define GMS_UTIL_RNG_H
#include <stdint.h>

typedef struct gms_rng { uint64_t s[4]; } gms_rng;

void gms_rng_seed(gms_rng *r, uint64_t seed);
uint64_t gms_rng_next(gms_rng *r);
/* uniform in [0, n) without modulo bias; n > 0 */
uint64_t gms_rng_below(gms_rng *r, uint64_t n);
/* uniform double in [0, 1) */
double gms_rng_double(gms_rng *r);

#endif
