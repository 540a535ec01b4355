/* gpumemsim list workloads | presets | options | policies */
#include "cli/cli.h"
#include "util/registry.h"
#include "workloads/workload.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void gms_params_list_options(FILE *out);

static void human(uint64_t b, char *buf, size_t n)
{
    if (b >= (1ULL << 30)) snprintf(buf, n, "%.1f GiB", (double)b / (1ULL << 30));
    else if (b >= (1ULL << 20)) snprintf(buf, n, "%.1f MiB", (double)b / (1ULL << 20));
    else snprintf(buf, n, "%.1f KiB", (double)b / 1024.0);
}

static int list_workloads(int details)
{
    printf("%-14s %-10s %-22s %-3s %-11s %s\n", "workload", "suite", "domain", "R/I", "footprint", "summary");
    for (size_t i = 0, n = gms_workload_count(); i < n; i++) {
        const gms_workload_ops *o = gms_workload_at(i);
        char fp[32] = "-";
        if (o->footprint) {
            gms_wl_args *a = NULL;
            gms_error err = {0};
            if (!gms_wl_args_parse(o, NULL, 1, &a, &err)) {
                human(o->footprint(a), fp, sizeof fp);
                gms_wl_args_free(a);
            }
        }
        printf("%-14s %-10s %-22s %-3s %-11s %s\n", o->name, o->suite, o->domain, o->ri, fp, o->summary);
        if (details) {
            for (const gms_wl_param *p = o->params; p && p->name; p++)
                printf("%16s %-12s default %-10s %s\n", "", p->name, p->defval[0] ? p->defval : "\"\"", p->help);
            printf("%16s %-12s default %-10s %s\n", "", "uvm", "0", "1 = managed allocations, no copies");
            printf("%16s %-12s default %-10s %s\n", "", "prefetch", "0", "1 = prefetch managed memory before each launch");
        }
    }
    return 0;
}

/* presets: the .config files in configs/ next to the binary's source tree or the current directory */
static int list_presets(void)
{
    const char *dirs[] = { "configs", "../configs", "/usr/local/share/gpumemsim/configs" };
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) continue;
        char *names[256];
        int n = 0;
        struct dirent *e;
        while ((e = readdir(dir)) && n < 256) {
            size_t l = strlen(e->d_name);
            if (l > 7 && !strcmp(e->d_name + l - 7, ".config")) names[n++] = strdup(e->d_name);
        }
        closedir(dir);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (strcmp(names[i], names[j]) > 0) { char *t = names[i]; names[i] = names[j]; names[j] = t; }
        for (int i = 0; i < n; i++) {
            char path[1024], line[512] = "";
            snprintf(path, sizeof path, "%s/%s", dirs[d], names[i]);
            FILE *f = fopen(path, "r");
            if (f) {
                /* first comment line describes the preset */
                while (fgets(line, sizeof line, f))
                    if (line[0] == '#') break;
                fclose(f);
            }
            line[strcspn(line, "\n")] = 0;
            printf("%-34s %s\n", path, line[0] == '#' ? line + 1 : "");
            free(names[i]);
        }
        return 0;
    }
    fprintf(stderr, "gpumemsim: no configs/ directory found (run from the source tree)\n");
    return 1;
}

/* every policy family, its option and its members with their help, from the registries */
static int list_policies(void)
{
    for (size_t i = 0; i < gms_nregistries; i++) {
        if (i) printf("\n");
        gms_reg_print(gms_registries[i], stdout);
    }
    return 0;
}

int gms_cmd_list(int argc, char **argv)
{
    static const char *const use = "usage: gpumemsim list workloads [--details] | presets | options | policies\n";
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) { fputs(use, stdout); return 0; }
    if (argc < 2) {
        fprintf(stderr, "gpumemsim list: which list? (workloads, presets, options or policies)\n");
        return 2;
    }
    const char *what = argv[1];
    static const char *const lists[] = { "workloads", "presets", "options", "policies", NULL };
    int known = 0;
    for (int i = 0; lists[i]; i++) known |= !strcmp(what, lists[i]);
    if (!known) {
        fprintf(stderr, "gpumemsim list: unknown list '%s' (workloads, presets, options, policies)\n", what);
        return 2;
    }
    /* only `list workloads` takes an argument (--details), once */
    int details = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(what, "workloads") && !strcmp(argv[i], "--details") && !details) { details = 1; continue; }
        fprintf(stderr, "gpumemsim list %s: unexpected argument '%s'%s\n", what, argv[i],
                !strcmp(what, "workloads") ? (details && !strcmp(argv[i], "--details") ? " (given twice)" : " (only --details)")
                                           : " (it takes none)");
        return 2;
    }
    if (!strcmp(what, "workloads")) return list_workloads(details);
    if (!strcmp(what, "presets")) return list_presets();
    if (!strcmp(what, "options")) { gms_params_list_options(stdout); return 0; }
    return list_policies();
}
