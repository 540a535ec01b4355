/* MSHR design registry: one line per member; the dump's words and the shared statistics. */
#include "mem/mshr.h"
#include "config/params.h"
#include <string.h>

extern const gms_mshr_ops gms_mshr_conventional, gms_mshr_dlmshr;

static const gms_mshr_ops *const registry[] = { &gms_mshr_conventional, &gms_mshr_dlmshr };

static long chosen(const struct gms_params *p);
static int knob_used(const struct gms_params *p, size_t i, const char *knob);
GMS_REGISTRY_DEFINE_KNOBS(gms_mshr_reg, "MSHR design", "gms_l1d_mshr", gms_mshr_ops, registry, name, summary, knobs, NULL,
                          chosen, knob_used);
static long chosen(const struct gms_params *p) { return gms_reg_index(&gms_mshr_reg, p->l1d.mshr_design); }
/* two roles: a -gms_l2_* knob belongs to the L2's design (-gms_l2_mshr), the rest to the L1D's */
static int knob_used(const struct gms_params *p, size_t i, const char *knob)
{
    const char *design = !strncmp(knob, "gms_l2_", 7) ? p->mem.l2_mshr_design : p->l1d.mshr_design;
    return gms_reg_index(&gms_mshr_reg, design) == (long)i;
}

const gms_mshr_ops *gms_mshr_find(const char *name) { return gms_reg_find(&gms_mshr_reg, name); }

uint32_t gms_mshr_latency(const gms_cache_config *c)
{
    if (c->mshr_params.latency) return c->mshr_params.latency;
    return strcmp(c->mshr_design, "dlmshr") ? 1 : 2;
}

const char *gms_mshr_describe(const gms_cache_config *c, const char *name)
{
    static _Thread_local char buf[256];
    if (!c->enabled) { snprintf(buf, sizeof buf, "%s (cache disabled)", name); return buf; }
    const gms_mshr_params *p = &c->mshr_params;
    uint32_t lat = gms_mshr_latency(c);
    if (!strcmp(c->mshr_design, "dlmshr")) {
        uint32_t spp = p->slots_per_set ? p->slots_per_set : 2;
        uint64_t slots = (uint64_t)c->mshr_entries * c->mshr_max_merge;
        uint64_t sets = slots / spp ? slots / spp : 1;
        uint64_t res = sets * p->reserve_pct / 100;
        snprintf(buf, sizeof buf, "dlmshr: %llu sets x %u slots (the string's %u x %u), %llu reserved as heads, "
                 "tail pointer %s, linkable sets %s be heads, access latency %u",
                 (unsigned long long)sets, spp, c->mshr_entries, c->mshr_max_merge, (unsigned long long)res,
                 p->tail_ptr ? "on" : "off", p->heads_anywhere ? "may" : "may not", lat);
    } else {
        snprintf(buf, sizeof buf, "%s: %u entries x %u slots, access latency %u", c->mshr_design, c->mshr_entries,
                 c->mshr_max_merge, lat);
    }
    return buf;
}

void gms_mshr_report(const gms_mshr_stats *s, const char *prefix, gms_stats *out)
{
    gms_stat_u64f(out, s->rf_entry, "gms_%s_mshr_rf_entry_full", prefix);
    gms_stat_u64f(out, s->rf_merge, "gms_%s_mshr_rf_merge_full", prefix);
    gms_stat_f64f(out, s->slot_cap_cycles ? (double)s->slot_cycles / (double)s->slot_cap_cycles : 0.0,
                  "gms_%s_mshr_slot_utilisation", prefix);
    /* the other reading of "utilisation" (spec 002 leaves the formula open): occupied slots
     * over the slots of the entries (sets) in use, i.e. how much of what was allocated holds
     * a request; a conventional entry holding only its primary uses 1 of its M slots */
    gms_stat_f64f(out, s->alloc_cap_cycles ? (double)s->slot_cycles / (double)s->alloc_cap_cycles : 0.0,
                  "gms_%s_mshr_alloc_utilisation", prefix);
    gms_stat_f64f(out, s->cycles ? (double)s->unit_cycles / (double)s->cycles : 0.0, "gms_%s_mshr_units_in_use", prefix);
    gms_stat_u64f(out, s->max_units, "gms_%s_mshr_units_in_use_max", prefix);
    gms_stat_u64f(out, s->released, "gms_%s_mshr_released", prefix);
    gms_stat_u64f(out, s->links, "gms_%s_mshr_links", prefix);
    gms_stat_u64f(out, s->link_stalls, "gms_%s_mshr_link_stalls", prefix);
    gms_stat_u64f(out, s->tail_hops, "gms_%s_mshr_tail_hops", prefix);
    /* the inputs of the area / energy model (l2q_energy.c turns them into gms_%s_mshr_area_mm2,
     * _leakage_mw and _dynamic_nj with the -gms_energy table) */
    gms_stat_u64f(out, s->tables, "gms_%s_mshr_tables", prefix);
    gms_stat_u64f(out, s->hw_cmp, "gms_%s_mshr_hw_comparators", prefix);
    gms_stat_u64f(out, s->hw_slots, "gms_%s_mshr_hw_slots", prefix);
    gms_stat_u64f(out, s->hw_ff, "gms_%s_mshr_hw_ff_bits", prefix);
    gms_stat_u64f(out, s->hw_ptr, "gms_%s_mshr_hw_ptr_bits", prefix);
    gms_stat_u64f(out, s->hw_key_shift, "gms_%s_mshr_hw_key_shift", prefix);
    gms_stat_u64f(out, s->searches, "gms_%s_mshr_searches", prefix);
    gms_stat_u64f(out, s->compares, "gms_%s_mshr_compares", prefix);
    gms_stat_u64f(out, s->slot_ops, "gms_%s_mshr_slot_ops", prefix);
    gms_stat_u64f(out, s->ctrl_ops, "gms_%s_mshr_ctrl_ops", prefix);
    for (int i = 0; i < GMS_MSHR_CHAIN_BINS; i++)
        if (s->chain_hist[i])
            gms_stat_u64f(out, s->chain_hist[i], "gms_%s_mshr_chain_len[%d%s]", prefix, i + 1,
                          i == GMS_MSHR_CHAIN_BINS - 1 ? "+" : "");
}
