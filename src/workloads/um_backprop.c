/* um-backprop: UVMSmart's benchmarks/Managed/backprop (`backprop 131056`): the built-in
 * backprop's kernels with weights2=1 (src/workloads/rodinia_backprop.c): every network array is
 * cudaMallocManaged by bpnn_internal_create before the training step, input_weights2 a copy of
 * input_weights that bpnn_adjust_weights_cuda updates (the forward kernel overwrote
 * input_weights with its partial products); output_hidden_cuda and hidden_partial_sum are
 * allocated in the step; a cudaDeviceSynchronize after each kernel. The weights are ours (the
 * run's seed), not glibc rand()'s; the accesses do not depend on them. */
#include "workloads/um_alias.h"

static const gms_wl_param params[] = {
    {"input", "131056", "number of input units (UVMSmart's run: 131056); multiple of 16"},
    {"weights2", "1", "1: UVMSmart's input_weights2, updated by the adjust kernel; 0: the Rodinia program's arrays"},
    {"scale", "1", "multiplies input"},
    {"repeat", "1", "run the training step N times (independent invocations)"},
    {NULL, NULL, NULL},
};

UM_ALIAS(um_backprop, "um-backprop", gms_wl_backprop, params, 1, "machine learning", "R",
         "UVMSmart Managed backprop: 131056-16-1 network, adjust kernel on a second weight copy");
