/* Host vector width for the workloads' arithmetic-bound CPU loops (mri-q's sin/cos, tpacf's bin
 * counts): a loop is built once per width with GCC's generic vectors, the wider copies under
 * WL_TARGET_AVX / WL_TARGET_AVX512, and the caller picks the copy for wl_host_vec_floats().
 * Every copy must do each lane's IEEE operations in the same order without FMA, so the choice
 * never changes a result (the model's lanes and the CPU reference agree on any host). */
#ifndef GMS_WORKLOADS_WL_SIMD_H
#define GMS_WORKLOADS_WL_SIMD_H
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define WL_HAVE_X86_SIMD 1
#define WL_TARGET_AVX __attribute__((target("avx")))
#define WL_TARGET_AVX512 __attribute__((target("avx512f")))
#endif

/* the widest vector the host runs, in floats: 16 (AVX-512F), 8 (AVX) or 4 (SSE2, or generic
 * code elsewhere) */
static inline int wl_host_vec_floats_max(void)
{
#ifdef WL_HAVE_X86_SIMD
    if (__builtin_cpu_supports("avx512f")) return 16;
    if (__builtin_cpu_supports("avx")) return 8;
#endif
    return 4;
}

/* floats per vector the workloads use: the host's widest, or GMS_WL_VEC_FLOATS=4|8|16 when
 * narrower (tests: every width gives the same results; the command line rejects another value
 * and says when the host cannot run the one asked) */
static inline int wl_host_vec_floats(void)
{
    /* host speed: asked per call by tpacf's counts; worked out once (per file including this) */
    static _Atomic int known;
    int w = atomic_load_explicit(&known, memory_order_relaxed);
    if (w) return w;
    w = wl_host_vec_floats_max();
    const char *env = getenv("GMS_WL_VEC_FLOATS");
    if (env && (!strcmp(env, "4") || !strcmp(env, "8") || !strcmp(env, "16")) && atoi(env) < w) w = atoi(env);
    atomic_store_explicit(&known, w, memory_order_relaxed);
    return w;
}

#endif
