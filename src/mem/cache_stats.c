/* GPGPU-Sim style cache totals (cache_stats::get_sub_stats, print_stats, print_fail_stats):
 *   accesses     = HIT + HIT_RESERVED + MISS + SECTOR_MISS (not RESERVATION_FAIL, not MSHR_HIT)
 *   misses       = MISS + SECTOR_MISS
 *   pending_hits = HIT_RESERVED
 *   reservation_fails = RESERVATION_FAIL (every refused attempt)
 *   breakdown[type][outcome] (non-zero) and breakdown[type][TOTAL_ACCESS] = all outcomes but
 *   RESERVATION_FAIL and MSHR_HIT (MSHR_HIT is counted on top of the access's own outcome). */
#include "mem/cache.h"
#include "mem/mshr.h"
#include <string.h>

void gms_cache_report_stats(const gms_cache_stats *const *st, size_t n, const char *prefix, gms_stats *out)
{
    gms_cache_stats sum;
    memset(&sum, 0, sizeof sum);
    for (size_t i = 0; i < n; i++) {
        if (!st[i]) continue;
        for (int t = 0; t < GMS_ACC__COUNT; t++) {
            for (int o = 0; o < GMS_CACHE__NOUTCOME; o++) sum.acc[t][o] += st[i]->acc[t][o];
            for (int f = 0; f < GMS_RF__COUNT; f++) sum.fail[t][f] += st[i]->fail[t][f];
            sum.total_access[t] += st[i]->total_access[t];
        }
        sum.rf_requests += st[i]->rf_requests;
    }
    uint64_t acc = 0, miss = 0, pend = 0, rf = 0;
    for (int t = 0; t < GMS_ACC__COUNT; t++) {
        acc += sum.acc[t][GMS_CACHE_HIT] + sum.acc[t][GMS_CACHE_HIT_RESERVED] +
               sum.acc[t][GMS_CACHE_MISS] + sum.acc[t][GMS_CACHE_SECTOR_MISS];
        miss += sum.acc[t][GMS_CACHE_MISS] + sum.acc[t][GMS_CACHE_SECTOR_MISS];
        pend += sum.acc[t][GMS_CACHE_HIT_RESERVED];
        rf += sum.acc[t][GMS_CACHE_RESERVATION_FAIL];
    }
    gms_stat_u64f(out, acc, "%s_total_cache_accesses", prefix);
    gms_stat_u64f(out, miss, "%s_total_cache_misses", prefix);
    gms_stat_f64f(out, acc ? (double)miss / (double)acc : 0.0, "%s_total_cache_miss_rate", prefix);
    gms_stat_u64f(out, pend, "%s_total_cache_pending_hits", prefix);
    gms_stat_u64f(out, rf, "%s_total_cache_reservation_fails", prefix);
    gms_stat_u64f(out, sum.rf_requests, "gms_%s_rf_requests", prefix);   /* ours: per request, not per attempt */
    for (int t = 0; t < GMS_ACC__COUNT; t++) {
        for (int o = 0; o < GMS_CACHE__NOUTCOME; o++)
            if (sum.acc[t][o])
                gms_stat_u64f(out, sum.acc[t][o], "%s_breakdown[%s][%s]", prefix,
                              gms_access_type_name[t], gms_cache_outcome_name[o]);
        if (sum.total_access[t])
            gms_stat_u64f(out, sum.total_access[t], "%s_breakdown[%s][TOTAL_ACCESS]", prefix,
                          gms_access_type_name[t]);
    }
    for (int t = 0; t < GMS_ACC__COUNT; t++)
        for (int f = 0; f < GMS_RF__COUNT; f++)
            if (sum.fail[t][f])
                gms_stat_u64f(out, sum.fail[t][f], "%s_fail_breakdown[%s][%s]", prefix,
                              gms_access_type_name[t], gms_rf_cause_name[f]);
}

void gms_cache_report(gms_cache *const *caches, size_t n, const char *prefix, gms_stats *out)
{
    gms_cache_stats acc;
    memset(&acc, 0, sizeof acc);
    for (size_t i = 0; i < n; i++) {
        if (!caches[i]) continue;
        const gms_cache_stats *s = gms_cache_get_stats(caches[i]);
        for (int t = 0; t < GMS_ACC__COUNT; t++) {
            for (int o = 0; o < GMS_CACHE__NOUTCOME; o++) acc.acc[t][o] += s->acc[t][o];
            for (int f = 0; f < GMS_RF__COUNT; f++) acc.fail[t][f] += s->fail[t][f];
            acc.total_access[t] += s->total_access[t];
        }
        acc.rf_requests += s->rf_requests;
    }
    const gms_cache_stats *p = &acc;
    gms_cache_report_stats(&p, 1, prefix, out);
    gms_mshr_stats ms;   /* ours: gms_<prefix>_mshr_* (mshr.c, docs/counters.md) */
    memset(&ms, 0, sizeof ms);
    for (size_t i = 0; i < n; i++) if (caches[i]) gms_cache_mshr_stats(caches[i], &ms);
    gms_mshr_report(&ms, prefix, out);
}
