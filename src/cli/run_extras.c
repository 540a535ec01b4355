#include "cli/run_extras.h"
#include "workloads/pagelog.h"
#include <string.h>

static void on_lanes(void *ud, const uint64_t addrs[32], uint32_t mask)
{
    gms_pagelog_lanes(((gms_run_extras *)ud)->log, addrs, mask);
}

static void on_alloc(void *ud, uint64_t addr, uint64_t bytes, const char *name)
{
    gms_pagelog_alloc(((gms_run_extras *)ud)->log, addr, bytes, name);
}

int gms_run_extras_attach(gms_run_extras *x, gms_sim *s, const char *page_log, gms_error *err)
{
    memset(x, 0, sizeof *x);
    if (!page_log) return 0;
    x->log = gms_pagelog_open(page_log, 12, err);
    if (!x->log) return -1;
    gms_sim_set_observer(s, on_lanes, on_alloc, x);
    return 0;
}

int gms_run_extras_walk(const char *page_log, const char *workload, const char *const *kv, uint64_t seed,
                        uint64_t *accesses, gms_error *err)
{
    const gms_workload_ops *ops = gms_workload_find(workload);
    if (!ops) return gms_err(err, "unknown workload '%s'", workload);
    gms_pagelog *l = gms_pagelog_open(page_log, 12, err);
    if (!l) return -1;
    int rc = gms_pagelog_walk(ops, kv, seed, l, err);
    *accesses = gms_pagelog_count(l);
    gms_error e2 = {0};
    if (gms_pagelog_close(l, &e2) && !rc) { *err = e2; rc = -1; }
    return rc;
}

int gms_run_extras_finish(gms_run_extras *x, gms_error *err)
{
    if (!x->log) return 0;
    int rc = gms_pagelog_close(x->log, err);
    x->log = NULL;
    return rc;
}
