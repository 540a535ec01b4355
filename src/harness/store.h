/* The result store of a sweep: one SQLite database (schema in docs/sweeps.md).
 *   schema_version(version)                   one row; a newer version than ours is refused
 *   meta(key, value)                          study name, spec path, baseline variant
 *   points(id, variant, workload, ...)        one row per planned point (in_plan = in the current plan)
 *   point_settings(point_id, kind, name, value)  config overrides (kind 'config') and workload
 *                                             parameters (kind 'param') of each point
 *   runs(id, point_id, attempt, status, ...)  one row per attempt (attempt ids are unique)
 *   kernels(run_id, idx, name, uid, stream)   kernels of a run, idx from 1
 *   stats(run_id, kernel, name, value)        kernel 0 = the run's totals, else kernels.idx
 *   view best_runs(point_id, run_id)          per point: its latest ok run, else its latest run
 * Ingesting a result is idempotent (an attempt already stored is skipped) and runs inside a
 * transaction, so the store never holds half a run. */
#ifndef GMS_HARNESS_STORE_H
#define GMS_HARNESS_STORE_H
#include <sqlite3.h>
#include "harness/spec.h"
#include "harness/json.h"

#define GMS_STORE_SCHEMA 1

typedef struct gms_store { sqlite3 *db; char *path; } gms_store;

/* create = 0: the store must exist (reports); 1: created when absent */
/* the store a DB|SPEC argument names: the file itself if it is SQLite, else the sweep spec's
 * store; a non-SQLite *.db or an empty file is an error (store_path.c) */
char *gms_store_path_of(const char *arg, gms_error *err);
int gms_store_open(const char *path, int create, gms_store **out, gms_error *err);
void gms_store_close(gms_store *st);
int gms_store_exec(gms_store *st, const char *sql, gms_error *err);
int gms_store_begin(gms_store *st, gms_error *err);
int gms_store_commit(gms_store *st, gms_error *err);
void gms_store_rollback(gms_store *st);
/* records the plan's points and settings; points not in the plan get in_plan = 0 */
int gms_store_sync_plan(gms_store *st, const gms_sweep_spec *s, const gms_sweep_plan *plan, gms_error *err);
/* ingests one parsed point result file; *added = 1 if it was new. Call inside a transaction. */
int gms_store_ingest(gms_store *st, const gms_json *res, const char *source, int *added, gms_error *err);
/* meta value or NULL (malloc'd) */
char *gms_store_meta(gms_store *st, const char *key);
/* whether the store holds points of `variant` that its last plan left out (a `--only` part) */
int gms_store_variant_left_out(gms_store *st, const char *variant);

/* collect.c: syncs the plan and ingests every result file of the plan, in one transaction */
typedef struct gms_collect_summary {
    size_t added_ok, added_failed, known, unreadable, missing;
} gms_collect_summary;
int gms_sweep_collect(const gms_sweep_spec *s, const gms_sweep_plan *plan, gms_store *st,
                      gms_collect_summary *sum, gms_error *err);
/* ingests one point's result file in its own transaction (the local runner, after each point) */
int gms_sweep_collect_one(const gms_sweep_spec *s, const gms_sweep_point *pt, gms_store *st, gms_error *err);

#endif
