/* The local sweep runner tells each child its share of the host's CPUs (GMS_HOST_CPUS =
 * CPUs / jobs, at least 1; runner_local.c), keeps a value the user set, sets nothing for
 * one job at a time, and leaves its own environment as it found it. The children here are a
 * script that records the variable and fails (the runner records the failures). */
#include "test.h"
#include "harness/runner.h"
#include "harness/spec.h"
#include "harness/util.h"
#include <sched.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* runs the 4-point sweep in dir with `jobs`; returns the first value the children saw */
static int run_sweep(const char *dir, int jobs, char *seen, size_t n)
{
    char path[512], rec[512], cmd[1100];
    snprintf(rec, sizeof rec, "%s/env.txt", dir);
    unlink(rec);
    snprintf(cmd, sizeof cmd, "rm -rf '%s/t.db' '%s/t.results'", dir, dir);
    if (system(cmd)) return -1;
    snprintf(path, sizeof path, "%s/t.sweep", dir);
    gms_sweep_spec *s = NULL;
    gms_sweep_plan plan;
    gms_error err = {0};
    if (gms_sweep_spec_parse_text(path, "config base.config\nvariant base\nseeds 1..2\nworkload stream\nworkload gather\n",
                                  &s, &err) ||
        gms_sweep_spec_check(s, 0, &err) || gms_sweep_plan_build(s, &plan, &err)) {
        printf("    %s\n", err.msg);
        gms_sweep_spec_free(s);
        return -1;
    }
    snprintf(path, sizeof path, "%s/fake.sh", dir);
    gms_run_opts o = { .bin = path, .jobs = jobs };
    int rc = gms_sweep_run_local(s, &plan, &o, &err);
    gms_sweep_plan_free(&plan);
    gms_sweep_spec_free(s);
    if (rc != 1) { printf("    runner: %d %s\n", rc, err.msg); return -1; }   /* every point failed */
    FILE *f = fopen(rec, "r");
    if (!f) return -1;
    int lines = 0;
    char line[64], first[64] = "";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!lines++) snprintf(first, sizeof first, "%s", line);
        else if (strcmp(line, first)) { fclose(f); return -1; }   /* all children alike */
    }
    fclose(f);
    snprintf(seen, n, "%s", first);
    return lines == 4 ? 0 : -1;
}

TEST(runner_local_shares_host_cpus)
{
    char tmpl[] = "/tmp/gms-test-cpus-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    char p[600];
    snprintf(p, sizeof p, "%s/base.config", tmpl);
    FILE *f = fopen(p, "w");
    REQUIRE(f);
    fputs("-gpgpu_l1_latency 20\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/fake.sh", tmpl);
    f = fopen(p, "w");
    REQUIRE(f);
    fprintf(f, "#!/bin/sh\necho \"${GMS_HOST_CPUS:-unset}\" >> '%s/env.txt'\nexit 3\n", tmpl);
    fclose(f);
    REQUIRE(chmod(p, 0755) == 0);

    cpu_set_t cs;
    long ncpu = sched_getaffinity(0, sizeof cs, &cs) == 0 ? CPU_COUNT(&cs) : sysconf(_SC_NPROCESSORS_ONLN);
    char want[32], seen[64];
    snprintf(want, sizeof want, "%ld", ncpu / 2 > 1 ? ncpu / 2 : 1);
    unsetenv("GMS_HOST_CPUS");
    CHECK_EQ(run_sweep(tmpl, 2, seen, sizeof seen), 0);
    CHECK_STR(seen, want);
    CHECK(getenv("GMS_HOST_CPUS") == NULL);   /* the runner's own environment is restored */
    CHECK_EQ(run_sweep(tmpl, 1, seen, sizeof seen), 0);
    CHECK_STR(seen, "unset");
    setenv("GMS_HOST_CPUS", "7", 1);
    CHECK_EQ(run_sweep(tmpl, 2, seen, sizeof seen), 0);
    CHECK_STR(seen, "7");
    CHECK_STR(getenv("GMS_HOST_CPUS"), "7");
    unsetenv("GMS_HOST_CPUS");
    snprintf(p, sizeof p, "rm -rf '%s'", tmpl);
    CHECK_EQ(system(p), 0);
}
