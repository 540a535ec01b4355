/* SQLite result store (see store.h). */
#include "harness/store.h"
#include "harness/util.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const schema_sql =
    "CREATE TABLE schema_version(version INTEGER NOT NULL);\n"
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);\n"
    "CREATE TABLE points(\n"
    "  id TEXT PRIMARY KEY, variant TEXT NOT NULL, workload TEXT NOT NULL, workload_name TEXT NOT NULL,\n"
    "  wl_group TEXT NOT NULL DEFAULT '', seed INTEGER NOT NULL, config TEXT, config_file_digest TEXT,\n"
    "  plan_index INTEGER, in_plan INTEGER NOT NULL DEFAULT 1);\n"
    "CREATE TABLE point_settings(\n"
    "  point_id TEXT NOT NULL REFERENCES points(id), kind TEXT NOT NULL, name TEXT NOT NULL, value TEXT,\n"
    "  PRIMARY KEY(point_id, kind, name));\n"
    "CREATE TABLE runs(\n"
    "  id INTEGER PRIMARY KEY, point_id TEXT NOT NULL REFERENCES points(id), attempt TEXT NOT NULL UNIQUE,\n"
    "  status TEXT NOT NULL, exit_code INTEGER, signal INTEGER, error TEXT, wall_s REAL, host TEXT,\n"
    "  version TEXT, config_digest TEXT, started TEXT, finished TEXT, command TEXT);\n"
    "CREATE INDEX runs_point ON runs(point_id);\n"
    "CREATE TABLE kernels(\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, name TEXT, uid INTEGER,\n"
    "  stream INTEGER, PRIMARY KEY(run_id, idx));\n"
    "CREATE TABLE stats(\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id), kernel INTEGER NOT NULL, name TEXT NOT NULL,\n"
    "  value REAL, PRIMARY KEY(run_id, kernel, name));\n"
    "CREATE VIEW best_runs AS SELECT p.id AS point_id,\n"
    "  (SELECT r.id FROM runs r WHERE r.point_id = p.id ORDER BY (r.status = 'ok') DESC, r.id DESC LIMIT 1)\n"
    "  AS run_id FROM points p;\n";

static int sqerr(gms_store *st, gms_error *err, const char *what)
{
    return gms_err(err, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

int gms_store_exec(gms_store *st, const char *sql, gms_error *err)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        gms_err(err, "%s: %s", st->path, msg ? msg : "SQL error");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int gms_store_begin(gms_store *st, gms_error *err) { return gms_store_exec(st, "BEGIN IMMEDIATE", err); }
int gms_store_commit(gms_store *st, gms_error *err) { return gms_store_exec(st, "COMMIT", err); }
void gms_store_rollback(gms_store *st) { sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL); }

/* -1 on error, 0 = no such table, 1 = present */
static int has_table(gms_store *st, const char *name, gms_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master WHERE name = ?", -1, &q, NULL) != SQLITE_OK)
        return sqerr(st, err, "cannot read the database");
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return sqerr(st, err, "cannot read the database");
    return rc == SQLITE_ROW;
}

static int check_schema(gms_store *st, gms_error *err)
{
    int t = has_table(st, "schema_version", err);
    if (t < 0) return -1;
    if (!t) {
        /* under the write lock, and looked at again: a second runner started on the same new
         * store at the same moment may have made it meanwhile (counting the tables outside the
         * lock raced with that runner's commit and called a fresh store "not a gpumemsim store") */
        if (gms_store_exec(st, "BEGIN IMMEDIATE", err)) return -1;
        t = has_table(st, "schema_version", err);
        if (t < 0) { gms_store_rollback(st); return -1; }
        if (!t) {
            sqlite3_stmt *q;
            int n = 0;
            if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_master", -1, &q, NULL) != SQLITE_OK) {
                int rc = sqerr(st, err, "not an SQLite database");
                gms_store_rollback(st);
                return rc;
            }
            if (sqlite3_step(q) == SQLITE_ROW) n = sqlite3_column_int(q, 0);
            sqlite3_finalize(q);
            if (n) {
                gms_store_rollback(st);
                return gms_err(err, "%s: not a gpumemsim result store (no schema_version table)", st->path);
            }
            char ins[128];
            snprintf(ins, sizeof ins, "INSERT INTO schema_version VALUES(%d)", GMS_STORE_SCHEMA);
            if (gms_store_exec(st, schema_sql, err) || gms_store_exec(st, ins, err)) { gms_store_rollback(st); return -1; }
            return gms_store_exec(st, "COMMIT", err);
        }
        if (gms_store_exec(st, "COMMIT", err)) return -1;
    }
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT max(version) FROM schema_version", -1, &q, NULL) != SQLITE_OK)
        return sqerr(st, err, "cannot read schema_version");
    int v = -1;
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL) v = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    if (v > GMS_STORE_SCHEMA)
        return gms_err(err, "%s: the store has schema version %d, newer than this gpumemsim (%s) supports (%d); "
                       "use a newer gpumemsim", st->path, v, GPUMEMSIM_VERSION, GMS_STORE_SCHEMA);
    if (v < 1) return gms_err(err, "%s: bad schema_version table (no version)", st->path);
    /* v < GMS_STORE_SCHEMA: migrations go here when the schema changes */
    return 0;
}

int gms_store_open(const char *path, int create, gms_store **out, gms_error *err)
{
    if (!create && access(path, F_OK))
        return gms_err(err, "%s: no such result store (run `gpumemsim sweep collect SPEC` first)", path);
    gms_store *st = gms_xcalloc(1, sizeof *st);
    st->path = gms_xstrdup(path);
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
        gms_err(err, "%s: cannot open the result store: %s", path, st->db ? sqlite3_errmsg(st->db) : "out of memory");
        gms_store_close(st);
        return -1;
    }
    sqlite3_busy_timeout(st->db, 30000);
    if (gms_store_exec(st, "PRAGMA foreign_keys = ON", err) || check_schema(st, err)) {
        gms_store_close(st);
        return -1;
    }
    *out = st;
    return 0;
}

void gms_store_close(gms_store *st)
{
    if (!st) return;
    sqlite3_close(st->db);
    free(st->path);
    free(st);
}

char *gms_store_meta(gms_store *st, const char *key)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = ?", -1, &q, NULL) != SQLITE_OK) return NULL;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    char *v = NULL;
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0)) v = gms_xstrdup((const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    return v;
}

int gms_store_variant_left_out(gms_store *st, const char *variant)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM points WHERE variant = ? AND in_plan = 0 LIMIT 1", -1, &q, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(q, 1, variant, -1, SQLITE_TRANSIENT);
    int has = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    return has;
}

static int prep(gms_store *st, const char *sql, sqlite3_stmt **q, gms_error *err)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, q, NULL) != SQLITE_OK) return sqerr(st, err, "SQL");
    return 0;
}

static int step_done(gms_store *st, sqlite3_stmt *q, gms_error *err)
{
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) return sqerr(st, err, "write failed");
    return 0;
}

int gms_store_sync_plan(gms_store *st, const gms_sweep_spec *s, const gms_sweep_plan *plan, gms_error *err)
{
    sqlite3_stmt *pt = NULL, *set = NULL, *meta = NULL, *delset = NULL;
    int rc = gms_store_exec(st, "UPDATE points SET in_plan = 0 WHERE in_plan != 0", err);
    if (!rc) rc = prep(st, "INSERT INTO points(id, variant, workload, workload_name, wl_group, seed, config,"
                           " config_file_digest, plan_index, in_plan) VALUES(?,?,?,?,?,?,?,?,?,1)"
                           " ON CONFLICT(id) DO UPDATE SET variant = excluded.variant, workload = excluded.workload,"
                           " workload_name = excluded.workload_name, wl_group = excluded.wl_group,"
                           " config = excluded.config, plan_index = excluded.plan_index, in_plan = 1", &pt, err);
    if (!rc) rc = prep(st, "INSERT OR REPLACE INTO point_settings(point_id, kind, name, value) VALUES(?,?,?,?)", &set, err);
    if (!rc) rc = prep(st, "DELETE FROM point_settings WHERE point_id = ?", &delset, err);
    if (!rc) rc = prep(st, "INSERT OR REPLACE INTO meta(key, value) VALUES(?,?)", &meta, err);
    for (size_t i = 0; i < plan->n && !rc; i++) {
        const gms_sweep_point *p = &plan->points[i];
        sqlite3_bind_text(pt, 1, p->id, -1, SQLITE_STATIC);
        sqlite3_bind_text(pt, 2, p->variant->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(pt, 3, p->workload->label, -1, SQLITE_STATIC);
        sqlite3_bind_text(pt, 4, p->workload->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(pt, 5, p->workload->group, -1, SQLITE_STATIC);
        sqlite3_bind_int64(pt, 6, (sqlite3_int64)p->seed);
        sqlite3_bind_text(pt, 7, p->variant->config, -1, SQLITE_STATIC);
        sqlite3_bind_text(pt, 8, p->variant->digest, -1, SQLITE_STATIC);
        sqlite3_bind_int64(pt, 9, (sqlite3_int64)p->index);
        rc = step_done(st, pt, err);
        if (!rc) { sqlite3_bind_text(delset, 1, p->id, -1, SQLITE_STATIC); rc = step_done(st, delset, err); }
        for (int k = 0; k < 2 && !rc; k++) {
            const gms_kvlist *l = k ? &p->workload->params : &p->variant->sets;
            for (size_t j = 0; j < l->n && !rc; j++) {
                const char *name = l->v[j].key;
                while (*name == '-') name++;
                sqlite3_bind_text(set, 1, p->id, -1, SQLITE_STATIC);
                sqlite3_bind_text(set, 2, k ? "param" : "config", -1, SQLITE_STATIC);
                sqlite3_bind_text(set, 3, name, -1, SQLITE_STATIC);
                sqlite3_bind_text(set, 4, l->v[j].val, -1, SQLITE_STATIC);
                rc = step_done(st, set, err);
            }
        }
    }
    const char *kv[][2] = { { "name", s->name }, { "spec", s->path }, { "baseline", s->baseline }, { "results", s->results } };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0] && !rc; i++) {
        sqlite3_bind_text(meta, 1, kv[i][0], -1, SQLITE_STATIC);
        sqlite3_bind_text(meta, 2, kv[i][1], -1, SQLITE_STATIC);
        rc = step_done(st, meta, err);
    }
    sqlite3_finalize(pt);
    sqlite3_finalize(set);
    sqlite3_finalize(delset);
    sqlite3_finalize(meta);
    return rc;
}

static void bind_str(sqlite3_stmt *q, int i, const gms_json *j, const char *key)
{
    const char *v = gms_json_get_str(j, key, NULL);
    if (v) sqlite3_bind_text(q, i, v, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(q, i);
}

static int add_stats(gms_store *st, sqlite3_stmt *q, sqlite3_int64 run, int kernel, const gms_json *obj, gms_error *err)
{
    if (!obj || obj->type != GMS_JSON_OBJ) return 0;
    for (size_t i = 0; i < obj->n; i++) {
        const gms_json *v = &obj->items[i];
        double x;
        if (v->type == GMS_JSON_NUM) x = v->num;
        else if (v->type == GMS_JSON_BOOL) x = v->b;
        else continue;     /* strings, nested objects: not a counter */
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int(q, 2, kernel);
        sqlite3_bind_text(q, 3, obj->keys[i], -1, SQLITE_STATIC);
        sqlite3_bind_double(q, 4, x);
        if (step_done(st, q, err)) return -1;
    }
    return 0;
}

int gms_store_ingest(gms_store *st, const gms_json *res, const char *source, int *added, gms_error *err)
{
    *added = 0;
    const char *attempt = gms_json_get_str(res, "attempt", NULL), *pid = gms_json_get_str(res, "point_id", NULL);
    const char *status = gms_json_get_str(res, "status", NULL);
    if (!attempt || !pid || !status) return gms_err(err, "%s: result without attempt, point_id or status", source);
    sqlite3_stmt *q = NULL;
    if (prep(st, "SELECT 1 FROM runs WHERE attempt = ?", &q, err)) return -1;
    sqlite3_bind_text(q, 1, attempt, -1, SQLITE_STATIC);
    int known = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    if (known) return 0;
    if (prep(st, "SELECT 1 FROM points WHERE id = ?", &q, err)) return -1;
    sqlite3_bind_text(q, 1, pid, -1, SQLITE_STATIC);
    int have_point = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    if (!have_point) return gms_err(err, "%s: point %s is not in the store's plan", source, pid);

    if (prep(st, "INSERT INTO runs(point_id, attempt, status, exit_code, signal, error, wall_s, host, version,"
                 " config_digest, started, finished, command) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)", &q, err)) return -1;
    sqlite3_bind_text(q, 1, pid, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, attempt, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, !strcmp(status, "ok") ? "ok" : "failed", -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, (int)gms_json_get_num(res, "exit_code", -1));
    sqlite3_bind_int(q, 5, (int)gms_json_get_num(res, "signal", 0));
    bind_str(q, 6, res, "error");
    sqlite3_bind_double(q, 7, gms_json_get_num(res, "wall_s", 0));
    bind_str(q, 8, res, "host");
    bind_str(q, 9, res, "version");
    bind_str(q, 10, res, "config_digest");
    bind_str(q, 11, res, "started");
    bind_str(q, 12, res, "finished");
    bind_str(q, 13, res, "command");
    int rc = step_done(st, q, err);
    sqlite3_finalize(q);
    if (rc) return -1;
    sqlite3_int64 run = sqlite3_last_insert_rowid(st->db);
    const gms_json *stats = gms_json_get(res, "stats");
    if (!strcmp(status, "ok") && stats && stats->type == GMS_JSON_OBJ) {
        sqlite3_stmt *ks = NULL, *ss = NULL;
        rc = prep(st, "INSERT INTO kernels(run_id, idx, name, uid, stream) VALUES(?,?,?,?,?)", &ks, err);
        if (!rc) rc = prep(st, "INSERT OR REPLACE INTO stats(run_id, kernel, name, value) VALUES(?,?,?,?)", &ss, err);
        if (!rc) rc = add_stats(st, ss, run, 0, gms_json_get(stats, "total"), err);
        const gms_json *ka = gms_json_get(stats, "kernels");
        for (size_t i = 0; !rc && ka && ka->type == GMS_JSON_ARR && i < ka->n; i++) {
            const gms_json *k = &ka->items[i];
            int idx = (int)i + 1;
            sqlite3_bind_int64(ks, 1, run);
            sqlite3_bind_int(ks, 2, idx);
            bind_str(ks, 3, k, "name");
            sqlite3_bind_int64(ks, 4, (sqlite3_int64)gms_json_get_num(k, "uid", 0));
            sqlite3_bind_int64(ks, 5, (sqlite3_int64)gms_json_get_num(k, "stream", 0));
            rc = step_done(st, ks, err);
            if (!rc) rc = add_stats(st, ss, run, idx, gms_json_get(k, "stats"), err);
        }
        sqlite3_finalize(ks);
        sqlite3_finalize(ss);
    }
    if (!rc) *added = 1;
    return rc;
}
