/* Test harness for the UVM module without the SM: an engine at 1481 MHz (GTX 1080 Ti core),
 * a gms_uvm, hand-made requests, and a deliver callback that records the delivery cycle. */
#ifndef GMS_TEST_UVM_UTIL_H
#define GMS_TEST_UVM_UTIL_H
#include "test.h"
#include "config/params.h"
#include "uvm/uvm.h"
#include "stats/stats.h"

#define UVM_BASE 0x7f0000000000ULL
#define UVM_MAXREQ 4096

typedef struct uvm_h {
    gms_params *p;
    gms_engine *e;
    gms_uvm *u;
    gms_mreq req[UVM_MAXREQ];
    uint64_t dcycle[UVM_MAXREQ];
    int delivered[UVM_MAXREQ];
    int nreq, ndel, want;
    uint64_t stop_at;
    int bulk_done;
    gms_error err;
    gms_component *timer;   /* wakes the engine at run_until's cycle */
} uvm_h;

/* options: NULL-terminated name, value pairs; returns 0 or -1 with h->err set */
int uvm_h_init(uvm_h *h, uint32_t n_sm, const char *const *opts);
/* uvm_h_init, then one managed allocation "a" of `bytes` at UVM_BASE and the kernel's start:
 * the setup of most single-allocation tests (0, or -1 with h->err set) */
int uvm_h_start(uvm_h *h, uint32_t n_sm, const char *const *opts, uint64_t bytes);
void uvm_h_free(uvm_h *h);
/* uvm_h_init with opts must fail with an error message containing msg (a CHECK) */
void uvm_h_expect_error(const char *const *opts, const char *msg);
/* issue a request at the current cycle; returns its index; *immediate = translate's result */
int uvm_h_access(uvm_h *h, uint32_t sm, uint16_t warp, uint64_t addr, int kind, int *immediate);
/* run until `want` deliveries in total (returns 0), or the engine errors */
int uvm_h_run_deliveries(uvm_h *h, int want);
/* run until the core cycle reaches c */
int uvm_h_run_until(uvm_h *h, uint64_t c);
/* run until the UVM has nothing pending */
int uvm_h_run_idle(uvm_h *h);
/* access and wait for the translation; returns the delivery cycle */
uint64_t uvm_h_access_wait(uvm_h *h, uint32_t sm, uint64_t addr, int kind);
double uvm_h_stat(uvm_h *h, const char *name);
uint64_t uvm_h_now(uvm_h *h);
/* UVMSmart's transfer time at 1481 MHz, 16 GB/s (spec 000b 1.4 table) */
uint64_t uvm_h_pcie_cycles(uint64_t bytes);

#endif
