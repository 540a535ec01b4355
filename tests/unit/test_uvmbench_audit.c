/* UVMBench programs as their sources order their copies, synchronisations and repetitions
 * (spec 000b 6.1: "no algorithmic changes"): the host commands a workload pushes, counted by
 * driving its next() without the simulator, against counts worked out by hand from the
 * source. */
#include "test.h"
#include "wl_test_util.h"
#include "workloads/workload.h"

typedef struct cmd_counts {
    uint64_t allocs, launches, syncs, h2d_bytes, d2h_bytes, h2d, d2h;
} cmd_counts;

/* every command of the whole program (next() until it returns 0); 0 or -1 */
static int count_cmds(const char *name, const char *const *kv, cmd_counts *n)
{
    memset(n, 0, sizeof *n);
    const gms_workload_ops *ops = gms_workload_find(name);
    gms_wl_args *a = NULL;
    gms_error e;
    void *st = NULL;
    if (!ops || gms_wl_args_parse(ops, kv, 1, &a, &e) || ops->create(a, &st, &e)) {
        gms_wl_args_free(a);
        return -1;
    }
    gms_program p;
    gms_program_init(&p);
    p.uvm = gms_wl_uvm(a);
    int rc;
    while ((rc = ops->next(st, &p, &e)) == 1) {
        gms_cmd *c;
        while ((c = gms_prog_pop(&p))) {
            switch (c->kind) {
            case GMS_CMD_ALLOC: n->allocs++; break;
            case GMS_CMD_LAUNCH:
                n->launches++;
                if (c->kernel.release) c->kernel.release(c->kernel.self);
                break;
            case GMS_CMD_SYNC: n->syncs++; break;
            case GMS_CMD_COPY_H2D: n->h2d++; n->h2d_bytes += c->bytes; break;
            case GMS_CMD_COPY_D2H: n->d2h++; n->d2h_bytes += c->bytes; break;
            default: break;
            }
        }
    }
    gms_program_free(&p);
    ops->destroy(st);
    gms_wl_args_free(a);
    return rc;
}

/* srad_v2.cu runs all niter iterations without a cudaDeviceSynchronize and syncs once after
 * the loop (both versions); the non-UVM one copies J in and out around each iteration's two
 * kernels. Each sync with -uvm_sync_writeback 1 writes every dirty managed page back, so a
 * sync per iteration made every iteration fault the six arrays in again. */
TEST(uvmbench_srad_syncs_once)
{
    cmd_counts n;
    const char *copy[] = {"rows=32", "cols=48", "y2=15", "x2=15", "iter=3", NULL};
    REQUIRE(count_cmds("srad", copy, &n) == 0);
    CHECK_EQ(n.allocs, 6);
    CHECK_EQ(n.launches, 3 * 2);
    CHECK_EQ(n.syncs, 1);
    CHECK_EQ(n.h2d, 3);
    CHECK_EQ(n.h2d_bytes, 3 * 4 * 32 * 48);   /* J, 6144 bytes, per iteration */
    CHECK_EQ(n.d2h_bytes, 3 * 4 * 32 * 48);
    const char *uvm[] = {"rows=32", "cols=48", "y2=15", "x2=15", "iter=3", "uvm=1", NULL};
    REQUIRE(count_cmds("srad", uvm, &n) == 0);
    CHECK_EQ(n.launches, 3 * 2);
    CHECK_EQ(n.syncs, 1);
    CHECK_EQ(n.h2d + n.d2h, 0);
}

/* knn_cuda() of the non-UVM knn_cuda.cu, called `iter` times: H2D of ref (ref_nb x dim) and
 * query (query_nb x dim), three kernels, cudaDeviceSynchronize, D2H of the k first rows of
 * dist and of ind (query_nb x k each). The UVM version: the kernels and the sync, no copy. */
TEST(uvmbench_knn_copies_per_call)
{
    cmd_counts n;
    const char *copy[] = {"ref=32", "query=48", "dim=4", "k=5", "iter=3", NULL};
    REQUIRE(count_cmds("knn", copy, &n) == 0);
    CHECK_EQ(n.allocs, 4);
    CHECK_EQ(n.launches, 3 * 3);
    CHECK_EQ(n.syncs, 3);
    CHECK_EQ(n.h2d, 3 * 2);
    CHECK_EQ(n.h2d_bytes, 3 * (4 * 32 * 4 + 4 * 48 * 4));   /* 3 x (512 + 768) = 3840 */
    CHECK_EQ(n.d2h, 3 * 2);
    CHECK_EQ(n.d2h_bytes, 3 * (4 * 48 * 5 * 2));            /* 3 x 1920 = 5760 */
    const char *uvm[] = {"ref=32", "query=48", "dim=4", "k=5", "iter=3", "uvm=1", NULL};
    REQUIRE(count_cmds("knn", uvm, &n) == 0);
    CHECK_EQ(n.launches, 3 * 3);
    CHECK_EQ(n.syncs, 3);
    CHECK_EQ(n.h2d + n.d2h, 0);
    const char *kv[] = {"ref=40", "query=36", "dim=5", "k=4", "iter=2", NULL};
    WL_RUN_BOTH("knn", kv, 7);
}

/* UVMBench's backprop data-reuse loop (ITERATIONS) wraps each kernel launch (and, where the
 * version has one, its cudaDeviceSynchronize) alone: the copies, the allocations and the
 * host part run once whatever the repeat. input=32: input_cuda 33 floats (132 bytes), the
 * weights 33 x 17 floats (2244 bytes), hidden_partial_sum 2 x 16 floats (128 bytes),
 * hidden_delta 17 floats (68 bytes). */
TEST(uvmbench_backprop_repeat_kernels_only)
{
    cmd_counts n;
    for (int rep = 1; rep <= 3; rep += 2) {
        const char *copy[] = {"input=32", rep == 1 ? "repeat=1" : "repeat=3", NULL};
        REQUIRE(count_cmds("backprop", copy, &n) == 0);
        CHECK_EQ(n.allocs, 6);
        CHECK_EQ(n.launches, 2 * rep);
        CHECK_EQ(n.syncs, rep);   /* after each forward launch only */
        CHECK_EQ(n.h2d_bytes, 132 + 2244 + 68 + 2244 + 2244);
        CHECK_EQ(n.d2h_bytes, 128 + 132 + 2244);
        const char *uvm[] = {"input=32", rep == 1 ? "repeat=1" : "repeat=3", "uvm=1", NULL};
        REQUIRE(count_cmds("backprop", uvm, &n) == 0);
        CHECK_EQ(n.launches, 2 * rep);
        CHECK_EQ(n.syncs, 2 * rep);   /* after every launch */
        CHECK_EQ(n.h2d + n.d2h, 0);
    }
    /* the repeated kernels compute on what the previous runs left, and still verify */
    const char *kv[] = {"input=64", NULL};
    WL_REPEAT("backprop", kv, 3, 7);
}
