/* Parameters of the MSHR designs that the cache string does not carry (set by the options
 * -gms_l1d_dlmshr / -gms_l2_dlmshr and -gms_l1d_mshr_latency / -gms_l2_mshr_latency, kept in
 * gms_cache_config.mshr_params). The string's entries x max_merge give the table's slots for
 * every design; DL-MSHR turns them into slots / slots_per_set sets (docs/dlmshr.md). */
#ifndef GMS_MEM_MSHR_PARAMS_H
#define GMS_MEM_MSHR_PARAMS_H
#include <stdint.h>
#include "util/err.h"

typedef struct gms_mshr_params {
    uint32_t latency;          /* access cycles: 0 = the design's own (conventional 1, dlmshr 2) */
    uint32_t slots_per_set;    /* DL-MSHR: slots per slot set (2 in the paper) */
    uint32_t reserve_pct;      /* DL-MSHR: percent of the sets reserved as heads (Opt 4: 50) */
    uint8_t tail_ptr;          /* DL-MSHR: tail pointer in the head set (Opt 3) */
    uint8_t heads_anywhere;    /* DL-MSHR: a linkable (non-reserved) set may become a head */
} gms_mshr_params;

#define GMS_DLMSHR_DEFAULT "2:50:1:1"

/* "slots_per_set:reserve_pct:tail_ptr:heads_anywhere" (mshr_params.c); opt names the option
 * in error messages. The latency is not part of the string. */
int gms_mshr_params_parse(const char *s, const char *opt, gms_mshr_params *p, gms_error *err);

#endif
