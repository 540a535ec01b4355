#include "sim_test_util.h"
#include "frontend/emit.h"
#include "stats/stats.h"
#include <stdio.h>
#include <string.h>

static int simt_next(void *self, gms_program *prog, gms_error *err)
{
    simt_run *r = self;
    (void)err;
    if (r->launched >= (r->launches ? r->launches : 1)) return 0;
    r->launched++;
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "%s", r->name);
    k.grid = (gms_dim3){ r->blocks ? r->blocks : 1, 1, 1 };
    k.block = (gms_dim3){ r->threads, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = r->fill;
    k.self = r;
    gms_prog_launch(prog, &k);
    return 1;
}
static void simt_destroy(void *self) { (void)self; }

int simt_run1(simt_run *r, const char *name, uint32_t threads, simt_fill_fn fill, const char *const *opts)
{
    return simt_run_grid(r, name, 1, threads, fill, opts);
}

int simt_run_grid(simt_run *r, const char *name, uint32_t blocks, uint32_t threads, simt_fill_fn fill,
                  const char *const *opts)
{
    return simt_run_kernels(r, name, 1, blocks, threads, fill, opts);
}

int simt_run_kernels(simt_run *r, const char *name, int kernels, uint32_t blocks, uint32_t threads,
                     simt_fill_fn fill, const char *const *opts)
{
    gms_error err = {0};
    memset(r, 0, sizeof *r);
    r->launches = kernels;
    r->blocks = blocks;
    r->name = name;
    r->threads = threads;
    r->fill = fill;
    r->p = gms_params_new();
    int bad = gms_params_set(r->p, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(r->p, "gpgpu_n_cores_per_cluster", "1", &err);
    for (int i = 0; !bad && opts[i]; i += 2) bad |= gms_params_set(r->p, opts[i], opts[i + 1], &err);
    if (bad || gms_params_finalize(r->p, &err)) { printf("    %s\n", err.msg); return -1; }
    gms_program_src src = { simt_next, simt_destroy, r };
    gms_workload_spec w = {0};
    w.program = &src;
    w.seed = 1;
    r->s = gms_sim_new(r->p, &w, &err);
    int rc = r->s ? gms_sim_run(r->s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    return rc ? -1 : 0;
}

double simt_stat(const simt_run *r, const char *name)
{
    const gms_stat *st = gms_stats_find(&gms_sim_stats(r->s)->total, name);
    return st ? st->value : -1;
}

void simt_free(simt_run *r)
{
    if (r->s) gms_sim_free(r->s);
    if (r->p) gms_params_free(r->p);
    memset(r, 0, sizeof *r);
}

int simt_fill_two_loads(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (int l = 0; l < 32; l++) a[l] = 0x10000 + 4u * (uint64_t)l;
    gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    for (int l = 0; l < 32; l++) a[l] = 0x20000 + 4u * (uint64_t)l;
    gms_emit_load(&e, 0x20, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    gms_emit_exit(&e, 0x30, 0xffffffffu);
    return 0;
}
