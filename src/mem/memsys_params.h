/* Memory partition options: partition mapping, L2 slices, DRAM. Owner: src/mem (memsys,
 * l2, dram, addrdec). Options in src/mem/memsys_options.c. */
#ifndef GMS_MEM_MEMSYS_PARAMS_H
#define GMS_MEM_MEMSYS_PARAMS_H
#include <stdint.h>
#include "config/option.h"
#include "mem/cache.h"

typedef struct gms_memsys_params {
    uint32_t n_mem;                        /* -gpgpu_n_mem: memory channels */
    uint32_t n_sub_partition_per_mchannel; /* -gpgpu_n_sub_partition_per_mchannel */
    /* (extended by the memory-partition module) */
} gms_memsys_params;

#endif
