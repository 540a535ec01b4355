/* UVMSmart's fault runtime (gmmu_t::cycle): the far faults whose walks complete in the same
 * cycle form one group; the prefetcher extends the group; the pages are cut into transfers
 * just after each faulted page, and each transfer that contains a faulted page occupies the
 * H2D lane for -page_fault_latency cycles per faulted page before its data moves (UVMSmart's
 * PAGE_FAULT item with enable_accurate_simulation: far faults are serialised on the lane). The
 * fault time starts once one frame is free and takes none; the data's frames are checked and
 * taken when the data starts (pcie.c; -gms_uvm_fault_frames fault: all before the fault time). */
#include <stdlib.h>
#include "uvm/uvm_internal.h"

typedef struct rt_uvmsmart {
    gms_uvm *u;
    gms_uvm_vec faults;    /* this cycle's group */
} rt_uvmsmart;

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;
    rt_uvmsmart *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    return s;
}

static void destroy(void *st)
{
    rt_uvmsmart *s = st;
    free(s->faults.v);
    free(s);
}

static void fault(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    rt_uvmsmart *s = st;
    gms_uvm_vec_push(&s->faults, page);
}

static void end_of_cycle(void *st, uint64_t now)
{
    rt_uvmsmart *s = st;
    if (!s->faults.n) return;
    gms_uvm *u = s->u;
    uint32_t b = gms_uvm_batch_open(u, now, (uint32_t)s->faults.n);
    /* -enable_accurate_simulation 0: UVMSmart queues no PAGE_FAULT stage, the faults cost nothing
     * in the run and Tot_kernel_exec_time_and_fault_time adds them afterwards */
    uint64_t lat = u->prm->accurate_simulation ? u->prm->page_fault_latency : 0;
    gms_uvm_migrate(u, s->faults.v, s->faults.n, b, lat, now);
    s->faults.n = 0;
    gms_uvm_batch_planned(u, b, now);
}

static int busy(void *st) { return ((rt_uvmsmart *)st)->faults.n != 0; }

static void describe(const gms_uvm_params *prm, char *buf, size_t n)
{
    if (prm->accurate_simulation)
        snprintf(buf, n, "(%llu cycles per far fault, serialized before its transfer; %s)",
                 (unsigned long long)prm->page_fault_latency,
                 prm->fault_frames_at_fault ? "the transfer's frames are taken before the fault time"
                 : prm->fault_item_counted ? "the fault time needs one free frame, the data's are taken when it starts, "
                                             "a waiting fault time counts as a page to read"
                                           : "the fault time needs one free frame, the data's are taken when it starts");
    else
        snprintf(buf, n, "(far faults cost no time in the run; %llu cycles each are added after it, "
                 "-enable_accurate_simulation 0)", (unsigned long long)prm->page_fault_latency);
}

const gms_uvm_runtime_ops gms_uvm_runtime_uvmsmart = {
    .name = "uvmsmart",
    .help = "per-cycle fault groups, -page_fault_latency per far fault serialised before its transfer",
    .create = create,
    .destroy = destroy,
    .fault = fault,
    .end_of_cycle = end_of_cycle,
    .busy = busy,
    .describe = describe,
    .free_at_wb_end = 0,
    .cut_after_fault = 1,
};
