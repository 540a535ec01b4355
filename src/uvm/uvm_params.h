/* Unified-memory options (UVMSmart names where they exist). Owner: src/uvm.
 * Options in src/uvm/uvm_options.c. */
#ifndef GMS_UVM_PARAMS_H
#define GMS_UVM_PARAMS_H
#include <stdint.h>
#include "config/option.h"

typedef struct gms_uvm_params {
    uint64_t gddr_size;        /* -gddr_size (bytes); 0 = unlimited */
    /* (extended by the UVM module) */
} gms_uvm_params;

#endif
