/* -gms_l1d_dlmshr / -gms_l2_dlmshr: "slots_per_set:reserve_pct:tail_ptr:heads_anywhere". */
#include "mem/mshr_params.h"
#include "config/option_value.h"

int gms_mshr_params_parse(const char *s, const char *opt, gms_mshr_params *p, gms_error *err)
{
    uint32_t v[4];
    size_t n;
    if (gms_parse_u32_list(s, ':', v, 4, &n) || n != 4)
        return gms_err(err, "%s: expected slots_per_set:reserved_percent:tail_pointer:heads_anywhere "
                       "(four unsigned numbers, e.g. %s), got \"%s\"", opt, GMS_DLMSHR_DEFAULT, s);
    if (v[0] < 1 || v[0] > 64)
        return gms_err(err, "%s \"%s\": slots per set %u must be 1 to 64", opt, s, v[0]);
    if (v[1] > 100) return gms_err(err, "%s \"%s\": reserved percent %u is above 100", opt, s, v[1]);
    if (v[2] > 1) return gms_err(err, "%s \"%s\": tail pointer must be 0 or 1, got %u", opt, s, v[2]);
    if (v[3] > 1) return gms_err(err, "%s \"%s\": heads_anywhere must be 0 or 1, got %u", opt, s, v[3]);
    if (v[1] == 0 && v[3] == 0)
        return gms_err(err, "%s \"%s\": no set could ever be a head (0%% reserved and heads_anywhere 0)", opt, s);
    p->slots_per_set = v[0];
    p->reserve_pct = v[1];
    p->tail_ptr = (uint8_t)v[2];
    p->heads_anywhere = (uint8_t)v[3];
    return 0;
}
