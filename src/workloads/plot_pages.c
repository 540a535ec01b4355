/* gpumemsim plot pages: page number against access order (spec 000b Fig. 5.1), one colour per
 * allocation, drawn by gnuplot into a PNG.
 *   gpumemsim plot pages --log FILE --out pages.png
 *   gpumemsim plot pages --workload NAME [--set k=v ...] [--seed N] --out pages.png
 * The second form writes the page log itself from a functional walk (no timing). */
#include "workloads/pagelog.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_POINTS 2000000   /* larger logs are thinned evenly for drawing */
#define MAX_SETS 64

static int have_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char *p = gms_xstrdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(p, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char f[4096];
        snprintf(f, sizeof f, "%s/gnuplot", *d ? d : ".");
        found = access(f, X_OK) == 0;
    }
    free(p);
    return found;
}

static int draw(const char *logpath, const char *out, const char *title, gms_error *err)
{
    gms_pagelog_data d;
    if (gms_pagelog_read(logpath, &d, err)) return -1;
    if (d.n == 0) {
        gms_pagelog_data_free(&d);
        return gms_err(err, "page log %s: no accesses to plot", logpath);
    }
    uint64_t minp = UINT64_MAX;
    for (uint64_t i = 0; i < d.n; i++)
        if (d.page[i] < minp) minp = d.page[i];
    uint64_t step = d.n > MAX_POINTS ? (d.n + MAX_POINTS - 1) / MAX_POINTS : 1;
    char dat[] = "/tmp/gms_pages_XXXXXX";
    int fd = mkstemp(dat);
    if (fd < 0) {
        gms_pagelog_data_free(&d);
        return gms_err(err, "plot pages: cannot create a temporary file: %s", strerror(errno));
    }
    FILE *f = fdopen(fd, "w");
    /* one data block per allocation (index 0 = outside every allocation) */
    int nb = d.nallocs + 1;
    for (int b = 0; b < nb; b++) {
        fprintf(f, "# block %d\n", b);
        int any = 0;
        for (uint64_t i = 0; i < d.n; i += step)
            if (d.alloc[i] + 1 == b) {
                fprintf(f, "%llu %llu\n", (unsigned long long)d.access[i], (unsigned long long)(d.page[i] - minp));
                any = 1;
            }
        if (!any) fprintf(f, "NaN NaN\n");
        fprintf(f, "\n\n");
    }
    fclose(f);
    char gp[] = "/tmp/gms_pages_gp_XXXXXX";
    fd = mkstemp(gp);
    if (fd < 0) {
        remove(dat);
        gms_pagelog_data_free(&d);
        return gms_err(err, "plot pages: cannot create a temporary file: %s", strerror(errno));
    }
    f = fdopen(fd, "w");
    fprintf(f, "set terminal pngcairo size 1200,800 noenhanced\n");
    fprintf(f, "set output '%s'\n", out);
    fprintf(f, "set title '%s (%llu accesses%s)'\n", title, (unsigned long long)d.n, step > 1 ? ", thinned" : "");
    fprintf(f, "set xlabel 'access order'\nset ylabel 'page number (4 KiB pages from 0x%llx)'\n",
            (unsigned long long)(minp << d.page_shift));
    fprintf(f, "set key outside right\nset format x '%%.0f'\nset format y '%%.0f'\n");
    fprintf(f, "plot ");
    int first = 1;
    for (int b = 0; b < nb; b++) {
        int used = 0;
        for (uint64_t i = 0; i < d.n && !used; i++) used = d.alloc[i] + 1 == b;
        if (!used) continue;
        fprintf(f, "%s'%s' index %d using 1:2 with points pt 7 ps 0.3 title '%s'", first ? "" : ", \\\n     ", dat, b,
                b == 0 ? "(none)" : d.names[b - 1]);
        first = 0;
    }
    fprintf(f, "\n");
    fclose(f);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>&1", gp);
    FILE *pp = popen(cmd, "r");
    char msg[512] = "";
    size_t got = pp ? fread(msg, 1, sizeof msg - 1, pp) : 0;
    msg[got] = 0;
    int st = pp ? pclose(pp) : -1;
    remove(dat);
    remove(gp);
    gms_pagelog_data_free(&d);
    if (st != 0) {
        /* pngcairo may be missing in gnuplot-nox builds: retry with the plain png terminal */
        return gms_err(err, "plot pages: gnuplot failed: %s", *msg ? msg : "(no message)");
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: gpumemsim plot pages --log FILE --out pages.png\n"
                    "       gpumemsim plot pages --workload NAME [--set k=v ...] [--seed N] [--keep-log FILE] --out pages.png\n");
    return 2;
}

int gms_plot_pages(int argc, char **argv)
{
    const char *log = NULL, *out = NULL, *wl = NULL, *keep = NULL;
    const char *sets[MAX_SETS + 1];
    int nsets = 0;
    uint64_t seed = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "pages") && i == 0) continue;
        if (i + 1 >= argc) { fprintf(stderr, "gpumemsim plot pages: %s needs a value\n", a); return usage(); }
        if (!strcmp(a, "--log")) log = argv[++i];
        else if (!strcmp(a, "--out")) out = argv[++i];
        else if (!strcmp(a, "--workload")) wl = argv[++i];
        else if (!strcmp(a, "--keep-log")) keep = argv[++i];
        else if (!strcmp(a, "--seed")) seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--set")) {
            if (nsets == MAX_SETS) { fprintf(stderr, "gpumemsim plot pages: too many --set\n"); return 2; }
            sets[nsets++] = argv[++i];
        } else {
            fprintf(stderr, "gpumemsim plot pages: unknown option %s\n", a);
            return usage();
        }
    }
    sets[nsets] = NULL;
    if (!out || (!log == !wl)) return usage();
    if (!have_gnuplot()) {
        fprintf(stderr, "gpumemsim plot pages: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        return 1;
    }
    gms_error err = {0};
    char tmp[] = "/tmp/gms_pagelog_XXXXXX";
    const char *title = log;
    if (wl) {
        const gms_workload_ops *ops = gms_workload_find(wl);
        if (!ops) {
            fprintf(stderr, "gpumemsim plot pages: unknown workload '%s'\n", wl);
            return 1;
        }
        if (keep) log = keep;
        else {
            int fd = mkstemp(tmp);
            if (fd < 0) { fprintf(stderr, "gpumemsim plot pages: cannot create a temporary file\n"); return 1; }
            close(fd);
            log = tmp;
        }
        gms_pagelog *pl = gms_pagelog_open(log, 12, &err);
        if (!pl) { fprintf(stderr, "gpumemsim plot pages: %s\n", err.msg); return 1; }
        int rc = gms_pagelog_walk(ops, sets, seed, pl, &err);
        gms_error e2 = {0};
        if (gms_pagelog_close(pl, &e2) && !rc) { err = e2; rc = -1; }
        if (rc) {
            if (!keep) remove(tmp);
            fprintf(stderr, "gpumemsim plot pages: %s\n", err.msg);
            return 1;
        }
        title = wl;
    }
    int rc = draw(log, out, title, &err);
    if (wl && !keep) remove(tmp);
    if (rc) {
        fprintf(stderr, "gpumemsim plot pages: %s\n", err.msg);
        return 1;
    }
    return 0;
}
