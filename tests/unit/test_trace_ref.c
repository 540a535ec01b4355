/* The Accel-Sim reference traces (reference/accelsim in the shared directory, ../shared
 * beside the project root or $GMS_SHARED_DIR): reading each trace directory there gives the
 * warp instruction count Accel-Sim reports (gpgpu_n_tot_w_icount, masks of 00000000
 * included). Skips, saying why, when the directory is absent; under CI=true that is a
 * failure (CI has the shared directory). */
#include "test.h"
#include "frontend/trace_stat.h"
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

static long long summary_count(const char *dir, const char *key)
{
    char path[1024], buf[8192];
    snprintf(path, sizeof path, "%s/accelsim-summary.json", dir);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char pat[128];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(buf, pat);
    if (!p) return -1;
    p = strchr(p + strlen(pat), ':');
    return p ? atoll(p + 1) : -1;
}

TEST(trace_reference_warp_counts)
{
    char ref[512];
    snprintf(ref, sizeof ref, "%s/reference/accelsim", gms_test_shared_dir());
    DIR *d = opendir(ref);
    if (!d) SKIP_OR_FAIL_IN_CI("%s not present", ref);
    struct dirent *e;
    int traces = 0;
    while ((e = readdir(d))) {
        char dir[800], list[900];
        struct stat st;
        snprintf(dir, sizeof dir, "%s/%s", ref, e->d_name);
        snprintf(list, sizeof list, "%s/kernelslist.g", dir);
        if (e->d_name[0] == '.' || stat(list, &st) != 0) continue;
        traces++;
        /* the two largest (18 and 39 M thread instructions) take most of the time */
        if (gms_test_quick() && (!strcmp(e->d_name, "reuse") || !strcmp(e->d_name, "transpose"))) continue;
        gms_trace_stats s = {0};
        gms_error err = {0};
        int rc = gms_trace_stat(list, &s, &err);
        if (rc) printf("    %s: %s\n", e->d_name, err.msg);
        CHECK_EQ(rc, 0);
        long long warp = summary_count(dir, "gpgpu_n_tot_w_icount");
        long long thread = summary_count(dir, "gpu_tot_sim_insn");
        if (s.warp_insts != (uint64_t)warp || s.thread_insts != (uint64_t)thread)
            printf("    %s: counts differ from accelsim-summary.json\n", e->d_name);
        CHECK(warp > 0);
        CHECK_EQ(s.warp_insts, warp);
        CHECK_EQ(s.thread_insts, thread);
        CHECK_EQ(s.kernels, 1);
    }
    closedir(d);
    /* eight traces when written (README there); none found is a broken directory */
    CHECK(traces >= 8);
}
