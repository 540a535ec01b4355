/* DB|SPEC arguments (report, plot, sweep export): a result store as it is, or a sweep spec's
 * store (its `db` line). A file that is not SQLite but looks like a store (named *.db, or
 * empty) is refused as such, not parsed as a spec with a confusing spec error. */
#include "harness/spec.h"
#include "harness/store.h"
#include "harness/util.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

char *gms_store_path_of(const char *arg, gms_error *err)
{
    FILE *f = fopen(arg, "rb");
    if (!f) { gms_err(err, "%s: %s", arg, strerror(errno)); return NULL; }
    char h[16] = {0};
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    if (n == 16 && !memcmp(h, "SQLite format 3", 16)) return gms_xstrdup(arg);
    size_t len = strlen(arg);
    if (n == 0 || (len > 3 && !strcmp(arg + len - 3, ".db"))) {
        gms_err(err, "%s: not a gpumemsim result store (%s)", arg, n == 0 ? "an empty file" : "no SQLite header");
        return NULL;
    }
    gms_sweep_spec *s;
    if (gms_sweep_spec_parse(arg, &s, err)) return NULL;
    char *db = gms_xstrdup(s->db);
    gms_sweep_spec_free(s);
    return db;
}
