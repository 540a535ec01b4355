/* Concurrent kernel execution options (spec 001 chapter 4), module "cke" (cke_options.c).
 * They only act in a multiprogrammed run (the built-in workload `cke`, cke_workload.c); a
 * single-kernel run ignores them. */
#ifndef GMS_CKE_PARAMS_H
#define GMS_CKE_PARAMS_H
#include <stdint.h>
#include "config/option.h"

#define GMS_CKE_MAX_APPS 3

typedef struct gms_cke_params {
    char tb[GMS_OPT_STRLEN];      /* gms_cke_tb: block-partition scheme (cke_tb_registry.c) */
    char mi[GMS_OPT_STRLEN];      /* gms_cke_mi: memory-issue scheme (cke_mi_registry.c) */
    uint64_t window;              /* gms_cke_window: core cycles of the shared (and isolated) run */
    uint64_t profile_window;      /* gms_cke_profile_window: cycles of each Warped-Slicer profile run */
    uint32_t interval;            /* gms_cke_interval: requests of a kernel between QBMI/DMIL updates */
    uint32_t rf_bits;             /* gms_cke_dmil_rf_bits: width of DMIL's reservation-fail counter */
    char dmil_met[GMS_OPT_STRLEN];   /* gms_cke_dmil_met: remove | keep (under one fail per request) */
    uint32_t ucp_period;          /* gms_cke_ucp_period: L1D accesses of an SM between UCP repartitions */
    char ucp_enforce[GMS_OPT_STRLEN];   /* gms_cke_ucp_enforce: quota | ways (how UCP's partition is kept) */
    int ucp_ways;                 /* ... decoded: 1 = contiguous way ranges, 0 = quotas */
    uint32_t wq_epoch;            /* gms_cke_wq_epoch: SMK-W warp instructions per epoch and SM */
    uint32_t smkw_idle;           /* gms_cke_smkw_idle: SMK-W, cycles without issue that count as used up (0: only no block here) */
    char smkw_rate[GMS_OPT_STRLEN];  /* gms_cke_smkw_rate: isolated | profile (the run the quota shares come from) */
    char bmi_insts[GMS_OPT_STRLEN];  /* gms_cke_bmi_insts: global | lsu (the instructions RBMI/QBMI balance) */
    char bmi_demand[GMS_OPT_STRLEN]; /* gms_cke_bmi_demand: parked | gate (which waiting warps RBMI/QBMI arbitrate among) */
    int isolated;                 /* gms_cke_isolated: measure each kernel alone for STP/ANTT */
    int mshr_partition;           /* gms_cke_mshr_partition: per-kernel L1D MSHR / miss-queue shares */
    /* decoded by finalize */
    long tb_idx, mi_idx;          /* members of the two families */
    uint32_t tb_args[GMS_CKE_MAX_APPS], ntb_args;   /* manual:9,4 */
    uint32_t mi_args[GMS_CKE_MAX_APPS], nmi_args;   /* smil:3,1 (0 = no limit) */
    int dmil_keep;                                  /* gms_cke_dmil_met keep */
    int smkw_profile;                               /* gms_cke_smkw_rate profile */
    int bmi_lsu;                                    /* gms_cke_bmi_insts lsu */
    int bmi_parked;                                 /* gms_cke_bmi_demand parked */
} gms_cke_params;

#endif
