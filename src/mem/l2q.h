/* L2 input queue family: what sits between the ROP stage and the L2 slice (GPGPU-Sim's
 * icnt->L2 queue, and the reordering front-ends of spec 000a chapter 2). Members: fifo
 * (GPGPU-Sim), p1 (non-blocking buffer), p2 (bank-classified queues), cart (the cache access
 * reordering tree). Registry in l2q_registry.c, chosen by -gms_l2_input_queue; parameters
 * (-gms_l2q_cart, -gms_l2q_p2) in gms_l2q_params (l2q_params.c). docs/cart.md.
 *
 * Hooks, called by the slice (l2_slice.c) only, never allocating after create:
 *   create(env)        capacity of the incoming buffer (0 = unbounded), slice id, decoder
 *   space(self)        free incoming-buffer entries (UINT32_MAX if unbounded): the
 *                      interconnect may push while space >= 4 (GPGPU-Sim reserves a whole
 *                      line's sectors)
 *   push(self, r, now) a request leaves the ROP delay (now: core cycle)
 *   peek(self, now)    the request the slice should try this cycle, or NULL
 *   pop(self, r)       remove r (the one just peeked) before the slice tries it: the cache
 *                      may link r into its own lists
 *   putback(self, r, now, cause) the slice could not take r (reservation fail, cause a
 *                      gms_rf_cause): take it back; a FIFO puts it at its head again, a
 *                      reordering policy may pick another one next
 *   len(self)          requests held (incoming buffer and any structure behind it)
 *   tick(self, now)    optional: once per L2 cycle after the access (step 4): a member with
 *                      a stage behind its incoming buffer moves one request into it (CART's
 *                      fill). Returns nonzero while it may still move something without a
 *                      new push or a drain (the slice then stays awake).
 *   idle(self, n)      optional, with tick: the slice slept through n cycles in which tick
 *                      would have run and nothing could move (its last tick returned 0 and
 *                      no push or drain came): count what those ticks would have counted
 *                      (CART's and P2's fill stalls), so statistics do not depend on sleeping
 *   stats(self, acc)   optional: add the member's own counters to acc */
#ifndef GMS_MEM_L2Q_H
#define GMS_MEM_L2Q_H
#include <stdint.h>
#include "mem/mreq.h"
#include "util/err.h"
#include "util/registry.h"

struct gms_addrdec;
struct gms_stats;

/* drain policies of the tree (spec 000a 2.5) */
enum { GMS_CART_DRAIN_ROTATE = 0, GMS_CART_DRAIN_LONGEST, GMS_CART_DRAIN_RR, GMS_CART_DRAIN__N };
extern const char *const gms_cart_drain_name[GMS_CART_DRAIN__N];   /* "rotate", "longest", "rr" */

/* limits of the tree's sizes: nR, nC up to 32 rows / columns (the near-ideal tree is
 * 32R/32C/64E = 65536 entries per bank), nE up to 1024 */
#define GMS_CART_MAX_RC 32u
#define GMS_CART_MAX_E 1024u

typedef struct gms_l2q_params {
    uint32_t cart_rows, cart_cols, cart_entries;   /* -gms_l2q_cart nR:nC:nE[:drain] */
    uint32_t cart_drain;                           /* GMS_CART_DRAIN_* */
    uint32_t cart_age_cap;                         /* -gms_l2q_cart_age: core cycles, 0 = off */
    uint32_t p2_queues, p2_depth;                  /* -gms_l2q_p2 B:depth */
} gms_l2q_params;
#define GMS_L2Q_CART_DEFAULT "4:2:2:rotate"
#define GMS_L2Q_P2_DEFAULT "16:4"
void gms_l2q_params_default(gms_l2q_params *p);
/* parse "-gms_l2q_cart" and "-gms_l2q_p2" strings into p; errors name the option */
int gms_l2q_params_parse(const char *cart, const char *p2, gms_l2q_params *p, gms_error *err);

typedef struct gms_l2q_env {
    uint32_t capacity;                 /* incoming buffer entries, 0 = unbounded */
    uint32_t subpart;
    const struct gms_addrdec *dec;     /* NULL (unit tests): members use their fallback */
    gms_l2q_params prm;                /* zero = defaults */
} gms_l2q_env;

/* Counters of the L2 input side, summed over slices (docs/counters.md, "L2 input queue").
 * The slice counts the head-of-line stalls and the occupancy; members add theirs. */
enum { GMS_L2Q_STALL_TO_DRAM = 0,   /* the L2->DRAM queue is full: nothing is tried */
       GMS_L2Q_STALL_TO_ICNT,       /* the L2->icnt queue is full */
       GMS_L2Q_STALL_PORT,          /* the data port is busy (a hit's transfer) */
       GMS_L2Q_STALL_NOTREADY,      /* requests held, none ready to drain (CART fill latency) */
       GMS_L2Q_STALL_RF,            /* reservation fail; by cause in rf[] */
       GMS_L2Q_STALL__N };
extern const char *const gms_l2q_stall_name[GMS_L2Q_STALL__N];
typedef struct gms_l2q_stats {
    uint64_t stall[GMS_L2Q_STALL__N];  /* L2 cycles with requests held and none accessed */
    uint64_t rf[8];                    /* reservation fails by gms_rf_cause */
    uint64_t accessed;                 /* requests the cache took */
    uint64_t occ_integral;             /* sum over core cycles of requests held */
    uint64_t occ_cycles;               /* core cycles the integral covers, summed over slices */
    uint64_t max_held;
    /* reordering members */
    uint64_t fills, fill_stalls;       /* CART/P2: requests moved in; cycles the head could not */
    uint64_t pick_same_queue, pick_same_row, pick_longest, pick_other;   /* CART drain choices */
    uint64_t pick_aged;                /* CART rotate: picks forced by the age cap */
    uint64_t skipped;                  /* P1: picks that skipped a request stalled on the same resource */
    uint64_t racb;                     /* RACB: reads refused by the L2 and sent around it */
    /* hardware cost inputs of a reordering structure (CART; docs/cart.md "Area"): one tree's,
     * `trees` summed; l2q_energy.c turns them into gms_l2q_area_mm2 and leakage */
    uint64_t trees;
    uint64_t hw_entries;               /* request entries (SRAM rows of queue_entry_bits) */
    uint64_t hw_cmp, hw_tag_bits;      /* leaf-queue tag comparators, (row, column) bits each */
    uint64_t hw_ff;                    /* control bits in flip-flops */
    uint64_t hw_ptr;                   /* queue head / tail pointers (SRAM) */
} gms_l2q_stats;
/* the "gms_l2q_*" counters of acc */
void gms_l2q_report(const gms_l2q_stats *acc, struct gms_stats *out);

/* Energy by event counts (l2q_energy.c): -gms_energy "l2=pJ,dram_act=pJ,dram_rw=pJ,queue=pJ,
 * static_w=W" (any subset; the rest keep their defaults) */
typedef struct gms_energy_params {
    double l2_pj, dram_act_pj, dram_rw_pj, queue_pj, static_w;
    /* the hardware cost model (45 nm; docs/dlmshr.md "Area and energy"): per bit, area in
     * um2, energy per access (CAM: per compared bit) in fJ, leakage in nW; widths in bits */
    double sram_um2, cam_um2, ff_um2, sram_fj, cam_fj, ff_fj, sram_nw, cam_nw, ff_nw;
    double addr_bits, slot_bits, entry_bits;
    double l2_slot_data_bits;   /* each L2 MSHR slot's own data buffer (spec 002 1, 000a 1.2) */
    /* the cores (GPUWattch's part, inferred): pJ per warp instruction issued and per L1D access */
    double core_pj, l1d_pj;
} gms_energy_params;
#define GMS_ENERGY_DEFAULT "l2=200,dram_act=2000,dram_rw=1600,queue=5,static_w=30"
int gms_energy_params_parse(const char *s, gms_energy_params *p, gms_error *err);
typedef struct gms_energy_events {
    uint64_t l2_accesses, dram_act, dram_rw, queue_ops;
    double seconds;                    /* kernel time */
} gms_energy_events;
/* gms_energy_{core,l2,dram,queue,mshr,static,dynamic,total}_nj */
void gms_energy_report(const gms_energy_params *p, const gms_energy_events *e, struct gms_stats *out);

typedef struct gms_l2q_ops {
    const char *name;
    const char *summary;
    const char *const *knobs;     /* its own options' name prefixes, NULL-ended (registry.h knobs_off); may be NULL */
    void *(*create)(const gms_l2q_env *env);
    void (*destroy)(void *self);
    uint32_t (*space)(const void *self);
    void (*push)(void *self, gms_mreq *r, uint64_t now);
    gms_mreq *(*peek)(void *self, uint64_t now);
    void (*pop)(void *self, gms_mreq *r);
    void (*putback)(void *self, gms_mreq *r, uint64_t now, int cause);
    uint32_t (*len)(const void *self);
    int (*tick)(void *self, uint64_t now);
    void (*idle)(void *self, uint64_t n);
    void (*stats)(const void *self, gms_l2q_stats *acc);
    /* a reordering member: under -gms_l2q_dram_gate auto, the slice tries its requests while
     * the L2->DRAM queue is full (spec 000a 1.1, case 3: a hit behind a stalled miss) */
    int reorders;
} gms_l2q_ops;

extern const gms_l2q_ops *const gms_l2q_registry[];
extern const size_t gms_l2q_nregistry;
const gms_l2q_ops *gms_l2q_find(const char *name);
extern const gms_registry gms_l2q_reg;   /* names, help, error lists */

#endif
