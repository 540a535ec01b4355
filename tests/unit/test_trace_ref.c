/* The six Accel-Sim reference traces (/work/shared/reference/accelsim): reading each gives
 * the warp instruction count Accel-Sim reports (gpgpu_n_tot_w_icount, masks of 00000000
 * included). Skips with a message when the shared directory is absent. */
#include "test.h"
#include "frontend/trace_stat.h"
#include <stdlib.h>
#include <sys/stat.h>

#define REF_DIR "/work/shared/reference/accelsim"

static long long summary_count(const char *dir, const char *key)
{
    char path[512], buf[8192];
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
    static const char *const names[] = {"vecadd", "strided", "gather", "transpose", "reuse", "matvec_row"};
    struct stat st;
    if (stat(REF_DIR, &st) != 0) {
        printf("    (skipped: %s not present)\n", REF_DIR);
        return;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (gms_test_quick() && (!strcmp(names[i], "reuse") || !strcmp(names[i], "transpose"))) continue;
        char dir[512], list[600];
        snprintf(dir, sizeof dir, "%s/%s", REF_DIR, names[i]);
        snprintf(list, sizeof list, "%s/kernelslist.g", dir);
        gms_trace_stats s;
        gms_error err = {0};
        int rc = gms_trace_stat(list, &s, &err);
        if (rc) printf("    %s: %s\n", names[i], err.msg);
        CHECK_EQ(rc, 0);
        CHECK_EQ(s.warp_insts, summary_count(dir, "gpgpu_n_tot_w_icount"));
        CHECK_EQ(s.thread_insts, summary_count(dir, "gpu_tot_sim_insn"));
        CHECK_EQ(s.kernels, 1);
    }
}
