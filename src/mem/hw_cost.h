/* Bit-count helpers of the hardware cost model (area, leakage, access energy of the MSHR
 * designs and CART; docs/dlmshr.md "Area and energy"). The per-bit figures are part of the
 * -gms_energy table (l2q_energy.c). */
#ifndef GMS_MEM_HW_COST_H
#define GMS_MEM_HW_COST_H
#include <stdint.h>

/* bits to hold the numbers 0..n (at least 1) */
static inline uint32_t gms_hw_bits_for(uint64_t n) { return n ? 64u - (uint32_t)__builtin_clzll(n) : 1u; }

#endif
