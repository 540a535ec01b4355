/* Fault runtimes, chosen by -uvm_runtime. Adding one = a file + a line here. */
#include <string.h>
#include "uvm/uvm_internal.h"

extern const gms_uvm_runtime_ops gms_uvm_runtime_uvmsmart;
extern const gms_uvm_runtime_ops gms_uvm_runtime_batch;

const gms_uvm_runtime_ops *const gms_uvm_runtimes[] = {
    &gms_uvm_runtime_uvmsmart,
    &gms_uvm_runtime_batch,
};
const size_t gms_uvm_nruntimes = sizeof gms_uvm_runtimes / sizeof gms_uvm_runtimes[0];

int gms_uvm_runtime_find(const char *name)
{
    for (size_t i = 0; i < gms_uvm_nruntimes; i++)
        if (!strcmp(gms_uvm_runtimes[i]->name, name)) return (int)i;
    return -1;
}
