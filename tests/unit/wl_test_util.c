#include "wl_test_util.h"
#include "test.h"
#include "workloads/workload.h"
#include "config/params.h"
#include <string.h>

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

/* kv + extra (NULL-terminated lists) into out[16] */
static void kv_join(const char *const *kv, const char *const *extra, const char **out)
{
    int n = 0;
    for (; kv && kv[n] && n < 12; n++) out[n] = kv[n];
    for (int i = 0; extra[i] && n < 15; i++) out[n++] = extra[i];
    out[n] = NULL;
}

/* run functionally; 0, or -1 after failing the calling test */
static int run_counted(const char *file, int line, const char *name, const char *const *kv, uint64_t seed,
                       gms_functional_result *r)
{
    gms_error e = {0};
    if (gms_workload_run_functional(gms_workload_find(name), kv, seed, r, &e)) {
        char m[1200];
        snprintf(m, sizeof m, "%s: %s", name, e.msg);
        gms_test_fail(file, line, m);
        return -1;
    }
    return 0;
}

void wl_test_repeat(const char *file, int line, const char *name, const char *const *kv, unsigned n, uint64_t seed)
{
    if (!gms_workload_find(name)) { gms_test_fail(file, line, name); return; }
    char rep[32];
    snprintf(rep, sizeof rep, "repeat=%u", n);
    static const char *const modes[2][3] = {{"uvm=0", NULL, NULL}, {"uvm=1", "prefetch=1", NULL}};
    for (int m = 0; m < 2; m++) {
        const char *one[4] = {"repeat=1", modes[m][0], modes[m][1], NULL};
        const char *many[4] = {rep, modes[m][0], modes[m][1], NULL};
        const char *kv1[16], *kvn[16];
        kv_join(kv, one, kv1);
        kv_join(kv, many, kvn);
        gms_functional_result r1, rn;
        if (run_counted(file, line, name, kv1, seed, &r1) || run_counted(file, line, name, kvn, seed, &rn)) return;
        char msg[512];
        if (rn.kernels != n * r1.kernels || rn.blocks != n * r1.blocks || rn.warp_insts != n * r1.warp_insts ||
            rn.thread_insts != n * r1.thread_insts || rn.mem_insts != n * r1.mem_insts || rn.allocs != r1.allocs) {
            snprintf(msg, sizeof msg,
                     "%s %s %s: %llu kernels, %llu blocks, %llu warp insts, %llu allocs; repeat=1: %llu, %llu, %llu, %llu",
                     name, rep, modes[m][0], (unsigned long long)rn.kernels, (unsigned long long)rn.blocks,
                     (unsigned long long)rn.warp_insts, (unsigned long long)rn.allocs, (unsigned long long)r1.kernels,
                     (unsigned long long)r1.blocks, (unsigned long long)r1.warp_insts, (unsigned long long)r1.allocs);
            gms_test_fail(file, line, msg);
        }
    }
}

int wl_test_prun(const char *name, const char *const *kv, uint64_t nst, uint64_t nld, gms_functional_result *r,
                 gms_error *e)
{
    gms_functional_opts o = {.shadow = 1, .perturb_store = nst, .perturb_load = nld, .perturb_delta = 4};
    memset(e, 0, sizeof *e);
    return gms_workload_run_functional_opts(gms_workload_find(name), kv, 1, &o, r, e);
}

void wl_test_shadow(const char *file, int line, const char *name, const char *const *kv, uint64_t sback,
                    uint64_t lback)
{
    gms_functional_result r;
    gms_error e;
    char m[1200];
    if (wl_test_prun(name, kv, 0, 0, &r, &e)) {
        snprintf(m, sizeof m, "%s: %s", name, e.msg);
        gms_test_fail(file, line, m);
        return;
    }
    if (r.shadow_loads == 0 || r.shadow_stores == 0 || r.shadow_overflow != 0) {
        snprintf(m, sizeof m, "%s: %llu shadow loads, %llu stores, overflow %llu", name,
                 (unsigned long long)r.shadow_loads, (unsigned long long)r.shadow_stores,
                 (unsigned long long)r.shadow_overflow);
        gms_test_fail(file, line, m);
    }
    uint64_t ns = r.shadow_stores - sback, nl = r.shadow_loads - lback;
    if (wl_test_prun(name, kv, ns, 0, &r, &e) == 0) {
        snprintf(m, sizeof m, "%s: store %llu moved by 4 bytes still verifies", name, (unsigned long long)ns);
        gms_test_fail(file, line, m);
    }
    if (wl_test_prun(name, kv, 0, nl, &r, &e) == 0) {
        snprintf(m, sizeof m, "%s: load %llu moved by 4 bytes still verifies", name, (unsigned long long)nl);
        gms_test_fail(file, line, m);
    }
}

double wl_test_timing(const char *file, int line, const char *name, const char *const *kv)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_load_file(p, "configs/gtx1080ti.config", &err) || gms_params_finalize(p, &err);
    gms_workload_spec w = {name, NULL, kv, 1, NULL};
    gms_sim *s = rc ? NULL : gms_sim_new(p, &w, &err);
    rc = s ? gms_sim_run(s, &err) : -1;
    double v = 0, insts = 0, fp = -1;
    if (!rc) {
        const gms_run_stats *r = gms_sim_stats(s);
        rc = gms_stats_total(r, "gms_workload_verified", &v) || v != 1 ||
             gms_stats_total(r, "gpu_tot_sim_insn", &insts) || insts <= 0;
        if (gms_stats_total(r, "Uvm_footprint_bytes", &fp)) fp = -1;
    }
    if (rc) {
        char m[1200];
        snprintf(m, sizeof m, "%s (timing): %s", name, err.msg[0] ? err.msg : "not verified or no instructions");
        gms_test_fail(file, line, m);
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
    return fp;
}
