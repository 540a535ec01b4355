/* UVMSmart drop-in, the gtx1080ti preset: it is UVMSmart's GeForceGTX1080Ti config, whose
 * coalescing rule is GPGPU-Sim 3.x's default and only one (-gpgpu_coalesce_arch 13: a 4-byte
 * access makes one transaction per 128 B segment), so its TLB accesses are UVMSmart's. The
 * Pascal rule (61: loads that skip L1 go out as 32 B sectors) is gtx1080ti-pascal. */
#include "test.h"
#include "config/params.h"
#include <stdlib.h>
#include <string.h>

/* stream n=8192 uvm=1 on `preset`: Tlb_tot_access, or -1 */
static double stream_tlb_accesses(const char *preset)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    double v = -1;
    int rc = gms_params_load_file(p, preset, &err) || gms_params_finalize(p, &err);
    const char *kv[] = { "n=8192", "uvm=1", NULL };
    gms_workload_spec w = { "stream", NULL, kv, 1, NULL };
    gms_sim *s = rc ? NULL : gms_sim_new(p, &w, &err);
    rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s: %s\n", preset, err.msg);
    else gms_stats_total(gms_sim_stats(s), "Tlb_tot_access", &v);
    gms_sim_free(s);
    gms_params_free(p);
    return v;
}

/* the file's option lines, comments, the -gpgpu_coalesce_arch line and UVMSmart's allocation
 * rounding and device-sync write-back (artifacts of its libcuda, not the Pascal machine's) left out */
static char *options_but_coalescing(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *out = calloc(1, cap), line[1024];
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && strncmp(line, "-gpgpu_coalesce_arch", 20) != 0 && strncmp(line, "-uvm_alloc_round", 16) != 0 &&
            strncmp(line, "-uvm_sync_writeback", 19) != 0 &&
            n + strlen(line) < cap) {
            memcpy(out + n, line, strlen(line) + 1);
            n += strlen(line);
        }
    fclose(f);
    return out;
}

TEST(uvmsmart_preset_coalescing_rule)
{
    gms_params *p = gms_params_new(), *q = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, "configs/gtx1080ti.config", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    REQUIRE(gms_params_load_file(q, "configs/gtx1080ti-pascal.config", &err) == 0);
    REQUIRE(gms_params_finalize(q, &err) == 0);
    CHECK_EQ(p->core.coalesce_arch, 13);
    CHECK_EQ(q->core.coalesce_arch, 61);
    CHECK_EQ(p->uvm.alloc_round, 1);
    CHECK_EQ(q->uvm.alloc_round, 0);
    CHECK_EQ(p->uvm.sync_writeback, 1);
    CHECK_EQ(q->uvm.sync_writeback, 0);
    /* otherwise the same machine: the option lines other than the rule are identical */
    char *a = options_but_coalescing("configs/gtx1080ti.config");
    char *b = options_but_coalescing("configs/gtx1080ti-pascal.config");
    REQUIRE(a && b);
    CHECK(strlen(a) > 1000);
    CHECK(strcmp(a, b) == 0);
    free(a);
    free(b);
    gms_params_free(p);
    gms_params_free(q);
}

TEST(uvmsmart_preset_tlb_accesses)
{
    /* 3 arrays of 8192 floats, each warp reads or writes 32 consecutive floats = one 128 B
     * segment: 3 x 8192 x 4 / 128 = 768 translations under rule 13 (UVMSmart's count). The
     * Pascal rule sends the two loads and the store, which all skip the L1D
     * (-gpgpu_gmem_skip_L1D 1 takes every global access around it, as GPGPU-Sim's
     * memory_cycle does), as 4 sectors each: 256 x (4 + 4 + 4) = 3072. */
    CHECK_EQ(stream_tlb_accesses("configs/gtx1080ti.config"), 768);
    CHECK_EQ(stream_tlb_accesses("configs/gtx1080ti-pascal.config"), 3072);
}
