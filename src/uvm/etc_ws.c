/* The working set per window (spec 004 Fig. 1: working set size against the active core count):
 * the distinct managed pages touched in each -gms_uvm_ws_window cycles. Windows with no access
 * (the SMs all waiting) are left out; the last window is left out when it is partial and an
 * earlier one exists. Reported as gms_uvm_ws_pages_mean / _max over the windows. */
#include <stdlib.h>
#include <string.h>
#include "uvm/etc_internal.h"

static void close_window(gms_uvm_etc *e)
{
    if (!e->ws_count) return;
    e->ws_sum += e->ws_count;
    e->ws_n++;
    if (e->ws_count > e->ws_max) e->ws_max = e->ws_count;
    e->ws_count = 0;
}

void gms_uvm_ws_note(gms_uvm *u, uint32_t page, uint64_t now)
{
    gms_uvm_etc *e = u->ba.etc;
    if (!e || !e->ws_window) return;
    uint64_t w = now / e->ws_window + 1;
    if (w != e->ws_cur) {
        close_window(e);
        e->ws_cur = w;
    }
    if (page >= e->ws_cap) {
        uint32_t cap = e->ws_cap ? e->ws_cap : 1024;
        while (cap <= page) cap *= 2;
        e->ws_stamp = gms_xrealloc(e->ws_stamp, (size_t)cap * sizeof *e->ws_stamp);
        memset(e->ws_stamp + e->ws_cap, 0, (size_t)(cap - e->ws_cap) * sizeof *e->ws_stamp);
        e->ws_cap = cap;
    }
    /* the stamp is the window index + 1 truncated to 32 bits: windows 2^32 apart would alias */
    if (e->ws_stamp[page] != (uint32_t)w) {
        e->ws_stamp[page] = (uint32_t)w;
        e->ws_count++;
    }
}

void gms_uvm_ws_report(gms_uvm *u, gms_stats *out)
{
    gms_uvm_etc *e = u->ba.etc;
    if (!e || !e->ws_window) return;
    uint64_t sum = e->ws_sum, n = e->ws_n, mx = e->ws_max;
    /* the current window counts if it is complete (the run ended at its boundary) or alone */
    int complete = u->now + 1 >= e->ws_cur * e->ws_window;
    if (e->ws_count && (complete || !n)) {
        sum += e->ws_count;
        n++;
        if (e->ws_count > mx) mx = e->ws_count;
    }
    gms_stat_f64(out, "gms_uvm_ws_pages_mean", n ? (double)sum / (double)n : 0);
    gms_stat_u64(out, "gms_uvm_ws_pages_max", mx);
    gms_stat_u64(out, "gms_uvm_ws_windows", n);
}
