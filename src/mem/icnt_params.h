/* Interconnect options (GPGPU-Sim local crossbar names + ours). Owner: src/mem/icnt*. */
#ifndef GMS_MEM_ICNT_PARAMS_H
#define GMS_MEM_ICNT_PARAMS_H
#include <stdint.h>

typedef struct gms_icnt_params {
    uint32_t network_mode;
    uint32_t flit_size;            /* icnt_flit_size, bytes */
    uint32_t in_buffer_limit;      /* icnt_in_buffer_limit, flits per input port */
    uint32_t out_buffer_limit;     /* icnt_out_buffer_limit, flits per output port */
    uint32_t subnets;              /* icnt_subnets */
    uint32_t arbiter_algo;
    uint32_t latency;              /* icnt_latency (ours): cycles through the switch */
    uint32_t flits_per_cycle;      /* icnt_flits_per_cycle (ours): per port and cycle */
    char islip_str[64];            /* gms_icnt_islip (ours): multi | once */
    int islip_once;                /* decoded: 1 = once */
    char inter_config_file[256];
} gms_icnt_params;

#endif
