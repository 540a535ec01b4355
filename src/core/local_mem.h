/* Local memory (LDL/STL, and generic LD/ST that resolve to the local window) placed in the
 * GPU's address space as GPGPU-Sim's shader_core_ctx::translate_local_memaddr does: each
 * thread sees its own local space, and the timing model interleaves the threads' 4-byte words
 * so that a warp touching one local address touches 128 contiguous bytes. */
#ifndef GMS_LOCAL_MEM_H
#define GMS_LOCAL_MEM_H

#include <stdint.h>

/* GPGPU-Sim 4.x's LOCAL_GENERIC_START (abstract_hardware_model.h): GLOBAL_HEAP_START
 * 0xC0000000 less 80 SMs' 96 KiB of shared memory and 80 x 2048 threads' 16 KiB of local */
#define GMS_LOCAL_GENERIC_START (0xC0000000ULL - 80ULL * 96 * 1024 - 80ULL * 2048 * 16384)

typedef struct gms_local_map {
    int interleave;          /* -gpgpu_local_mem_map: 1 per-CTA interleaving, 0 the legacy map */
    uint32_t sid, nsm;       /* this SM, the GPU's SMs */
    uint32_t padded_cta;     /* threads per block rounded up to whole warps */
    uint32_t max_cta;        /* the kernel's blocks per SM, capped by the grid (set_max_cta) */
    uint32_t threads_per_sm; /* the legacy map's stride (-gpgpu_shader_core_pipeline) */
} gms_local_map;

/* the kernel's blocks per SM as GPGPU-Sim's max_cta gives it to the local map: the occupancy
 * limit, or fewer when the grid cannot fill every SM with that many */
uint32_t gms_local_max_cta(uint32_t occupancy, uint64_t nblocks, uint32_t nsm);

/* Translates one warp's local access: lane l (mask bit l) of hardware warp slot `hw_warp`
 * reads or writes `width` bytes at its local address addrs[l]. Writes the 4-byte word
 * accesses (one sub-word access when width < 4) to out, lane by lane, and returns how many;
 * *acc_width is the bytes each carries. At most 32 x 4 (a 16-byte access is 4 words). */
int gms_local_translate(const gms_local_map *m, uint32_t hw_warp, const uint64_t addrs[32], uint32_t mask,
                        uint32_t width, uint64_t out[128], uint32_t *acc_width);

#endif
