/* The L1D bypass policy family (-gms_l1d_bypass): who may use the L1D, decided per warp or per
 * thread block when a global load issues (spec 001 chapter 2). A member keeps per-SM state;
 * the SM asks it at every global load that could use the L1D and shows it every transaction of
 * such loads (on either path), so that a member can sample what the L1D would see. The chosen
 * loads go down the bypass path (bypass_path.h). Members: bypass_registry.c. */
#ifndef GMS_CORE_BYPASS_POLICY_H
#define GMS_CORE_BYPASS_POLICY_H
#include <stdint.h>
#include "stats/stats.h"
#include "util/registry.h"

struct gms_sm;

typedef struct gms_bypass_ops {
    const char *name, *summary;
    void *(*sm_new)(struct gms_sm *s);    /* per-SM state (NULL: none needed) */
    void (*sm_free)(void *st);
    /* a global load of warp wi issues on SM s: 1 = its transactions bypass the L1D */
    int (*bypass)(void *st, struct gms_sm *s, uint32_t wi);
    /* optional, per transaction instead: called once for each transaction (line address
     * `addr`) of such a load, in order, before it is sent; 1 = this one bypasses */
    int (*bypass_txn)(void *st, struct gms_sm *s, uint32_t wi, uint64_t addr);
    /* one transaction (line address `addr`) of such a load, as the LSU sends it, on either path */
    void (*observe)(void *st, struct gms_sm *s, uint32_t wi, uint64_t addr, uint64_t now);
    /* optional: a kernel is launched on an idle GPU (no kernel running) */
    void (*kernel_begin)(void *st, struct gms_sm *s);
    /* the member's statistics over all SMs */
    void (*report)(struct gms_sm *const *sms, uint32_t n, gms_stats *out);
} gms_bypass_ops;

extern const gms_registry gms_l1d_bypass_reg;
/* the member called name, or NULL */
const gms_bypass_ops *gms_bypass_find(const char *name);

#endif
