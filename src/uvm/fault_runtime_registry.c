/* Fault runtimes, chosen by -uvm_runtime. Adding one = a file + a line here. */
#include "uvm/uvm_internal.h"
#include "config/params.h"

extern const gms_uvm_runtime_ops gms_uvm_runtime_uvmsmart;
extern const gms_uvm_runtime_ops gms_uvm_runtime_batch;

const gms_uvm_runtime_ops *const gms_uvm_runtimes[] = {
    &gms_uvm_runtime_uvmsmart,
    &gms_uvm_runtime_batch,
};
const size_t gms_uvm_nruntimes = sizeof gms_uvm_runtimes / sizeof gms_uvm_runtimes[0];

static long chosen(const struct gms_params *p) { return p->uvm.runtime_id; }
GMS_REGISTRY_DEFINE(gms_uvm_runtime_reg, "fault runtime", "uvm_runtime", gms_uvm_runtime_ops, gms_uvm_runtimes, name,
                    help, NULL, chosen);

int gms_uvm_runtime_find(const char *name) { return (int)gms_reg_index(&gms_uvm_runtime_reg, name); }
