/* The L2 input side's counters (l2q.h gms_l2q_stats), docs/counters.md "L2 input queue". */
#include "mem/l2q.h"
#include "mem/cache.h"
#include "stats/stats.h"

const char *const gms_l2q_stall_name[GMS_L2Q_STALL__N] = { "to_dram_full", "to_icnt_full", "data_port",
                                                            "not_ready", "reservation_fail" };

void gms_l2q_report(const gms_l2q_stats *a, struct gms_stats *out)
{
    uint64_t all = 0;
    for (int i = 0; i < GMS_L2Q_STALL__N; i++) {
        gms_stat_u64f(out, a->stall[i], "gms_l2q_stall[%s]", gms_l2q_stall_name[i]);
        all += a->stall[i];
    }
    gms_stat_u64(out, "gms_l2q_stall", all);
    for (int i = 0; i < GMS_RF__COUNT; i++) gms_stat_u64f(out, a->rf[i], "gms_l2q_stall_rf[%s]", gms_rf_cause_name[i]);
    gms_stat_u64(out, "gms_l2q_accessed", a->accessed);
    gms_stat_f64(out, "gms_l2q_occupancy", a->occ_cycles ? (double)a->occ_integral / (double)a->occ_cycles : 0.0);
    gms_stat_u64(out, "gms_l2q_max_held", a->max_held);
    gms_stat_u64(out, "gms_l2q_fills", a->fills);
    gms_stat_u64(out, "gms_l2q_fill_stalls", a->fill_stalls);
    gms_stat_u64(out, "gms_l2q_pick_same_queue", a->pick_same_queue);
    gms_stat_u64(out, "gms_l2q_pick_same_row", a->pick_same_row);
    gms_stat_u64(out, "gms_l2q_pick_longest", a->pick_longest);
    gms_stat_u64(out, "gms_l2q_pick_other", a->pick_other);
    gms_stat_u64(out, "gms_l2q_pick_aged", a->pick_aged);
    gms_stat_u64(out, "gms_l2q_p1_skipped", a->skipped);
    gms_stat_u64(out, "gms_l2_racb_bypassed", a->racb);
    if (a->trees) {   /* a reordering structure with a hardware cost (CART) */
        gms_stat_u64(out, "gms_l2q_trees", a->trees);
        gms_stat_u64(out, "gms_l2q_hw_entries", a->hw_entries);
        gms_stat_u64(out, "gms_l2q_hw_comparators", a->hw_cmp);
        gms_stat_u64(out, "gms_l2q_hw_tag_bits", a->hw_tag_bits);
        gms_stat_u64(out, "gms_l2q_hw_ff_bits", a->hw_ff);
        gms_stat_u64(out, "gms_l2q_hw_ptr_bits", a->hw_ptr);
    }
}
