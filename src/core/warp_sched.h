/* Warp schedulers: one function-pointer table per policy, registered in sched_registry.c and
 * chosen by -gpgpu_scheduler. pick() issues at most one instruction of one of scheduler si's
 * warps this cycle (gms_sm_can_issue / gms_sm_issue in sm_internal.h). Adding a policy = one
 * sched_*.c file + one registry line. */
#ifndef GMS_CORE_WARP_SCHED_H
#define GMS_CORE_WARP_SCHED_H
#include <stddef.h>
#include <stdint.h>
#include "core/core_params.h"
#include "util/registry.h"

typedef struct gms_sm gms_sm;

typedef struct gms_warp_sched_ops {
    const char *name;          /* as -gpgpu_scheduler spells it: "lrr", "gto", "two_level_active" */
    const char *summary;       /* one line, for `gpumemsim list policies` */
    void (*pick)(gms_sm *s, uint32_t si, uint64_t now);
    /* optional: the parameters after "name:" ("" if none) into c; errors name -gpgpu_scheduler */
    int (*configure)(gms_core_params *c, const char *args, gms_error *err);
    /* optional: words after the summary in the config dump ("with 6 active warps") */
    void (*describe)(const gms_core_params *c, char *buf, size_t n);
    /* optional: the SM's schedulers' initial state, once, when the SM is built */
    void (*init)(gms_sm *s);
} gms_warp_sched_ops;

/* by name; "two_level_active:6:0:1" matches "two_level_active". NULL if unknown. */
const gms_warp_sched_ops *gms_warp_sched_find(const char *spec);
extern const gms_registry gms_warp_sched_reg;   /* names, help, error lists */

#endif
