/* DRAM timing and bus geometry: -gpgpu_dram_timing_opt ("nbk=16:CCD=2:...", or GPGPU-Sim's
 * legacy positional "16:2:6:..."), -gpgpu_dram_burst_length, -gpgpu_dram_buswidth,
 * -gpgpu_n_mem_per_ctrlr, -dram_data_command_freq_ratio, and the values GPGPU-Sim derives
 * from them (gpu-sim.h memory_config::init). All times are in DRAM command-clock cycles.
 * tFAW and refresh are ours (GPGPU-Sim models neither); 0 = off, the default, for parity. */
#ifndef GMS_MEM_DRAM_TIMING_H
#define GMS_MEM_DRAM_TIMING_H
#include <stdint.h>
#include "util/err.h"

typedef struct gms_dram_timing {
    /* -gpgpu_dram_timing_opt */
    uint32_t nbk, tCCD, tRRD, tRCD, tRAS, tRP, tRC, CL, WL, tCDLR, tWR, nbkgrp, tCCDL, tRTPL;
    /* bus */
    uint32_t BL;            /* burst length (data beats) */
    uint32_t busW;          /* bytes per beat per chip */
    uint32_t n_per_ctrlr;   /* chips per channel */
    uint32_t ratio;         /* data:command clock ratio (2 DDR, 4 QDR) */
    /* ours; 0 = not modelled */
    uint32_t tFAW;          /* at most 4 ACTs per channel in any tFAW window */
    uint32_t tREFI, tRFC;   /* all-bank refresh every tREFI, banks blocked for tRFC */
    int elim_rw_turnaround; /* -dram_elimnate_rw_turnaround: tRTW = tWTR = 0 */
    int dual_bus;           /* -dram_dual_bus_interface: a row and a column command per cycle */
    int bnkgrp_lower_bits;  /* -dram_bnkgrp_indexing_policy 1: group = bank & (nbkgrp-1) */
    /* derived */
    uint32_t tRCDWR;        /* tRCD - (WL + 1), at least 0 */
    uint32_t tRTW;          /* CL + BL/ratio + 2 - WL */
    uint32_t tWTR;          /* WL + BL/ratio + tCDLR */
    uint32_t tWTP;          /* WL + BL/ratio + tWR */
    uint32_t burst_cycles;  /* BL/ratio: command cycles one burst occupies the data bus */
    uint32_t atom;          /* bytes per column command: BL x busW x n_per_ctrlr */
    uint32_t bk_tag_length; /* log2(nbk / nbkgrp) */
} gms_dram_timing;

/* Parse the timing string into the 14 GPGPU-Sim fields; errors name `optname` and the
 * field (missing required field, unknown field, bad number). */
int gms_dram_timing_parse(const char *str, const char *optname, gms_dram_timing *t, gms_error *err);
/* Check geometry (zero banks, groups that do not divide the banks, burst shorter than the
 * clock ratio, ...) and compute the derived values. */
int gms_dram_timing_derive(gms_dram_timing *t, gms_error *err);
/* bank group of bank b */
static inline uint32_t gms_dram_bankgrp(const gms_dram_timing *t, uint32_t b)
{
    return t->bnkgrp_lower_bits ? (b & (t->nbkgrp - 1)) : (b >> t->bk_tag_length);
}

#endif
