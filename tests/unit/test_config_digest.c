/* config_digest (stats JSON, sweep store): a hash of the decoded configuration. The same
 * configuration written differently (file order, 1 or true, -x 1 or --set x=1, a default
 * given explicitly or not) gives the same digest; changing any option, whichever, changes it. */
#include "test.h"
#include "config/params.h"
#include "config/config_digest.h"
#include "core/gpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* digest of qv100 + the file `extra` (NULL: none) + option name=val (NULL: none), finalized */
static int digest_of(const char *extra, const char *name, const char *val, char out[32])
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_load_file(p, "configs/qv100.config", &err) || (extra && gms_params_load_file(p, extra, &err)) ||
             (name && gms_params_set(p, name, val, &err)) || gms_params_finalize(p, &err);
    if (rc) printf("    %s\n", err.msg);
    else gms_config_digest(p, out, 32);
    gms_params_free(p);
    return rc ? -1 : 0;
}

TEST(config_digest_same_config_written_differently)
{
    char a[32], b[32], c[32], d[32];
    char f1[] = "/tmp/gms_digest_1_XXXXXX", f2[] = "/tmp/gms_digest_2_XXXXXX";
    int fd1 = mkstemp(f1), fd2 = mkstemp(f2);
    REQUIRE(fd1 >= 0 && fd2 >= 0);
    close(fd1);
    close(fd2);
    /* the same three options in another order, a bool as 1 and as true, a number in hex */
    write_file(f1, "-gpgpu_n_mem 16\n-gpgpu_flush_l1_cache 1\n-gms_seed 7\n");
    write_file(f2, "# reordered\n-gms_seed 0x7\n-gpgpu_flush_l1_cache true\n-gpgpu_n_mem 16\n");
    int ra = digest_of(f1, NULL, NULL, a), rb = digest_of(f2, NULL, NULL, b);
    unlink(f1);
    unlink(f2);
    REQUIRE(ra == 0 && rb == 0);
    CHECK_EQ(strlen(a), 16);
    CHECK_STR(a, b);
    /* a default given explicitly is the same configuration */
    REQUIRE(digest_of(NULL, NULL, NULL, c) == 0);
    REQUIRE(digest_of(NULL, "gms_skip_idle", "1", d) == 0);
    CHECK_STR(c, d);
    CHECK(strcmp(a, c) != 0);
}

/* every option of the registry, changed alone, changes the digest (set on the field, not
 * finalized: the test covers options whose every other value a finalize would refuse) */
TEST(config_digest_changes_with_every_option)
{
    gms_params *p = gms_params_new();
    uint64_t base = gms_config_digest_u64(p);
    size_t n = 0, changed = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++, n++) {
            const gms_option *o = &mod->options[i];
            gms_params *q = gms_params_new();
            char *f = (char *)q + o->offset;
            switch (o->type) {
            case GMS_OPT_BOOL: *(int *)f = !*(int *)f; break;
            case GMS_OPT_INT: *(int *)f += 1; break;
            case GMS_OPT_U32: *(uint32_t *)f += 1; break;
            case GMS_OPT_U64: *(uint64_t *)f += 1; break;
            case GMS_OPT_DOUBLE: *(double *)f = *(double *)f * 2 + 1; break;
            case GMS_OPT_STRING: if (strlen(f) + 1 < GMS_OPT_STRLEN) strcat(f, "x"); break;
            }
            uint64_t d = gms_config_digest_u64(q);
            if (d != base) changed++;
            else printf("    -%s: changed, same digest\n", o->name);
            gms_params_free(q);
        }
    }
    CHECK(n > 100);
    CHECK_EQ(changed, n);
    gms_params_free(p);
}

/* the stats of a run carry the digest of its configuration */
TEST(config_digest_in_run_stats)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, "configs/qv100.config", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    static const char *const kv[] = { "n=4096", NULL };
    gms_workload_spec w = { "stream", NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    REQUIRE(s != NULL);
    char want[32];
    gms_config_digest(p, want, sizeof want);
    CHECK_STR(gms_sim_stats(s)->config_digest, want);
    gms_sim_free(s);
    gms_params_free(p);
}

/* the CLI: -x 1 and --set x=1 and a config file with the option are the same configuration;
 * another value is not (the digest as the stats JSON gives it) */
static int cli_digest(const char *args, char out[32])
{
    char cmd[1024], json[64];
    snprintf(json, sizeof json, "/tmp/gms_digest_%d.json", (int)getpid());
    snprintf(cmd, sizeof cmd, "%s run --config configs/qv100.config --workload stream --set n=4096 --quiet %s "
             "--stats-json %s > /dev/null 2>&1", gms_test_bin(), args, json);
    int rc = system(cmd);
    FILE *f = fopen(json, "r");
    out[0] = 0;
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, " \"config_digest\": \"%31[0-9a-f]\"", out) == 1) break;
    if (f) fclose(f);
    unlink(json);
    return rc == 0 && out[0] ? 0 : -1;
}

TEST(config_digest_cli_forms)
{
    char a[32], b[32], c[32], d[32], f[] = "/tmp/gms_digest_c_XXXXXX";
    int fd = mkstemp(f);
    REQUIRE(fd >= 0);
    close(fd);
    write_file(f, "-gpgpu_l2_rop_latency 90\n");
    char withfile[128];
    snprintf(withfile, sizeof withfile, "--config %s", f);
    int r = cli_digest("-gpgpu_l2_rop_latency 90", a) || cli_digest("--set gpgpu_l2_rop_latency=90", b) ||
            cli_digest(withfile, c) || cli_digest("-gpgpu_l2_rop_latency 91", d);
    unlink(f);
    REQUIRE(r == 0);
    CHECK_STR(a, b);
    CHECK_STR(a, c);
    CHECK(strcmp(a, d) != 0);
}
