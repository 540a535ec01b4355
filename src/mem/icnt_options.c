#include "config/params.h"
#include <string.h>

#define I(name, type, field, def, help) GMS_OPT(name, type, icnt.field, def, help)
static const gms_option opts[] = {
    GMS_OPT_X("network_mode", GMS_OPT_U32, icnt.network_mode, "2", "interconnect model: 2 = local crossbar (1 = BookSim is read as 2)",
              GMS_SYN_PLAIN, "1 (BookSim) runs the local crossbar (2)"),
    GMS_OPT_X("inter_config_file", GMS_OPT_STRING, icnt.inter_config_file, "mesh", "BookSim config file (ignored: the local crossbar is used)",
              GMS_SYN_PLAIN, "BookSim is not modelled; the file is not read, the local crossbar runs"),
    I("icnt_flit_size", GMS_OPT_U32, flit_size, "32", "flit size in bytes"),
    I("icnt_in_buffer_limit", GMS_OPT_U32, in_buffer_limit, "64", "input buffer per port, flits (packets with -icnt_arbiter_algo 1)"),
    I("icnt_out_buffer_limit", GMS_OPT_U32, out_buffer_limit, "64", "output buffer per port, flits (packets with -icnt_arbiter_algo 1)"),
    GMS_OPT_X("icnt_subnets", GMS_OPT_U32, icnt.subnets, "2", "subnets (requests and replies always travel separately)",
              GMS_SYN_PLAIN, "requests and replies always travel on two separate crossbars"),
    I("icnt_arbiter_algo", GMS_OPT_U32, arbiter_algo, "1", "switch arbiter: 0 = round robin over inputs, 1 = iSLIP (per-output round robin, whole packets per cycle, buffers in packets; GPGPU-Sim local crossbar)"),
    I("icnt_latency", GMS_OPT_U32, latency, "0", "cycles through the switch (gpumemsim): 0 by default under -network_mode 2 "
      "(GPGPU-Sim's local crossbar adds none), 8 under -network_mode 1 (BookSim's router pipeline, approximated)"),
    GMS_OPT("gms_icnt_islip", GMS_OPT_STRING, icnt.islip_str, "multi",
            "iSLIP version (-icnt_arbiter_algo 1): multi (GPGPU-Sim 4.x: an input granted by one output may send to a later "
            "output in the same cycle) | once (Accel-Sim's GPGPU-Sim since its 2024 crossbar rewrite: one packet per input "
            "per cycle, the search starts after the pointer)"),
};
#undef I

static int fin(gms_params *p, gms_error *err)
{
    if (p->icnt.flit_size == 0) return gms_err(err, "-icnt_flit_size: must be at least 1 byte");
    /* not given: BookSim's configs (-network_mode 1, GPGPU-Sim 3.x and UVMSmart) pay a router
     * pipeline per traversal, approximated by 8 cycles; the local crossbar none */
    if (p->icnt.network_mode == 1 && !gms_params_is_set(p, "icnt_latency")) p->icnt.latency = 8;
    if (gms_param_wait_at_most(p->icnt.latency, "icnt_latency", err)) return -1;
    if (p->icnt.network_mode != 1 && p->icnt.network_mode != 2)
        return gms_err(err, "-network_mode: %u: only 1 (read as 2) and 2 (local crossbar) exist", p->icnt.network_mode);
    if (p->icnt.arbiter_algo > 1)
        return gms_err(err, "-icnt_arbiter_algo: %u: only 0 (round robin) and 1 (iSLIP) exist", p->icnt.arbiter_algo);
    if (!strcmp(p->icnt.islip_str, "multi")) p->icnt.islip_once = 0;
    else if (!strcmp(p->icnt.islip_str, "once")) p->icnt.islip_once = 1;
    else return gms_err(err, "-gms_icnt_islip: must be multi or once, got '%s'", p->icnt.islip_str);
    return 0;
}

static void dump(const gms_params *p, FILE *out)
{
    const gms_icnt_params *i = &p->icnt;
    if (i->arbiter_algo == 1)
        fprintf(out, "Interconnect: crossbar, iSLIP arbiter (%s), %u-cycle switch latency, buffers %u packets in / %u out "
                "per port, 1 packet per output per cycle%s at %.1f MHz\n", i->islip_once ? "once" : "multi", i->latency,
                i->in_buffer_limit, i->out_buffer_limit, i->islip_once ? " and per input" : "", p->core.mhz_icnt);
    else
        fprintf(out, "Interconnect: crossbar, round-robin arbiter, %u B flits, %u-cycle switch latency, buffers %u flits "
                "in / %u out per port, 1 flit per port per cycle at %.1f MHz\n", i->flit_size, i->latency,
                i->in_buffer_limit, i->out_buffer_limit, p->core.mhz_icnt);
}

const gms_config_module gms_config_module_icnt = { "icnt", opts, sizeof opts / sizeof opts[0], fin, dump };
