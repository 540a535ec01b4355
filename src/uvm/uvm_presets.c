/* The seeds' policy options (spec 000b 2.6, spec 003 5.9): range checks, one clear error each,
 * and -uvm_policy, the papers' combined names (prefetcher + eviction, e.g. TPTE = tree
 * prefetcher + tree eviction, CAPTURE = CAP + TURE). A preset sets the prefetcher of both
 * roles (it stays on once oversubscribed, as in the seed's combined runs) and the eviction. */
#include <ctype.h>
#include <string.h>
#include "uvm/uvm_internal.h"

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

static const struct { const char *abbr, *name; } pf_names[] = {
    { "np", "none" }, { "rp", "random" }, { "sp", "seq" }, { "tp", "tree" }, { "cap", "cap" },
};
static const struct { const char *abbr, *name; } ev_names[] = {
    { "re", "random" }, { "se", "lru64k" }, { "te", "tree" }, { "ne", "lru2m" }, { "lru", "lru4k" },
    { "ture", "ture" }, { "hpe", "hpe" }, { "rrip", "rrip" }, { "clockpro", "clockpro" },
};

static int apply_preset(gms_uvm_params *u, gms_error *err)
{
    char s[GMS_OPT_STRLEN];
    size_t n = strlen(u->pol.preset);
    for (size_t i = 0; i <= n; i++) s[i] = (char)tolower((unsigned char)u->pol.preset[i]);
    const char *pf = NULL, *ev = NULL;
    if (!strcmp(s, "capture")) {
        pf = "cap"; ev = "ture";
    } else {
        for (size_t i = 0; i < sizeof pf_names / sizeof pf_names[0] && !ev; i++) {
            size_t k = strlen(pf_names[i].abbr);
            if (strncmp(s, pf_names[i].abbr, k)) continue;
            for (size_t j = 0; j < sizeof ev_names / sizeof ev_names[0]; j++)
                if (!strcmp(s + k, ev_names[j].abbr)) { pf = pf_names[i].name; ev = ev_names[j].name; break; }
        }
    }
    if (!pf)
        return gms_err(err, "-uvm_policy: unknown preset '%s'; known: capture, or a prefetcher (np, rp, sp, tp, cap) "
                       "followed by an eviction (re, se, te, ne, lru, ture, hpe, rrip, clockpro), e.g. rpre, spse, tpte, tpne",
                       u->pol.preset);
    u->prefetch_id = u->prefetch_oversub_id = gms_uvm_prefetch_find(pf);
    u->evict_id = gms_uvm_evict_find(ev);
    if (u->prefetch_id < 0 || u->evict_id < 0) return gms_err(err, "-uvm_policy: '%s' names a policy that is not built in", u->pol.preset);
    return 0;
}

int gms_uvm_policy_finalize(gms_uvm_params *u, gms_error *err)
{
    const gms_uvm_policy_params *p = &u->pol;
    if (!(p->cap_c > 0)) return gms_err(err, "-uvm_cap_c: %g must be positive", p->cap_c);
    if (!pow2(p->cap_min) || p->cap_min < GMS_UVM_BB_SIZE)
        return gms_err(err, "-uvm_cap_min: %llu bytes is not a power of two of at least 64 KiB", (unsigned long long)p->cap_min);
    if (!pow2(p->cap_max) || p->cap_max < p->cap_min || p->cap_max > GMS_UVM_LP_SIZE)
        return gms_err(err, "-uvm_cap_max: %llu bytes is not a power of two between -uvm_cap_min and 2 MiB",
                       (unsigned long long)p->cap_max);
    if (!pow2(p->cap_oversub) || p->cap_oversub < GMS_UVM_BB_SIZE || p->cap_oversub > GMS_UVM_LP_SIZE)
        return gms_err(err, "-uvm_cap_oversub_size: %llu bytes is not a power of two between 64 KiB and 2 MiB",
                       (unsigned long long)p->cap_oversub);
    if (!p->ture_period || !p->ture_window || p->ture_window > p->ture_period)
        return gms_err(err, "-uvm_ture_window %u / -uvm_ture_period %u: need 0 < window <= period", p->ture_window, p->ture_period);
    if (!p->ture_sampler || p->ture_sampler > 4096) return gms_err(err, "-uvm_ture_sampler_entries: %u is not in 1..4096", p->ture_sampler);
    if (!p->ture_table || p->ture_table > 65536) return gms_err(err, "-uvm_ture_table_entries: %u is not in 1..65536", p->ture_table);
    if (!p->ture_evict_blocks) return gms_err(err, "-uvm_ture_evict_blocks: must be at least 1");
    if (!p->ture_max_lease || p->ture_max_lease > 65535) return gms_err(err, "-uvm_ture_max_lease: %u is not in 1..65535", p->ture_max_lease);
    if (!(p->ture_weight >= 0 && p->ture_weight <= 1)) return gms_err(err, "-uvm_ture_weight: %g is not in [0, 1]", p->ture_weight);
    if (!(p->ture_scale > 0)) return gms_err(err, "-uvm_ture_scale: %g must be positive", p->ture_scale);
    if (!strcmp(p->ture_lease_str, "countdown")) u->pol.ture_renew = 0;
    else if (!strcmp(p->ture_lease_str, "renew")) u->pol.ture_renew = 1;
    else return gms_err(err, "-uvm_ture_lease: '%s' is not one of countdown, renew", p->ture_lease_str);
    if (!strcmp(p->ture_pressure_str, "table")) u->pol.ture_pressure_lru = 0;
    else if (!strcmp(p->ture_pressure_str, "lru")) u->pol.ture_pressure_lru = 1;
    else return gms_err(err, "-uvm_ture_pressure: '%s' is not one of table, lru", p->ture_pressure_str);
    if (!strcmp(p->random_pick_str, "page")) u->pol.random_region = 0;
    else if (!strcmp(p->random_pick_str, "region")) u->pol.random_region = 1;
    else return gms_err(err, "-uvm_random_pick: '%s' is not one of page, region", p->random_pick_str);
    if (!pow2(p->hpe_set) || p->hpe_set > 64) return gms_err(err, "-uvm_hpe_set_pages: %u is not a power of two up to 64", p->hpe_set);
    if (!p->hpe_interval) return gms_err(err, "-uvm_hpe_interval: must be at least 1");
    if (!p->hpe_transfer) return gms_err(err, "-uvm_hpe_transfer: must be at least 1");
    if (p->hpe_hir_entries && (!p->hpe_hir_ways || p->hpe_hir_entries % p->hpe_hir_ways))
        return gms_err(err, "-uvm_hpe_hir_ways: %u does not divide -uvm_hpe_hir_entries %u", p->hpe_hir_ways, p->hpe_hir_entries);
    if (!p->hpe_hir_bits || p->hpe_hir_bits > 16) return gms_err(err, "-uvm_hpe_hir_counter_bits: %u is not in 1..16", p->hpe_hir_bits);
    if (!p->hpe_sat || p->hpe_sat > 65535) return gms_err(err, "-uvm_hpe_counter_max: %u is not in 1..65535", p->hpe_sat);
    if (!(p->hpe_ratio1 >= 0) || !(p->hpe_ratio2 >= 0)) return gms_err(err, "-uvm_hpe_ratio1/-uvm_hpe_ratio2: must not be negative");
    if (!p->hpe_fifo) return gms_err(err, "-uvm_hpe_fifo: must be at least 1");
    if (!p->hpe_wrong) return gms_err(err, "-uvm_hpe_wrong: must be at least 1");
    if (!p->rrip_bits || p->rrip_bits > 8) return gms_err(err, "-uvm_rrip_bits: %u is not in 1..8", p->rrip_bits);
    if (p->preset[0]) return apply_preset(u, err);
    return 0;
}
