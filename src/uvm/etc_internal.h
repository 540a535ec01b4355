/* ETC and the working-set window: state and the UVM's calls into them (etc.c, etc_ws.c). */
#ifndef GMS_UVM_ETC_INTERNAL_H
#define GMS_UVM_ETC_INTERNAL_H
#include "uvm/uvm_internal.h"

enum { GMS_ETC_OFF = 0, GMS_ETC_INITIAL, GMS_ETC_DETECT, GMS_ETC_EXEC };

typedef struct gms_uvm_etc {
    uint32_t n_sm;
    uint32_t active;          /* SMs [0, active) take new blocks */
    int mt;                   /* memory-aware throttling on */
    int phase;                /* GMS_ETC_*: OFF until the first eviction triggers MT */
    uint64_t phase_end;       /* cycle the current phase ends */
    uint64_t det_thrash;      /* premature evictions (re-faults) in this detection epoch */
    uint64_t prev_thrash;     /* the previous detection epoch's */
    int have_prev;
    uint64_t throttles, unthrottles, detections;
    uint64_t t_trigger;       /* cycle MT was triggered */
    uint64_t since;           /* last change of `active` (for the time-weighted mean) */
    double active_cycles;     /* sum of active x cycles since the trigger */
    /* working set per window (etc_ws.c) */
    uint64_t ws_window, ws_cur;   /* window length; current window index + 1 (0: none yet) */
    uint32_t *ws_stamp; uint32_t ws_cap;   /* per page: window index + 1 of its last touch */
    uint64_t ws_count;        /* distinct pages in the current window */
    uint64_t ws_sum, ws_n, ws_max;   /* closed windows with accesses */
} gms_uvm_etc;

/* allocated when ETC, -gms_uvm_active_sms or -gms_uvm_ws_window is on (u->ba.etc) */
void gms_uvm_etc_init(gms_uvm *u);
void gms_uvm_etc_free(gms_uvm *u);
/* capacity compression: frames the device holds with compressed pages */
uint64_t gms_uvm_etc_frames(const gms_uvm *u, uint64_t frames);
/* MT's inputs: an eviction (the first one triggers it) and a re-fault (thrashing) */
void gms_uvm_etc_evicted(gms_uvm *u, uint64_t now);
void gms_uvm_etc_refault(gms_uvm *u, uint64_t now);
/* run MT's epochs up to now */
void gms_uvm_etc_advance(gms_uvm *u, uint64_t now);
void gms_uvm_etc_report(gms_uvm *u, gms_stats *out);
/* a managed page is accessed (gmmu.c) */
void gms_uvm_ws_note(gms_uvm *u, uint32_t page, uint64_t now);
void gms_uvm_ws_report(gms_uvm *u, gms_stats *out);

#endif
