/* An Accel-Sim trace as an application of a multiprogrammed run (src/cke/cke_trace_app.c): its
 * kernels' global addresses moved by the application's offset, nothing else changed; shared and
 * local addresses kept; and a trace beside a built-in workload runs end to end. */
#include "test.h"
#include "test_trace_util.h"
#include "cke/cke_apps.h"
#include "frontend/trace.h"
#include "sim_test_util.h"
#include <stdio.h>
#include <string.h>

/* block 0 of the first kernel of app (path, offset): its instructions, copied out */
static int first_block(const char *path, const char *offset, gms_block_trace *bt, gms_error *err)
{
    char kp[600], ko[64];
    snprintf(kp, sizeof kp, "path=%s", path);
    snprintf(ko, sizeof ko, "offset=%s", offset);
    const char *kv[] = { kp, ko, NULL };
    gms_wl_args *a = NULL;
    if (gms_wl_args_parse(&gms_cke_trace_app, kv, 1, &a, err)) return -1;
    gms_program_src src;
    void *st = NULL;
    int rc = -1;
    if (gms_workload_program(&gms_cke_trace_app, a, &src, &st, err)) { gms_wl_args_free(a); return -1; }
    gms_program prog;
    gms_program_init(&prog);
    for (;;) {
        int r = src.next(src.self, &prog, err);
        if (r < 0) break;
        gms_cmd *c;
        while ((c = gms_prog_pop(&prog)) && c->kind != GMS_CMD_LAUNCH) {}
        if (c) {
            rc = c->kernel.fill_block(c->kernel.self, 0, bt, err);
            if (c->kernel.release) c->kernel.release(c->kernel.self);
            break;
        }
        if (r == 0) { snprintf(err->msg, sizeof err->msg, "no kernel"); break; }
    }
    gms_program_free(&prog);
    src.destroy(src.self);
    gms_cke_trace_app.destroy(st);   /* the program's wrapper does not own the state */
    gms_wl_args_free(a);
    return rc;
}

TEST(cke_trace_app_moves_global_addresses_only)
{
    char dir[256], kl[300];
    make_tmpdir(dir, sizeof dir);
    REQUIRE(dir[0]);
    gms_error err = {0};
    /* hotspot: global loads and stores, and shared-memory traffic */
    const char *wl[] = { "rows=64", NULL };
    REQUIRE(gms_trace_export("hotspot", wl, 1, dir, 5, &err) == 0);
    snprintf(kl, sizeof kl, "%s/kernelslist.g", dir);
    gms_block_trace a = {0}, b = {0};
    if (first_block(kl, "0", &a, &err) || first_block(kl, "0x100000000000", &b, &err)) printf("    %s\n", err.msg);
    REQUIRE(a.nwarps > 0 && a.nwarps == b.nwarps);
    int global = 0, shared = 0;
    for (uint32_t w = 0; w < a.nwarps; w++) {
        REQUIRE(a.warps[w].n == b.warps[w].n);
        for (uint32_t i = 0; i < a.warps[w].n; i++) {
            const gms_inst *x = &a.warps[w].insts[i], *y = &b.warps[w].insts[i];
            CHECK_EQ(x->mem, y->mem);
            if (x->mem == GMS_MEM_NONE) continue;
            uint64_t ax[32], ay[32];
            int n = gms_inst_lane_addrs(&a.warps[w], x, ax);
            CHECK_EQ(n, gms_inst_lane_addrs(&b.warps[w], y, ay));
            int sh = x->mem == GMS_MEM_LD_SHARED || x->mem == GMS_MEM_ST_SHARED || x->mem == GMS_MEM_ATOM_SHARED;
            for (int l = 0; l < 32; l++) {
                if (!(x->mask >> l & 1)) continue;
                CHECK_EQ(ay[l], sh ? ax[l] : ax[l] + 0x100000000000ULL);
            }
            global += !sh;
            shared += sh;
        }
    }
    CHECK(global > 0);
    CHECK(shared > 0);
    gms_block_trace_free(&a);
    gms_block_trace_free(&b);
    /* the application's checks */
    const char *bad[] = { "path=", NULL };
    gms_wl_args *w = NULL;
    void *st = NULL;
    REQUIRE(gms_wl_args_parse(&gms_cke_trace_app, bad, 1, &w, &err) == 0);
    CHECK(gms_cke_trace_app.create(w, &st, &err) != 0);
    CHECK_CONTAINS(err.msg, "needs path=");
    gms_wl_args_free(w);
}
