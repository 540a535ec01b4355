/* Energy of the memory side by event counts (spec 000a 2.8 and 9.8: "event counts x
 * per-event energy"), for comparing the L2 input-queue members and RACB (docs/cart.md,
 * "Energy"). The per-event figures are a config table, -gms_energy; the spec gives none (its
 * -18.9% comes from GPUWattch), so the defaults are order-of-magnitude 45 nm figures, inferred:
 *   l2=200        pJ per L2 tag+data access attempt (a 128 KB 16-way bank, CACTI-order)
 *   dram_act=2000 pJ per activate + precharge (GDDR5)
 *   dram_rw=1600  pJ per read or write burst
 *   queue=5       pJ per leaf-queue / bank-queue write or read (CART, P2: a small SRAM)
 *   static_w=30   W of static and constant power of the whole GPU over kernel time, which is
 *                 what makes a faster run cheaper
 * and the hardware cost model of the MSHR designs and CART (docs/dlmshr.md "Area and energy"):
 * per-bit area, access energy and leakage of SRAM, CAM (binary NOR match line) and
 * flip-flop bits at 45 nm (the node of spec 000a 7: CACTI 6.5, FreePDK45):
 *   sram_um2=0.69  a 0.346 um2 6T cell (Intel 45 nm, Mistry et al., IEDM 2007) at the ~50 %
 *                  array efficiency CACTI gives small arrays
 *   cam_um2=1.4    a 10T NOR CAM cell is about twice the 6T cell (Pagiamtzis & Sheikholeslami,
 *                  JSSC 41(3), 2006), same efficiency
 *   ff_um2=4.52    NanGate FreePDK45 DFF_X1
 *   sram_fj=5      per bit read or written (CACTI-order for a small 45 nm array, decoders included)
 *   cam_fj=1       per bit compared in a search (match line + search line, Pagiamtzis 2006 scaled)
 *   ff_fj=2        per flip-flop bit written
 *   sram_nw=20, cam_nw=40, ff_nw=80   leakage per bit (45 nm high-performance devices; DFF_X1)
 *   addr_bits=40   physical address bits (a tag = addr_bits - log2 of the MSHR key's bytes)
 *   slot_bits=24   one MSHR request slot: warp 6, destination register 8, offset 7, type 3
 *   entry_bits=64  one CART leaf-queue entry: address 40, SM 5, warp 6, type 3, size and mask 10
 *   l2_slot_data_bits=1024  the data buffer each L2 MSHR slot has of its own (spec 002 section
 *                  1: "each slot needs its own data buffer"; 000a 1.2; its size is not given: one
 *                  128 B line); the L1D's slots hold none (their data goes to the registers)
 * and the cores' dynamic energy, which GPUWattch models per unit and we by two events (both
 * inferred orders of magnitude for a 40-45 nm Fermi-class SM; docs/cke.md "Energy"):
 *   core=2000      pJ per warp instruction issued: fetch, decode, scheduling, operand reads of 32
 *                  lanes (about 1 nJ of register file), 32 lanes of execution and writeback;
 *                  about 40 W at the 30 warp instructions a cycle of a busy 15-SM GTX480
 *   l1d=300        pJ per L1D access (a 16-48 KB array, a 128 B line read, tags; CACTI-order) */
#include "mem/l2q.h"
#include "stats/stats.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *name; size_t off; } fields[] = {
    { "l2", offsetof(gms_energy_params, l2_pj) },
    { "dram_act", offsetof(gms_energy_params, dram_act_pj) },
    { "dram_rw", offsetof(gms_energy_params, dram_rw_pj) },
    { "queue", offsetof(gms_energy_params, queue_pj) },
    { "static_w", offsetof(gms_energy_params, static_w) },
    { "sram_um2", offsetof(gms_energy_params, sram_um2) },
    { "cam_um2", offsetof(gms_energy_params, cam_um2) },
    { "ff_um2", offsetof(gms_energy_params, ff_um2) },
    { "sram_fj", offsetof(gms_energy_params, sram_fj) },
    { "cam_fj", offsetof(gms_energy_params, cam_fj) },
    { "ff_fj", offsetof(gms_energy_params, ff_fj) },
    { "sram_nw", offsetof(gms_energy_params, sram_nw) },
    { "cam_nw", offsetof(gms_energy_params, cam_nw) },
    { "ff_nw", offsetof(gms_energy_params, ff_nw) },
    { "addr_bits", offsetof(gms_energy_params, addr_bits) },
    { "slot_bits", offsetof(gms_energy_params, slot_bits) },
    { "entry_bits", offsetof(gms_energy_params, entry_bits) },
    { "l2_slot_data_bits", offsetof(gms_energy_params, l2_slot_data_bits) },
    { "core", offsetof(gms_energy_params, core_pj) },
    { "l1d", offsetof(gms_energy_params, l1d_pj) },
};
#define NAMES "l2, dram_act, dram_rw, queue, static_w, sram_um2, cam_um2, ff_um2, sram_fj, cam_fj, ff_fj, " \
              "sram_nw, cam_nw, ff_nw, addr_bits, slot_bits, entry_bits, l2_slot_data_bits, core, l1d"

int gms_energy_params_parse(const char *s, gms_energy_params *p, gms_error *err)
{
    const char *o = "-gms_energy";
    *p = (gms_energy_params){ 200, 2000, 1600, 5, 30, 0.69, 1.4, 4.52, 5, 1, 2, 20, 40, 80, 40, 24, 64, 1024, 2000, 300 };
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) return gms_err(err, "%s: expected name=value, got \"%s\" (names: " NAMES ")", o, tok);
        *eq = 0;
        size_t i = 0;
        while (i < sizeof fields / sizeof fields[0] && strcmp(fields[i].name, tok)) i++;
        if (i == sizeof fields / sizeof fields[0])
            return gms_err(err, "%s: unknown event \"%s\" (names: " NAMES ")", o, tok);
        char *end;
        double v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end || v < 0) return gms_err(err, "%s: %s must be a number >= 0, got \"%s\"", o, tok, eq + 1);
        *(double *)((char *)p + fields[i].off) = v;
    }
    return 0;
}

/* a counter reported earlier into out (the SMs' L1D statistics come before the memory
 * system's); 0 if absent */
static double got(const struct gms_stats *out, const char *pre, const char *what)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", pre, what);
    const gms_stat *s = gms_stats_find(out, name);
    return s ? s->value : 0.0;
}

/* one level's MSHR tables (gms_<prefix>_mshr_hw_*, mshr.c): area of one table, leakage of all and
 * of one, dynamic energy of all; returns the level's energy in nJ over `seconds` */
static double mshr_cost(const gms_energy_params *p, const char *prefix, double seconds, struct gms_stats *out)
{
    char pre[32];
    snprintf(pre, sizeof pre, "gms_%s_mshr_", prefix);
    double tables = got(out, pre, "tables");
    if (tables <= 0) return 0.0;
    double tag = p->addr_bits - got(out, pre, "hw_key_shift");
    if (tag < 1) tag = 1;
    double cam = got(out, pre, "hw_comparators") * tag;
    double slot = p->slot_bits + (strcmp(prefix, "L2") ? 0.0 : p->l2_slot_data_bits);
    double sram = got(out, pre, "hw_slots") * slot + got(out, pre, "hw_ptr_bits");
    double ff = got(out, pre, "hw_ff_bits");
    double area = cam * p->cam_um2 + sram * p->sram_um2 + ff * p->ff_um2;                 /* um2 */
    double leak = tables * (cam * p->cam_nw + sram * p->sram_nw + ff * p->ff_nw) * 1e-6;  /* mW */
    double dyn = (got(out, pre, "compares") * tag * p->cam_fj +
                  got(out, pre, "slot_ops") * slot * p->sram_fj +
                  got(out, pre, "ctrl_ops") * p->ff_fj) * 1e-6;             /* nJ */
    gms_stat_f64f(out, area * 1e-6, "gms_%s_mshr_area_mm2", prefix);
    gms_stat_f64f(out, leak, "gms_%s_mshr_leakage_mw", prefix);
    gms_stat_f64f(out, leak / tables, "gms_%s_mshr_leakage_mw_table", prefix);   /* Table 3.3's unit */
    gms_stat_f64f(out, dyn, "gms_%s_mshr_dynamic_nj", prefix);
    return dyn + leak * seconds * 1e6;
}

void gms_energy_report(const gms_energy_params *p, const gms_energy_events *e, struct gms_stats *out)
{
    double l2 = p->l2_pj * (double)e->l2_accesses * 1e-3;                     /* nJ */
    double dram = (p->dram_act_pj * (double)e->dram_act + p->dram_rw_pj * (double)e->dram_rw) * 1e-3;
    double q = p->queue_pj * (double)e->queue_ops * 1e-3;
    double st = p->static_w * e->seconds * 1e9;
    double mshr = mshr_cost(p, "L1D", e->seconds, out) + mshr_cost(p, "L2", e->seconds, out);
    double trees = got(out, "gms_l2q_", "trees");
    if (trees > 0) {   /* CART: area of one tree; its leakage joins the queue energy */
        double cam = got(out, "gms_l2q_", "hw_comparators") * got(out, "gms_l2q_", "hw_tag_bits");
        double sram = got(out, "gms_l2q_", "hw_entries") * p->entry_bits + got(out, "gms_l2q_", "hw_ptr_bits");
        double ff = got(out, "gms_l2q_", "hw_ff_bits");
        double leak = trees * (cam * p->cam_nw + sram * p->sram_nw + ff * p->ff_nw) * 1e-6;   /* mW */
        gms_stat_f64(out, "gms_l2q_area_mm2", (cam * p->cam_um2 + sram * p->sram_um2 + ff * p->ff_um2) * 1e-6);
        gms_stat_f64(out, "gms_l2q_leakage_mw", leak);
        q += leak * e->seconds * 1e6;
    }
    /* the SMs' counters are reported before the memory system's (got()) */
    double core = (p->core_pj * got(out, "", "gpgpu_n_tot_w_icount") +
                   p->l1d_pj * got(out, "", "L1D_total_cache_accesses")) * 1e-3;
    gms_stat_f64(out, "gms_energy_core_nj", core);
    gms_stat_f64(out, "gms_energy_l2_nj", l2);
    gms_stat_f64(out, "gms_energy_dram_nj", dram);
    gms_stat_f64(out, "gms_energy_queue_nj", q);
    gms_stat_f64(out, "gms_energy_mshr_nj", mshr);
    gms_stat_f64(out, "gms_energy_static_nj", st);
    /* everything but the static term (the MSHRs' and CART's leakage, under 0.1%, included) */
    gms_stat_f64(out, "gms_energy_dynamic_nj", core + l2 + dram + q + mshr);
    gms_stat_f64(out, "gms_energy_total_nj", core + l2 + dram + q + mshr + st);
}
