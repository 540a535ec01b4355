/* Energy of the memory side by event counts (spec 000a 2.8 and 9.8: "event counts x
 * per-event energy"), for comparing the L2 input-queue members and RACB (docs/cart.md,
 * "Energy"). The per-event figures are a config table, -gms_energy; the spec gives none (its
 * -18.9% comes from GPUWattch), so the defaults are order-of-magnitude 45 nm figures, inferred:
 *   l2=200        pJ per L2 tag+data access attempt (a 128 KB 16-way bank, CACTI-order)
 *   dram_act=2000 pJ per activate + precharge (GDDR5)
 *   dram_rw=1600  pJ per read or write burst
 *   queue=5       pJ per leaf-queue / bank-queue write or read (CART, P2: a small SRAM)
 *   static_w=30   W of static and constant power of the whole GPU over kernel time, which is
 *                 what makes a faster run cheaper */
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
};

int gms_energy_params_parse(const char *s, gms_energy_params *p, gms_error *err)
{
    const char *o = "-gms_energy";
    *p = (gms_energy_params){ 200, 2000, 1600, 5, 30 };
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) return gms_err(err, "%s: expected name=value, got \"%s\" (names: l2, dram_act, dram_rw, queue, static_w)", o, tok);
        *eq = 0;
        size_t i = 0;
        while (i < sizeof fields / sizeof fields[0] && strcmp(fields[i].name, tok)) i++;
        if (i == sizeof fields / sizeof fields[0])
            return gms_err(err, "%s: unknown event \"%s\" (names: l2, dram_act, dram_rw, queue, static_w)", o, tok);
        char *end;
        double v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end || v < 0) return gms_err(err, "%s: %s must be a number >= 0, got \"%s\"", o, tok, eq + 1);
        *(double *)((char *)p + fields[i].off) = v;
    }
    return 0;
}

void gms_energy_report(const gms_energy_params *p, const gms_energy_events *e, struct gms_stats *out)
{
    double l2 = p->l2_pj * (double)e->l2_accesses * 1e-3;                     /* nJ */
    double dram = (p->dram_act_pj * (double)e->dram_act + p->dram_rw_pj * (double)e->dram_rw) * 1e-3;
    double q = p->queue_pj * (double)e->queue_ops * 1e-3;
    double st = p->static_w * e->seconds * 1e9;
    gms_stat_f64(out, "gms_energy_l2_nj", l2);
    gms_stat_f64(out, "gms_energy_dram_nj", dram);
    gms_stat_f64(out, "gms_energy_queue_nj", q);
    gms_stat_f64(out, "gms_energy_static_nj", st);
    gms_stat_f64(out, "gms_energy_total_nj", l2 + dram + q + st);
}
