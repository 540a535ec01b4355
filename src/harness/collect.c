/* Ingesting per-point result files into the store. A whole collect is one transaction: it
 * lands completely or not at all, and since attempts already stored are skipped, collecting
 * again changes nothing. */
#include "harness/store.h"
#include "harness/point.h"
#include "harness/util.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the first stat in obj whose value is a string (not a counter, so not stored), or NULL */
static const char *string_stat(const gms_json *obj, size_t *n)
{
    const char *first = NULL;
    if (!obj || obj->type != GMS_JSON_OBJ) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (obj->items[i].type == GMS_JSON_STR) {
            if (!first) first = obj->keys[i];
            (*n)++;
        }
    return first;
}

/* stats whose value is a string are not stored: say so, once per file */
static void warn_string_stats(const gms_json *j, const char *path)
{
    const gms_json *stats = gms_json_get(j, "stats");
    if (!stats || stats->type != GMS_JSON_OBJ) return;
    size_t n = 0;
    const char *first = string_stat(gms_json_get(stats, "total"), &n);
    const gms_json *ka = gms_json_get(stats, "kernels");
    for (size_t i = 0; ka && ka->type == GMS_JSON_ARR && i < ka->n; i++) {
        const char *f = string_stat(gms_json_get(&ka->items[i], "stats"), &n);
        if (!first) first = f;
    }
    if (first)
        fprintf(stderr, "gpumemsim sweep: warning: %s: stat \"%s\"%s has a string value, not a number; not stored\n",
                path, first, n > 1 ? " (and others)" : "");
}

static int ingest_file(const gms_sweep_spec *s, const gms_sweep_point *pt, gms_store *st,
                       gms_collect_summary *sum, gms_error *err)
{
    char *path = gms_point_result_path(s, pt->id);
    int rc = 0;
    if (access(path, F_OK)) {
        if (sum) sum->missing++;
    } else {
        gms_error e = {0};
        gms_json *j = gms_point_result_read(path, &e);
        if (!j) {
            /* a damaged file is reported, not fatal: the point shows as not done */
            fprintf(stderr, "gpumemsim sweep: warning: %s\n", e.msg);
            if (sum) sum->unreadable++;
        } else {
            int added = 0;
            if (strcmp(gms_json_get_str(j, "point_id", ""), pt->id)) {
                /* like any other damaged file: reported, not stored, the rest collected */
                fprintf(stderr, "gpumemsim sweep: warning: %s: the file holds point %s, not %s; not collected\n", path,
                        gms_json_get_str(j, "point_id", "?"), pt->id);
                if (sum) sum->unreadable++;
                gms_json_free(j);
                free(path);
                return 0;
            }
            if (!gms_json_get_str(j, "attempt", NULL) || !gms_json_get_str(j, "status", NULL)) {
                /* a file cut or written by hand: reported like a damaged one, the rest collected */
                fprintf(stderr, "gpumemsim sweep: warning: %s: result without %s; not collected\n", path,
                        gms_json_get_str(j, "attempt", NULL) ? "status" : "attempt");
                if (sum) sum->unreadable++;
                gms_json_free(j);
                free(path);
                return 0;
            }
            rc = gms_store_ingest(st, j, path, &added, err);
            if (!rc && added && !strcmp(gms_json_get_str(j, "status", ""), "ok")) warn_string_stats(j, path);
            if (!rc && sum) {
                if (!added) sum->known++;
                else if (!strcmp(gms_json_get_str(j, "status", ""), "ok")) sum->added_ok++;
                else sum->added_failed++;
            }
            gms_json_free(j);
        }
    }
    free(path);
    return rc;
}

int gms_sweep_collect(const gms_sweep_spec *s, const gms_sweep_plan *plan, gms_store *st,
                      gms_collect_summary *sum, gms_error *err)
{
    memset(sum, 0, sizeof *sum);
    if (gms_store_begin(st, err)) return -1;
    int rc = gms_store_sync_plan(st, s, plan, err);
    for (size_t i = 0; i < plan->n && !rc; i++) rc = ingest_file(s, &plan->points[i], st, sum, err);
    if (rc) { gms_store_rollback(st); memset(sum, 0, sizeof *sum); return -1; }
    return gms_store_commit(st, err);
}

int gms_sweep_collect_one(const gms_sweep_spec *s, const gms_sweep_point *pt, gms_store *st, gms_error *err)
{
    if (gms_store_begin(st, err)) return -1;
    if (ingest_file(s, pt, st, NULL, err)) { gms_store_rollback(st); return -1; }
    return gms_store_commit(st, err);
}
