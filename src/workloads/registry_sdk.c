#include "workloads/workload.h"
/* Built-in workloads of the sdk suite (CUDA SDK, docs/workloads-sdk.md; one gms_wl_sdk_<name>
 * per sdk_<name>.c file, listed here) */
extern const gms_workload_ops gms_wl_sdk_blackscholes, gms_wl_sdk_scalarprod,
    gms_wl_sdk_transpose, gms_wl_sdk_reduction,
    gms_wl_sdk_quasirandom,
    gms_wl_sdk_convsep, gms_wl_sdk_scan,
    gms_wl_sdk_sortingnetworks, gms_wl_sdk_fwt,
    gms_wl_sdk_mergesort, gms_wl_sdk_alignedtypes,
    gms_wl_sdk_asyncapi, gms_wl_sdk_sobolqrng,
    gms_wl_sdk_binomialoptions, gms_wl_sdk_convtex,
    gms_wl_sdk_radixsort;

const gms_workload_ops *const gms_workloads_sdk[] = {
    &gms_wl_sdk_blackscholes, &gms_wl_sdk_scalarprod, &gms_wl_sdk_transpose,
    &gms_wl_sdk_reduction, &gms_wl_sdk_quasirandom, &gms_wl_sdk_convsep,
    &gms_wl_sdk_scan, &gms_wl_sdk_sortingnetworks,
    &gms_wl_sdk_fwt, &gms_wl_sdk_mergesort,
    &gms_wl_sdk_alignedtypes, &gms_wl_sdk_asyncapi,
    &gms_wl_sdk_sobolqrng, &gms_wl_sdk_binomialoptions,
    &gms_wl_sdk_convtex, &gms_wl_sdk_radixsort,
    NULL,
};
