/* ETC's memory-aware throttling and capacity compression as the batch-aware study's comparison
 * point (spec 004 section 4.4, Li et al. ASPLOS'19; etc.c), and the core-count working-set
 * sweep of spec 004's Fig. 1 (etc_ws.c). */
#ifndef GMS_UVM_ETC_H
#define GMS_UVM_ETC_H
#include <stdint.h>

struct gms_uvm;
/* 1 when the block dispatcher must give SM `sm` no new block now (ETC's memory-aware
 * throttling, or -gms_uvm_active_sms); blocks already on it run on */
int gms_uvm_sm_throttled(struct gms_uvm *u, uint32_t sm, uint64_t now);

#endif
