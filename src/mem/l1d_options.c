/* L1 data cache options (GPGPU-Sim names, plus ours prefixed gms_). */
#include "config/params.h"
#include "mem/index.h"
#include "mem/mshr.h"
#include <string.h>

static const gms_option opts[] = {
    GMS_OPT("gpgpu_cache:dl1", GMS_OPT_STRING, l1d.dl1_str, "N:32:128:4,L:L:m:N:H,A:32:8,8",
            "L1 data cache config (GPGPU-Sim cache string, docs/cache.md; 'none' disables the L1D)"),
    GMS_OPT("gpgpu_l1_latency", GMS_OPT_U32, l1d.l1_latency, "1", "L1D hit latency (core cycles)"),
    GMS_OPT("gms_l1d_index_latency", GMS_OPT_U32, l1d.index_latency, "0",
            "cycles the L1D set-index function adds to every L1D access, pipelined (spec 001 3.2: PMOD, I-Poly hashing; none modelled by default)"),
    GMS_OPT("gpgpu_l1_banks", GMS_OPT_U32, l1d.l1_banks, "1", "L1D banks: requests accepted per cycle"),
    GMS_OPT("gms_l1d_pmod_prime", GMS_OPT_U32, l1d.pmod_prime, "0",
            "prime for set index M (PMOD), A (A-prime), D (D-prime multiplier); 0 = default (largest prime <= sets, smallest prime > sets, 11)"),
    GMS_OPT("gms_l1d_bxor_t_shift", GMS_OPT_U32, l1d.bxor_t_shift, "0",
            "set index X (BXOR): lowest address bit s of t = addr[s+k-1:s] (k = log2 sets); 0 = b + k, the bits "
            "right above the set bits (textbook, GPGPU-Sim); 14 = 2b with 128 B lines, the sound-baseline fork's (spec 001 3.2)"),
    GMS_OPT("gms_l1d_bypass_slots", GMS_OPT_INT, l1d.bypass_slots_opt, "0",
            "in-flight L1-bypassing requests per SM (#_BpR: 8, 32, 128 in spec 001 3.6); -1 or 0 = unlimited"),
    GMS_OPT("gms_l1d_mshr", GMS_OPT_STRING, l1d.mshr_design, "conventional",
            "L1D MSHR design (gpumemsim list policies)"),
    GMS_OPT("gms_l1d_dlmshr", GMS_OPT_STRING, l1d.dlmshr_str, GMS_DLMSHR_DEFAULT,
            "L1D DL-MSHR slots_per_set:reserved_percent:tail_pointer:heads_anywhere (docs/dlmshr.md)"),
    GMS_OPT("gms_l1d_mshr_latency", GMS_OPT_U32, l1d.mshr_latency, "0",
            "L1D MSHR access cycles; 0 = the design's own (conventional 1, dlmshr 2): a primary miss leaves "
            "the miss queue latency-1 cycles later (docs/dlmshr.md)"),
    /* MRPB (docs/mrpb.md): the defaults are the dissertation's reimplementation (spec 001 3.7) */
    GMS_OPT("gms_mrpb", GMS_OPT_BOOL, l1d.mrpb.on, "0",
            "MRPB: per-warp request queues between the LSU and the L1D, and reads the L1D refuses bypass it"),
    GMS_OPT("gms_mrpb_queues", GMS_OPT_U32, l1d.mrpb.queues, "0",
            "MRPB queues per SM, chosen by warp slot mod queues; 0 = one per warp slot"),
    GMS_OPT("gms_mrpb_queue_size", GMS_OPT_U32, l1d.mrpb.queue_size, "128", "MRPB entries per queue"),
    GMS_OPT("gms_mrpb_drain", GMS_OPT_STRING, l1d.mrpb.drain_str, "fixed",
            "MRPB drain: fixed (lowest-numbered non-empty queue) | sticky (one queue until empty, then round-robin)"),
    GMS_OPT("gms_mrpb_drain_width", GMS_OPT_U32, l1d.mrpb.width, "1", "MRPB requests sent to the L1D per cycle"),
    GMS_OPT("gms_mrpb_bypass", GMS_OPT_STRING, l1d.mrpb.bypass_str, "any",
            "MRPB bypass of reads the L1D refuses: any (any reservation fail) | line (no line: all ways reserved) | none"),
};

static int fin(gms_params *p, gms_error *err)
{
    const char *on = "-gpgpu_cache:dl1";
    if (gms_cache_config_parse(p->l1d.dl1_str, on, &p->l1d.dl1, err)) return -1;
    if (!gms_mshr_find(p->l1d.mshr_design)) return gms_reg_unknown(&gms_mshr_reg, p->l1d.mshr_design, err);
    p->l1d.dl1.pmod_prime = p->l1d.pmod_prime;
    snprintf(p->l1d.dl1.mshr_design, sizeof p->l1d.dl1.mshr_design, "%s", p->l1d.mshr_design);
    if (p->l1d.bypass_slots_opt < -1)
        return gms_err(err, "-gms_l1d_bypass_slots: %d is not a number of slots (N >= 1, or -1 / 0 for unlimited)",
                       p->l1d.bypass_slots_opt);
    p->l1d.bypass_slots = p->l1d.bypass_slots_opt > 0 ? (uint32_t)p->l1d.bypass_slots_opt : 0;
    if (gms_mshr_params_parse(p->l1d.dlmshr_str, "-gms_l1d_dlmshr", &p->l1d.dl1.mshr_params, err)) return -1;
    if (gms_param_wait_at_most(p->l1d.mshr_latency, "gms_l1d_mshr_latency", err) ||
        gms_param_wait_at_most(p->l1d.l1_latency, "gpgpu_l1_latency", err) ||
        gms_param_wait_at_most(p->l1d.index_latency, "gms_l1d_index_latency", err))
        return -1;
    p->l1d.dl1.mshr_params.latency = p->l1d.mshr_latency;
    if (p->l1d.pmod_prime && p->l1d.dl1.enabled && !strchr("MAD", p->l1d.dl1.set_index))
        return gms_err(err, "-gms_l1d_pmod_prime %u: the L1D set index '%c' does not use a prime (set index M, A or D in -gpgpu_cache:dl1 does)",
                       p->l1d.pmod_prime, p->l1d.dl1.set_index);
    if (p->l1d.pmod_prime && !p->l1d.dl1.enabled)
        return gms_err(err, "-gms_l1d_pmod_prime %u: the L1D is disabled ('none')", p->l1d.pmod_prime);
    p->l1d.dl1.bxor_t_shift = p->l1d.bxor_t_shift;
    if (p->l1d.bxor_t_shift && !p->l1d.dl1.enabled)
        return gms_err(err, "-gms_l1d_bxor_t_shift %u: the L1D is disabled ('none')", p->l1d.bxor_t_shift);
    if (p->l1d.bxor_t_shift && p->l1d.dl1.set_index != 'X')
        return gms_err(err, "-gms_l1d_bxor_t_shift %u: the L1D set index '%c' is not BXOR (set index X in -gpgpu_cache:dl1 is)",
                       p->l1d.bxor_t_shift, p->l1d.dl1.set_index);
    if (gms_index_bxor_shift_check(&p->l1d.dl1, "-gms_l1d_bxor_t_shift", err)) return -1;
    if (gms_cache_config_validate(&p->l1d.dl1, on, err)) return -1;
    if (p->l1d.dl1.enabled && !strcmp(p->l1d.mshr_design, "dlmshr") &&
        gms_dlmshr_geometry_check(&p->l1d.dl1, on, "-gms_l1d_dlmshr", p->l1d.dlmshr_str, err))
        return -1;
    /* without an L1D every global access goes to the L2: who may use the L1D, and its MSHR
     * design, would be accepted and never used (core finalized before: the policy is known) */
    static const char *const l1d_mshr_knobs[] = { "gms_l1d_mshr", "gms_l1d_dlmshr", NULL };
    if (!p->l1d.dl1.enabled && strcmp(p->core.l1d_bypass, "none"))
        return gms_err(err, "-gms_l1d_bypass %s is set, but it has no effect unless the L1D exists (-gpgpu_cache:dl1 is "
                       "none: every global access goes to the L2)", p->core.l1d_bypass);
    if (gms_params_require(p, l1d_mshr_knobs, p->l1d.dl1.enabled, "the L1D exists (-gpgpu_cache:dl1 is not none)", err))
        return -1;
    if (p->l1d.l1_banks == 0) return gms_err(err, "-gpgpu_l1_banks: must be at least 1");
    static const char *const mrpb_knobs[] = { "gms_mrpb_", NULL };
    if (gms_params_require(p, mrpb_knobs, p->l1d.mrpb.on, "-gms_mrpb 1", err)) return -1;
    if (gms_mrpb_params_finalize(&p->l1d.mrpb, err)) return -1;
    return 0;
}

static void dump(const gms_params *p, FILE *out)
{
    char size[32], rest[512];
    gms_cache_config_describe_parts(&p->l1d.dl1, size, sizeof size, rest, sizeof rest);
    if (p->l1d.dl1.enabled) fprintf(out, "L1D: %s per SM%s\n", size, rest);
    else fprintf(out, "L1D: disabled (none): every global access goes to L2\n");
    fprintf(out, "L1D hit latency: %u core cycles, %u bank%s\n", p->l1d.l1_latency, p->l1d.l1_banks,
            p->l1d.l1_banks == 1 ? "" : "s");
    if (p->l1d.index_latency)
        fprintf(out, "L1D set-index latency: %u core cycles more on every L1D access (pipelined)\n", p->l1d.index_latency);
    if (p->l1d.bypass_slots) fprintf(out, "L1D bypass slots: %u in-flight bypassed requests per SM\n", p->l1d.bypass_slots);
    else fprintf(out, "L1D bypass slots: unlimited\n");
    fprintf(out, "L1D MSHR design: %s\n", gms_mshr_describe(&p->l1d.dl1, p->l1d.mshr_design));
    const gms_mrpb_params *m = &p->l1d.mrpb;
    if (m->on && p->l1d.dl1.enabled) {
        char nq[48];
        if (m->queues) snprintf(nq, sizeof nq, "%u queues", m->queues); else snprintf(nq, sizeof nq, "one queue per warp slot");
        fprintf(out, "MRPB: %s, %u entries each, drain %s, %u request(s) per cycle to the L1D; bypass of refused reads: %s\n",
                nq, m->queue_size, m->drain == GMS_MRPB_DRAIN_FIXED ? "lowest-numbered non-empty queue" : "one queue until empty, then round-robin",
                m->width, m->bypass == GMS_MRPB_BYPASS_ANY ? "any cause" : m->bypass == GMS_MRPB_BYPASS_LINE ? "no line (all ways reserved)" : "none");
    } else if (m->on) {
        fprintf(out, "MRPB: on, but the L1D is disabled: no effect\n");
    }
}

const gms_config_module gms_config_module_l1d = { "l1d", opts, sizeof opts / sizeof opts[0], fin, dump };
