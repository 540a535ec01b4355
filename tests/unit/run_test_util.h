/* Shared by the tests that run a built-in workload through the whole simulator (test_cke_audit.c,
 * test_cke_run.c, test_cke_memo.c): a preset config file with a few options set, one run of a
 * workload, its statistics read by name. */
#ifndef GMS_RUN_TEST_UTIL_H
#define GMS_RUN_TEST_UTIL_H
#include "test.h"
#include "config/params.h"
#include <stdint.h>

typedef struct wl_sim {
    gms_params *p;   /* the parameters wl_sim_run loaded (NULL after wl_sim_run_on: the caller's) */
    gms_sim *s;
} wl_sim;

/* config_file with the options opts (name, value, name, value, ..., NULL; NULL for none) set
 * in order, finalized; NULL after printing the error */
gms_params *wl_sim_params(const char *config_file, const char *const *opts);
/* wl_sim_params, then workload with kv (NULL-terminated "name=value") and seed, run to its end.
 * Returns 0 (read the statistics with wl_sim_stat, then wl_sim_free), else -1 after printing the
 * error, with nothing left to free */
int wl_sim_run(wl_sim *r, const char *config_file, const char *const *opts, const char *workload,
               const char *const *kv, uint64_t seed);
/* the same on parameters the caller keeps (several runs may share them; free them after) */
int wl_sim_run_on(wl_sim *r, const gms_params *p, const char *workload, const char *const *kv, uint64_t seed);
/* statistic `name` of the run's totals; fails the calling test (-1) when absent */
double wl_sim_stat_at(const char *file, int line, const wl_sim *r, const char *name);
#define wl_sim_stat(r, name) wl_sim_stat_at(__FILE__, __LINE__, r, name)
void wl_sim_free(wl_sim *r);

#endif
