/* L1 data cache options. Owner: src/mem (cache + L1D). Options in src/mem/l1d_options.c. */
#ifndef GMS_MEM_L1D_PARAMS_H
#define GMS_MEM_L1D_PARAMS_H
#include <stdint.h>
#include "config/option.h"
#include "mem/cache.h"
#include "mem/mrpb.h"

typedef struct gms_l1d_params {
    char dl1_str[GMS_OPT_STRLEN];      /* -gpgpu_cache:dl1 */
    gms_cache_config dl1;              /* decoded */
    uint32_t l1_latency;               /* -gpgpu_l1_latency (core cycles) */
    uint32_t index_latency;            /* -gms_l1d_index_latency: the set-index function's cycles, added to every L1D access */
    uint32_t l1_banks;                 /* -gpgpu_l1_banks */
    uint32_t pmod_prime;               /* -gms_l1d_pmod_prime */
    uint32_t bxor_t_shift;             /* -gms_l1d_bxor_t_shift: BXOR's t = addr[s+k-1:s], 0 = s = b + k */
    int bypass_slots_opt;              /* -gms_l1d_bypass_slots as given: N, or -1 (or 0) for unlimited */
    uint32_t bypass_slots;             /* decoded: in-flight bypassed requests per SM (0 = unlimited) */
    char mshr_design[32];              /* -gms_l1d_mshr: conventional | dlmshr */
    char dlmshr_str[GMS_OPT_STRLEN];   /* -gms_l1d_dlmshr: DL-MSHR parameters (mshr_params.h) */
    uint32_t mshr_latency;             /* -gms_l1d_mshr_latency: access cycles, 0 = the design's */
    gms_mrpb_params mrpb;              /* -gms_mrpb*: the request prioritization buffer (mrpb.h) */
} gms_l1d_params;

#endif
