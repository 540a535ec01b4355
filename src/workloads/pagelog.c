#include "workloads/pagelog.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct pl_range { uint64_t lo, hi; int idx; } pl_range;

struct gms_pagelog {
    FILE *f;
    char path[512];
    int shift;
    uint64_t n;
    pl_range *r;
    int nr, cap;
};

gms_pagelog *gms_pagelog_open(const char *path, int page_shift, gms_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        gms_err(err, "page log %s: %s", path, strerror(errno));
        return NULL;
    }
    gms_pagelog *l = gms_xcalloc(1, sizeof *l);
    l->f = f;
    l->shift = page_shift > 0 ? page_shift : 12;
    snprintf(l->path, sizeof l->path, "%s", path);
    fprintf(f, "# gpumemsim page-log 1 page_shift %d\n# fields: access page alloc\n", l->shift);
    return l;
}

void gms_pagelog_alloc(gms_pagelog *l, uint64_t addr, uint64_t bytes, const char *name)
{
    if (l->nr == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->r = gms_xrealloc(l->r, sizeof *l->r * (size_t)l->cap);
    }
    int idx = l->nr;
    /* keep sorted by address (the bump allocator hands out increasing addresses anyway) */
    int i = l->nr;
    while (i > 0 && l->r[i - 1].lo > addr) { l->r[i] = l->r[i - 1]; i--; }
    l->r[i] = (pl_range){addr, addr + (bytes ? bytes : 1), idx};
    l->nr++;
    char nm[64];
    snprintf(nm, sizeof nm, "%s", name && *name ? name : "alloc");
    for (char *p = nm; *p; p++)
        if (*p == ' ' || *p == '\t' || *p == '\n') *p = '_';
    fprintf(l->f, "# alloc %d 0x%llx %llu %s\n", idx, (unsigned long long)addr, (unsigned long long)bytes, nm);
}

static int find(const gms_pagelog *l, uint64_t a)
{
    int lo = 0, hi = l->nr - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (a < l->r[mid].lo) hi = mid - 1;
        else if (a >= l->r[mid].hi) lo = mid + 1;
        else return l->r[mid].idx;
    }
    return -1;
}

void gms_pagelog_access(gms_pagelog *l, uint64_t addr)
{
    fprintf(l->f, "%llu %llu %d\n", (unsigned long long)l->n++, (unsigned long long)(addr >> l->shift), find(l, addr));
}

void gms_pagelog_lanes(gms_pagelog *l, const uint64_t addrs[32], uint32_t mask)
{
    uint64_t seen[32];
    int ns = 0;
    for (int i = 0; i < 32; i++) {
        if (!(mask >> i & 1u)) continue;
        uint64_t p = addrs[i] >> l->shift;
        int dup = 0;
        for (int k = 0; k < ns && !dup; k++) dup = seen[k] == p;
        if (dup) continue;
        seen[ns++] = p;
        gms_pagelog_access(l, addrs[i]);
    }
}

uint64_t gms_pagelog_count(const gms_pagelog *l) { return l->n; }

int gms_pagelog_close(gms_pagelog *l, gms_error *err)
{
    if (!l) return 0;
    int bad = ferror(l->f);
    if (fclose(l->f)) bad = 1;
    int rc = bad ? gms_err(err, "page log %s: write error", l->path) : 0;
    free(l->r);
    free(l);
    return rc;
}

int gms_pagelog_read(const char *path, gms_pagelog_data *d, gms_error *err)
{
    memset(d, 0, sizeof *d);
    FILE *f = fopen(path, "r");
    if (!f) return gms_err(err, "page log %s: %s", path, strerror(errno));
    char line[512];
    int ln = 0, header = 0;
    d->page_shift = 12;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (!strchr(line, '\n') && !feof(f)) {
            fclose(f);
            gms_pagelog_data_free(d);
            return gms_err_at(err, path, ln, "line too long");
        }
        if (line[0] == '#') {
            int sh;
            int idx;
            unsigned long long addr, bytes;
            char nm[64];
            if (sscanf(line, "# gpumemsim page-log 1 page_shift %d", &sh) == 1) { header = 1; d->page_shift = sh; }
            else if (sscanf(line, "# alloc %d %llx %llu %63s", &idx, &addr, &bytes, nm) == 4) {
                if (idx != d->nallocs) {
                    fclose(f);
                    gms_pagelog_data_free(d);
                    return gms_err_at(err, path, ln, "allocation %d out of order (expected %d)", idx, d->nallocs);
                }
                d->names = gms_xrealloc(d->names, sizeof *d->names * (size_t)(d->nallocs + 1));
                snprintf(d->names[d->nallocs], sizeof d->names[0], "%s", nm);
                d->nallocs++;
            }
            continue;
        }
        if (line[strspn(line, " \t\r\n")] == 0) continue;
        unsigned long long acc, page;
        int al;
        char extra[2];
        if (!header) {
            fclose(f);
            gms_pagelog_data_free(d);
            return gms_err_at(err, path, ln, "not a gpumemsim page log (missing the \"# gpumemsim page-log 1\" header)");
        }
        if (sscanf(line, "%llu %llu %d %1s", &acc, &page, &al, extra) != 3 || al < -1 || al >= d->nallocs) {
            fclose(f);
            gms_pagelog_data_free(d);
            return gms_err_at(err, path, ln, "expected \"access page alloc\" with alloc in [-1, %d)", d->nallocs);
        }
        if (d->n == d->cap) {
            d->cap = d->cap ? 2 * d->cap : 4096;
            d->access = gms_xrealloc(d->access, sizeof *d->access * d->cap);
            d->page = gms_xrealloc(d->page, sizeof *d->page * d->cap);
            d->alloc = gms_xrealloc(d->alloc, sizeof *d->alloc * d->cap);
        }
        d->access[d->n] = acc;
        d->page[d->n] = page;
        d->alloc[d->n] = al;
        d->n++;
    }
    fclose(f);
    if (!header) {
        gms_pagelog_data_free(d);
        return gms_err_at(err, path, ln ? 1 : 0, "not a gpumemsim page log (empty or missing header)");
    }
    return 0;
}

void gms_pagelog_data_free(gms_pagelog_data *d)
{
    free(d->access);
    free(d->page);
    free(d->alloc);
    free(d->names);
    memset(d, 0, sizeof *d);
}
