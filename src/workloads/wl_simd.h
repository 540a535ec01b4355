/* Host vector width for the workloads' arithmetic-bound CPU loops (mri-q's sin/cos, tpacf's bin
 * counts): a loop is built once per width with GCC's generic vectors, the wider copies under
 * WL_TARGET_AVX / WL_TARGET_AVX512, and the caller picks the copy for wl_host_vec_floats().
 * Every copy must do each lane's IEEE operations in the same order without FMA, so the choice
 * never changes a result (the model's lanes and the CPU reference agree on any host). */
#ifndef GMS_WORKLOADS_WL_SIMD_H
#define GMS_WORKLOADS_WL_SIMD_H

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define WL_HAVE_X86_SIMD 1
#define WL_TARGET_AVX __attribute__((target("avx")))
#define WL_TARGET_AVX512 __attribute__((target("avx512f")))
#endif

/* floats per vector the host runs: 16 (AVX-512F), 8 (AVX) or 4 (SSE2, or generic code elsewhere) */
static inline int wl_host_vec_floats(void)
{
#ifdef WL_HAVE_X86_SIMD
    if (__builtin_cpu_supports("avx512f")) return 16;
    if (__builtin_cpu_supports("avx")) return 8;
#endif
    return 4;
}

#endif
