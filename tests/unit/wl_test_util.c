#include "wl_test_util.h"
#include "test.h"
#include "workloads/workload.h"

void wl_test_run(const char *file, int line, const char *name, const char *const *kv, uint64_t seed)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    if (!ops) { gms_test_fail(file, line, name); return; }
    gms_functional_result r;
    gms_error e = {0};
    if (gms_workload_run_functional(ops, kv, seed, &r, &e)) {
        char m[1200];
        snprintf(m, sizeof m, "%s: %s", name, e.msg);
        gms_test_fail(file, line, m);
        return;
    }
    if (r.kernels == 0) gms_test_fail(file, line, "no kernel was launched");
    if (r.mem_insts == 0) gms_test_fail(file, line, "no memory instruction was emitted");
}

void wl_test_run_both(const char *file, int line, const char *name, const char *const *kv, uint64_t seed)
{
    wl_test_run(file, line, name, kv, seed);
    const char *kv2[16];
    int n = 0;
    for (; kv && kv[n] && n < 13; n++) kv2[n] = kv[n];
    kv2[n++] = "uvm=1";
    kv2[n++] = "prefetch=1";
    kv2[n] = NULL;
    wl_test_run(file, line, name, kv2, seed);
}
