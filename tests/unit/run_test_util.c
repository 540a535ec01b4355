#include "run_test_util.h"
#include <stdio.h>

gms_params *wl_sim_params(const char *config_file, const char *const *opts)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_load_file(p, config_file, &err);
    for (int i = 0; !rc && opts && opts[i]; i += 2) rc = gms_params_set(p, opts[i], opts[i + 1], &err);
    rc = rc || gms_params_finalize(p, &err);
    if (rc) { printf("    %s\n", err.msg); gms_params_free(p); return NULL; }
    return p;
}

int wl_sim_run_on(wl_sim *r, const gms_params *p, const char *workload, const char *const *kv, uint64_t seed)
{
    gms_workload_spec ws = { workload, NULL, kv, seed, NULL };
    gms_error err = {0};
    r->p = NULL;
    r->s = gms_sim_new(p, &ws, &err);
    int rc = r->s ? gms_sim_run(r->s, &err) : -1;
    if (rc) { printf("    %s\n", err.msg); gms_sim_free(r->s); r->s = NULL; return -1; }
    return 0;
}

int wl_sim_run(wl_sim *r, const char *config_file, const char *const *opts, const char *workload,
               const char *const *kv, uint64_t seed)
{
    gms_params *p = wl_sim_params(config_file, opts);
    if (!p) { r->p = NULL; r->s = NULL; return -1; }
    if (wl_sim_run_on(r, p, workload, kv, seed)) { gms_params_free(p); return -1; }
    r->p = p;
    return 0;
}

double wl_sim_stat_at(const char *file, int line, const wl_sim *r, const char *name)
{
    double v = -1;
    if (gms_stats_total(gms_sim_stats(r->s), name, &v)) gms_test_fail(file, line, name);
    return v;
}

void wl_sim_free(wl_sim *r)
{
    gms_sim_free(r->s);
    gms_params_free(r->p);
    r->s = NULL;
    r->p = NULL;
}
