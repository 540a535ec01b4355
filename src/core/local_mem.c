/* Local memory address translation (local_mem.h), after GPGPU-Sim's translate_local_memaddr.
 * With the interleaved map (the default), thread t of an SM (hardware thread id: warp slot x
 * 32 + lane) has its base word at
 *     thread_base = 4 * (P * (sid + nS * (t / P)) + t % P)
 * (P: padded threads per block; t / P: the block's slot on the SM), and local word D of it
 * lives at D * N * 4 + thread_base + LOCAL_GENERIC_START with N = P * max_cta * nS, the
 * threads the whole GPU can hold of this kernel. The legacy map uses threads per SM instead
 * of P and the slot. Arithmetic is modulo 2^64 as GPGPU-Sim's unsigned long long: a trace's
 * generic local address (the local window's base plus the offset) lands far away, as there. */
#include "core/local_mem.h"

uint32_t gms_local_max_cta(uint32_t occupancy, uint64_t nblocks, uint32_t nsm)
{
    if (nsm && nblocks < (uint64_t)occupancy * nsm) return (uint32_t)((nblocks + nsm - 1) / nsm);
    return occupancy;
}

int gms_local_translate(const gms_local_map *m, uint32_t hw_warp, const uint64_t addrs[32], uint32_t mask,
                        uint32_t width, uint64_t out[128], uint32_t *acc_width)
{
    uint64_t nthreads, P = m->padded_cta ? m->padded_cta : 32;
    if (m->interleave) nthreads = P * (m->max_cta ? m->max_cta : 1) * m->nsm;
    else nthreads = (uint64_t)m->threads_per_sm * m->nsm;
    /* GPGPU-Sim asserts a width that is a multiple of 4 (or below 4) and at most 16; the
     * decoder refuses other widths in traces, so this only rounds a bad one down */
    uint32_t words = width >= 4 ? (width > 16 ? 4 : width / 4) : 1;
    *acc_width = width >= 4 ? 4 : (width ? width : 4);
    int n = 0;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(mask >> l & 1u)) continue;
        uint64_t t = (uint64_t)hw_warp * 32 + l;
        uint64_t base = m->interleave ? 4 * (P * (m->sid + (uint64_t)m->nsm * (t / P)) + t % P)
                                      : 4 * ((uint64_t)m->threads_per_sm * m->sid + t);
        uint64_t a = addrs[l];
        for (uint32_t i = 0; i < words; i++) {
            uint64_t word = a / 4 + i;
            /* a sub-word access keeps its byte offset in the word */
            uint64_t off = width < 4 ? a % 4 : 0;
            out[n++] = word * nthreads * 4 + off + base + GMS_LOCAL_GENERIC_START;
        }
    }
    return n;
}
