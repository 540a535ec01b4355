/* The memo of isolated and profile runs (GMS_CKE_MEMO, src/cke/cke_memo.h): what the key
 * holds and ignores, exact values, a file of another key, a damaged file, and a
 * multiprogrammed run that reads its isolated IPC from the memo and gives the same results. */
#include "test.h"
#include "run_test_util.h"
#include "cke/cke_memo.h"
#include "config/params.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the Maxwell preset with up to two options (k1 NULL: none; k2 NULL: one); NULL if it failed */
static gms_params *maxwell(const char *k1, const char *v1, const char *k2, const char *v2)
{
    const char *opts[] = { k1, v1, k2, v2, NULL };
    return wl_sim_params("configs/maxwell-sound-baseline.config", opts);
}

static const char *const kv_a[] = { "apps=bp", "alone=1", "cap=0", "window=5000", "args=bp:scale=0.25", "seed=1", NULL };
static const char *const kv_b[] = { "apps=bp", "alone=1", "cap=3", "window=5000", "args=bp:scale=0.25", "seed=1", NULL };

TEST(cke_memo_key_ignores_the_schemes_not_the_machine)
{
    gms_params *base = maxwell(NULL, NULL, NULL, NULL);
    gms_params *schemes = maxwell("gms_cke_mi", "dmil", "gms_cke_tb", "ws");
    gms_params *windows = maxwell("gms_cke_window", "7777", "gms_cke_dmil_met", "keep");
    gms_params *l1 = maxwell("gpgpu_cache:dl1", "N:64:128:6,L:L:m:N:X,A:128:8,128:0,64", NULL, NULL);
    gms_params *part = maxwell("gms_cke_mshr_partition", "1", NULL, NULL);
    REQUIRE(base && schemes && windows && l1 && part);
    char *k0 = gms_cke_memo_key(base, kv_a), *k1 = gms_cke_memo_key(schemes, kv_a);
    char *k2 = gms_cke_memo_key(windows, kv_a), *k3 = gms_cke_memo_key(l1, kv_a);
    char *k4 = gms_cke_memo_key(part, kv_a), *k5 = gms_cke_memo_key(base, kv_b);
    /* an isolated run does not read the schemes or the shared window: one key */
    CHECK(!strcmp(k0, k1));
    CHECK(!strcmp(k0, k2));
    /* it does run on the L1D, and the MSHR partition stays in the key to be safe */
    CHECK(strcmp(k0, k3) != 0);
    CHECK(strcmp(k0, k4) != 0);
    /* its own arguments (here the block cap of a profile run) */
    CHECK(strcmp(k0, k5) != 0);
    CHECK(strstr(k5, "arg cap=3\n") != NULL);
    free(k0); free(k1); free(k2); free(k3); free(k4); free(k5);
    gms_params_free(base); gms_params_free(schemes); gms_params_free(windows);
    gms_params_free(l1); gms_params_free(part);
}

static char *tmpdir(void)
{
    char t[] = "/tmp/gms_cke_memo_XXXXXX";
    char *d = mkdtemp(t);
    return d ? strdup(d) : NULL;
}

static void rmtree(const char *d)
{
    DIR *dp = opendir(d);
    if (dp) {
        struct dirent *e;
        char f[1024];
        while ((e = readdir(dp)))
            if (e->d_name[0] != '.') { snprintf(f, sizeof f, "%s/%s", d, e->d_name); unlink(f); }
        closedir(dp);
    }
    rmdir(d);
}

/* the one file in d whose text holds every string of want (NULL-terminated); its path */
static int find_file(const char *d, const char *const *want, char *out, size_t cap)
{
    DIR *dp = opendir(d);
    int found = 0;
    struct dirent *e;
    while (dp && (e = readdir(dp))) {
        if (e->d_name[0] == '.') continue;
        char f[1024], buf[8192];
        snprintf(f, sizeof f, "%s/%s", d, e->d_name);
        FILE *fp = fopen(f, "r");
        if (!fp) continue;
        size_t n = fread(buf, 1, sizeof buf - 1, fp);
        fclose(fp);
        buf[n] = 0;
        int all = 1;
        for (int i = 0; want[i]; i++) all &= strstr(buf, want[i]) != NULL;
        if (all) { snprintf(out, cap, "%s", f); found++; }
    }
    if (dp) closedir(dp);
    return found;
}

TEST(cke_memo_values_exact_other_keys_and_damage)
{
    char *d = tmpdir();
    REQUIRE(d);
    double v[2] = { 1.0 / 3.0, 0x1p-1070 }, r[2] = { 0, 0 };   /* the second subnormal */
    gms_error err = {0};
    /* not there yet */
    CHECK_EQ(gms_cke_memo_get(d, "key one\n", r, 2, &err), 0);
    gms_cke_memo_put(d, "key one\n", v, 2);
    CHECK_EQ(gms_cke_memo_get(d, "key one\n", r, 2, &err), 1);
    /* bit for bit */
    CHECK(memcmp(r, v, sizeof v) == 0);
    /* a file of the same name written for another key is not ours */
    char path[1024];
    const char *one[] = { "key one\n", NULL };
    REQUIRE(find_file(d, one, path, sizeof path) == 1);
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fputs("key two\nvalues 2\n0x1p+0\n0x1p+1\nend\n", f);
    fclose(f);
    CHECK_EQ(gms_cke_memo_get(d, "key one\n", r, 2, &err), 0);
    /* ours, damaged: one error naming the file */
    f = fopen(path, "w");
    REQUIRE(f);
    fputs("key one\nvalues 2\n0x1p+0\nnot a number\nend\n", f);
    fclose(f);
    CHECK_EQ(gms_cke_memo_get(d, "key one\n", r, 2, &err), -1);
    CHECK(strstr(err.msg, path) != NULL && strstr(err.msg, "delete") != NULL);
    /* cut short: damaged too, anywhere */
    const char *cut[] = { "key one\nvalues 2\n0x1p+0\n", "key one\nvalues 2", "key one\nval", "key one\n" };
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
        f = fopen(path, "w");
        REQUIRE(f);
        fputs(cut[i], f);
        fclose(f);
        CHECK_EQ(gms_cke_memo_get(d, "key one\n", r, 2, &err), -1);
    }
    rmtree(d);
    free(d);
}

/* bp+ks on p (the memo as GMS_CKE_MEMO says); 0, or -1 after printing the error */
static int run_ws(wl_sim *r, const gms_params *p)
{
    const char *kv[] = { "apps=bp+ks", "window=5000", "scale=0.25", NULL };
    return wl_sim_run_on(r, p, "cke", kv, 1);
}

TEST(cke_memo_run_reads_the_isolated_runs_and_matches)
{
    char *d = tmpdir();
    REQUIRE(d);
    gms_params *p = maxwell("gms_cke_tb", "ws", "gms_cke_profile_window", "2000");
    REQUIRE(p);
    unsetenv("GMS_CKE_MEMO");
    wl_sim plain, first, second, planted;
    int rc = run_ws(&plain, p);
    setenv("GMS_CKE_MEMO", d, 1);
    rc |= run_ws(&first, p);    /* computes and stores */
    rc |= run_ws(&second, p);   /* reads */
    unsetenv("GMS_CKE_MEMO");
    REQUIRE(rc == 0);
    const char *names[] = { "gms_cke_stp", "gms_cke_antt", "gms_cke_app0_alone_ipc", "gms_cke_app1_alone_ipc",
                            "gms_cke_app0_blocks_per_sm", "gms_cke_app1_blocks_per_sm", "gms_cke_ws_predicted_stp",
                            "gpu_tot_sim_cycle", "L1D_total_cache_reservation_fails" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        CHECK_EQ(wl_sim_stat(&first, names[i]), wl_sim_stat(&plain, names[i]));
        CHECK_EQ(wl_sim_stat(&second, names[i]), wl_sim_stat(&plain, names[i]));
    }
    /* the isolated run of bp at the whole window is in the memo; a value planted there is what
     * the next run reports as bp's isolated IPC (so the run did read it) */
    char path[1024];
    const char *want[] = { "arg apps=bp\n", "arg cap=0\n", "arg window=5000\n", NULL };
    REQUIRE(find_file(d, want, path, sizeof path) == 1);
    FILE *f = fopen(path, "r");
    REQUIRE(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *vals = strstr(buf, "values 2\n");
    REQUIRE(vals);
    strcpy(vals, "values 2\n0x1p+10\n0x1p+5\nend\n");
    f = fopen(path, "w");
    REQUIRE(f);
    fputs(buf, f);
    fclose(f);
    setenv("GMS_CKE_MEMO", d, 1);
    rc = run_ws(&planted, p);
    unsetenv("GMS_CKE_MEMO");
    REQUIRE(rc == 0);
    CHECK_EQ(wl_sim_stat(&planted, "gms_cke_app0_alone_ipc"), 1024.0);
    CHECK_EQ(wl_sim_stat(&planted, "gms_cke_app1_alone_ipc"), wl_sim_stat(&plain, "gms_cke_app1_alone_ipc"));
    wl_sim_free(&plain); wl_sim_free(&first); wl_sim_free(&second); wl_sim_free(&planted);
    gms_params_free(p);
    rmtree(d);
    free(d);
}
