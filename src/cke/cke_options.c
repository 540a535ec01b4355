/* Options of concurrent kernel execution (module "cke"): the two scheme families and the
 * multiprogramming window. */
#include "config/params.h"
#include "cke/cke.h"
#include <stdlib.h>
#include <string.h>

#define K(name, type, field, def, help) GMS_OPT(name, type, cke.field, def, help)
static const gms_option cke_opts[] = {
    K("gms_cke_tb", GMS_OPT_STRING, tb, "greedy",
      "multiprogrammed runs (workload cke): block partition per SM: greedy, spatial, manual:T0,T1[,T2], ws "
      "(Warped-Slicer), smk (SMK-P, dominant resource fairness), ws-ucp (Warped-Slicer + UCP L1D way "
      "partitioning)"),
    K("gms_cke_mi", GMS_OPT_STRING, mi, "none",
      "multiprogrammed runs: memory-issue scheme: none, rbmi, qbmi, smil:L0,L1[,L2] (0 = no limit), dmil, "
      "qbmi+dmil, smkw (SMK-W warp-instruction quotas)"),
    K("gms_cke_window", GMS_OPT_U64, window, "2000000",
      "multiprogrammed runs: core cycles every application runs (a finished one restarts)"),
    K("gms_cke_profile_window", GMS_OPT_U64, profile_window, "200000",
      "multiprogrammed runs, Warped-Slicer: core cycles of each scalability-curve profile run"),
    K("gms_cke_interval", GMS_OPT_U32, interval, "1024",
      "multiprogrammed runs: requests of a kernel between two QBMI / DMIL updates (a power of two)"),
    K("gms_cke_dmil_rf_bits", GMS_OPT_U32, rf_bits, "12",
      "multiprogrammed runs: width of DMIL's reservation-fail counter (12 in the dissertation: at most 3 fails "
      "per request are seen)"),
    K("gms_cke_dmil_met", GMS_OPT_STRING, dmil_met, "remove",
      "multiprogrammed runs, DMIL: an interval under one reservation fail per request (the goal met): remove the "
      "kernel's limit (spec 001 4.5's inferred edge case) or keep it as it is (\"reduced only when > 1 RF/request\"; "
      "the limit then only ratchets down)"),
    K("gms_cke_ucp_period", GMS_OPT_U32, ucp_period, "4096",
      "multiprogrammed runs, ws-ucp: L1D accesses of an SM between two UCP way repartitions (lookahead on the "
      "kernels' utility monitors, whose counters are then halved)"),
    K("gms_cke_ucp_enforce", GMS_OPT_STRING, ucp_enforce, "quota",
      "multiprogrammed runs, ws-ucp: how a kernel's share of the L1D ways is kept: quota (UCP's own replacement: a "
      "kernel under its quota in a set evicts another kernel's LRU line, one at or over it its own LRU line) or ways "
      "(each kernel's misses evict only within its own contiguous range of ways)"),
    K("gms_cke_wq_epoch", GMS_OPT_U32, wq_epoch, "1000",
      "multiprogrammed runs, SMK-W: warp instructions per quota epoch and SM, shared in proportion to the "
      "kernels' isolated IPC"),
    K("gms_cke_smkw_idle", GMS_OPT_U32, smkw_idle, "256",
      "multiprogrammed runs, SMK-W: a kernel with quota left that has issued nothing for this many cycles counts "
      "as used up, so the others get new quotas (0: only a kernel with no block on the SM counts as used up, the "
      "literal \"new quotas only when all are used up\")"),
    K("gms_cke_smkw_rate", GMS_OPT_STRING, smkw_rate, "isolated",
      "multiprogrammed runs, SMK-W: where the isolated IPCs that set the quota shares come from: isolated (each "
      "kernel's run alone for the whole window, the run STP and ANTT divide by) or profile (a run alone for "
      "-gms_cke_profile_window cycles, the profiling Warped-Slicer's curves come from)"),
    K("gms_cke_bmi_insts", GMS_OPT_STRING, bmi_insts, "lsu",
      "multiprogrammed runs, RBMI / QBMI: the memory instructions they balance: global (global and local accesses, "
      "the ones that make requests: quota, turn, Req/Minst and demand at the gate) or lsu (every instruction the "
      "LSU executes, shared, constant and texture ones too, each spending quota and moving the turn; Req/Minst "
      "over all of them). The in-flight limits (SMIL, DMIL) count global and local accesses either way"),
    K("gms_cke_bmi_demand", GMS_OPT_STRING, bmi_demand, "parked",
      "multiprogrammed runs, RBMI / QBMI: which warps are a kernel's demand at the memory-issue arbitration (spec 001 "
      "4.4: \"among warps (all schedulers) with a ready memory instruction\"): parked (also a warp whose scheduler's "
      "memory slot is full, with its operands ready: it waits before the issue gate) or gate (only a warp at the "
      "issue gate or in the LSU's queue, as before 2026-12-03; the co-runner's instructions in the slots then hide "
      "a starving kernel's demand)"),
    K("gms_cke_mshr_partition", GMS_OPT_BOOL, mshr_partition, "0",
      "multiprogrammed runs: each kernel with blocks on an SM may hold at most an equal share (rounded up) of "
      "that SM's L1D MSHR entries and miss-queue entries (spec 001 4.3: tried, no gain)"),
    K("gms_cke_isolated", GMS_OPT_BOOL, isolated, "1",
      "multiprogrammed runs: also run every application alone for the window (STP, ANTT, fairness)"),
};
#undef K

/* "name" or "name:a,b[,c]" */
static int parse_member(const gms_registry *reg, const char *s, long *idx, uint32_t *args, uint32_t *nargs,
                        gms_error *err)
{
    size_t len = strcspn(s, ":");
    *idx = gms_reg_index_n(reg, s, len);
    *nargs = 0;
    if (*idx < 0) {
        char known[512];
        gms_reg_known(reg, known, sizeof known);
        return gms_err(err, "-%s: unknown %s '%.*s'; known: %s", reg->option, reg->family, (int)len, s, known);
    }
    if (!s[len]) return 0;
    const char *p = s + len + 1;
    while (*p) {
        if (*nargs == GMS_CKE_MAX_APPS)
            return gms_err(err, "-%s: '%s': at most %d numbers", reg->option, s, GMS_CKE_MAX_APPS);
        char *end;
        unsigned long v;
        if (!strncmp(p, "inf", 3)) { v = 0; end = (char *)p + 3; }
        else v = strtoul(p, &end, 10);
        if (end == p || v > 1024 || (*end && *end != ','))
            return gms_err(err, "-%s: '%s': '%s' is not a number 0..1024 (or inf)", reg->option, s, p);
        args[(*nargs)++] = (uint32_t)v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

static int cke_finalize(gms_params *p, gms_error *err)
{
    gms_cke_params *c = &p->cke;
    if (parse_member(&gms_cke_tb_reg, c->tb, &c->tb_idx, c->tb_args, &c->ntb_args, err) ||
        parse_member(&gms_cke_mi_reg, c->mi, &c->mi_idx, c->mi_args, &c->nmi_args, err))
        return -1;
    if (c->interval == 0 || (c->interval & (c->interval - 1)))
        return gms_err(err, "-gms_cke_interval: %u is not a power of two", c->interval);
    if (c->rf_bits < 1 || c->rf_bits > 32) return gms_err(err, "-gms_cke_dmil_rf_bits: %u is not in 1..32", c->rf_bits);
    /* DMIL divides by the fails per request, RF >> log2(interval): a counter that cannot reach
     * the interval always reads 0 fails per request, and DMIL would never limit anything */
    if (gms_cke_mi_at(c->mi_idx)->interval && ((1ULL << c->rf_bits) - 1) < c->interval)   /* a DMIL member */
        return gms_err(err, "-gms_cke_dmil_rf_bits %u: a counter of at most %llu cannot count one fail per request over "
                       "-gms_cke_interval %u requests (DMIL would never limit); give at least %u bits",
                       c->rf_bits, (unsigned long long)((1ULL << c->rf_bits) - 1), c->interval,
                       (unsigned)(64 - __builtin_clzll((unsigned long long)c->interval)));
    if (!strcmp(c->dmil_met, "remove")) c->dmil_keep = 0;
    else if (!strcmp(c->dmil_met, "keep")) c->dmil_keep = 1;
    else return gms_err(err, "-gms_cke_dmil_met: '%s' is not remove or keep", c->dmil_met);
    if (!strcmp(c->bmi_insts, "global")) c->bmi_lsu = 0;
    else if (!strcmp(c->bmi_insts, "lsu")) c->bmi_lsu = 1;
    else return gms_err(err, "-gms_cke_bmi_insts: '%s' is not global or lsu", c->bmi_insts);
    if (!strcmp(c->bmi_demand, "parked")) c->bmi_parked = 1;
    else if (!strcmp(c->bmi_demand, "gate")) c->bmi_parked = 0;
    else return gms_err(err, "-gms_cke_bmi_demand: '%s' is not parked or gate", c->bmi_demand);
    if (!strcmp(c->smkw_rate, "isolated")) c->smkw_profile = 0;
    else if (!strcmp(c->smkw_rate, "profile")) c->smkw_profile = 1;
    else return gms_err(err, "-gms_cke_smkw_rate: '%s' is not isolated or profile", c->smkw_rate);
    if (c->window == 0) return gms_err(err, "-gms_cke_window: must be at least 1 cycle");
    if (c->profile_window == 0) return gms_err(err, "-gms_cke_profile_window: must be at least 1 cycle");
    if (c->ucp_period == 0) return gms_err(err, "-gms_cke_ucp_period: must be at least 1");
    if (!strcmp(c->ucp_enforce, "quota")) c->ucp_ways = 0;
    else if (!strcmp(c->ucp_enforce, "ways")) c->ucp_ways = 1;
    else return gms_err(err, "-gms_cke_ucp_enforce: '%s' is not quota or ways", c->ucp_enforce);
    if (c->wq_epoch == 0) return gms_err(err, "-gms_cke_wq_epoch: must be at least 1");
    return 0;
}

static void cke_dump(const gms_params *p, FILE *out)
{
    const gms_cke_params *c = &p->cke;
    fprintf(out, "Concurrent kernels (workload cke only): block partition %s, memory issue %s, window %llu cycles%s\n",
            c->tb, c->mi, (unsigned long long)c->window, c->isolated ? ", each application also alone" : "");
}

const gms_config_module gms_config_module_cke = { "cke", cke_opts, sizeof cke_opts / sizeof cke_opts[0], cke_finalize, cke_dump };
