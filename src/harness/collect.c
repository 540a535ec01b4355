/* Ingesting per-point result files into the store. A whole collect is one transaction: it
 * lands completely or not at all, and since attempts already stored are skipped, collecting
 * again changes nothing. */
#include "harness/store.h"
#include "harness/point.h"
#include "harness/util.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
            if (strcmp(gms_json_get_str(j, "point_id", ""), pt->id))
                rc = gms_err(err, "%s: the file holds point %s, not %s", path, gms_json_get_str(j, "point_id", "?"), pt->id);
            else rc = gms_store_ingest(st, j, path, &added, err);
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
