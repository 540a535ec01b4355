/* The policy registries' contract (DESIGN.md section 4, util/registry.h): every member of every
 * family is named, documented, found again by its name, listed in the family's error message,
 * is the one the config dump names when selected through its option (gms_registry.chosen),
 * and runs a small simulation to completion when selected. A member added
 * with one file plus one registry line is checked here without touching this file. */
#include "test.h"
#include "config/params.h"
#include "util/registry.h"
#include "uvm/uvm_internal.h"
#include <stdlib.h>

extern const gms_registry gms_index_reg, gms_repl_reg;

/* how a family's member is selected: the option and value; families chosen by one letter of
 * the L1D cache string put the letter in a template; UVM families run with managed memory */
typedef struct how {
    const gms_registry *reg;
    const char *tmpl;            /* letter families: the -gpgpu_cache:dl1 string, ? = letter */
    int uvm;                     /* 1: managed memory; 2: and half the footprint fits (evictions) */
} how;

static how how_of(const gms_registry *r)
{
    how h = { r, NULL, 0 };
    if (r == &gms_index_reg) h.tmpl = "N:32:128:4,L:L:m:N:?,A:32:8,8";
    if (r == &gms_repl_reg) h.tmpl = "N:32:128:4,?:L:m:N:L,A:32:8,8";
    if (r == &gms_uvm_prefetch_reg || r == &gms_uvm_runtime_reg) h.uvm = 1;
    if (r == &gms_uvm_evict_reg) h.uvm = 2;
    return h;
}

/* stream on gtx1080ti with member i of h.reg selected; 0 and the run's totals, or -1 */
static int run_member(how h, size_t i, double *thread_insts, double *verified, double *evictions)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    char value[128];
    const char *opt = h.reg->option;
    if (h.tmpl) {
        opt = "gpgpu_cache:dl1";
        snprintf(value, sizeof value, "%s", h.tmpl);
        *strchr(value, '?') = gms_reg_letter(h.reg, i);
    } else {
        snprintf(value, sizeof value, "%s", gms_reg_name(h.reg, i));
    }
    int rc = gms_params_load_file(p, "configs/gtx1080ti.config", &err) || gms_params_set(p, opt, value, &err);
    if (!rc && h.uvm == 2)
        rc = gms_params_set(p, "uvm_oversub_ratio", "2", &err) || gms_params_set(p, "hardware_prefetch", "0", &err) ||
             gms_params_set(p, "hwprefetch_oversub", "0", &err);
    rc = rc || gms_params_finalize(p, &err);
    /* the config dump names the member the configuration selects */
    if (!rc) {
        CHECK(h.reg->chosen != NULL);
        if (h.reg->chosen) CHECK_EQ(h.reg->chosen(p), (long)i);
    }
    const char *kv_plain[] = { "n=8192", NULL }, *kv_uvm[] = { "n=8192", "uvm=1", NULL };
    gms_workload_spec w = { "stream", NULL, h.uvm ? kv_uvm : kv_plain, 1, NULL };
    gms_sim *s = rc ? NULL : gms_sim_new(p, &w, &err);
    rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s '%s' (-%s %s): %s\n", h.reg->family, gms_reg_name(h.reg, i), opt, value, err.msg);
    if (!rc) {
        const gms_run_stats *r = gms_sim_stats(s);
        *thread_insts = *verified = *evictions = -1;
        gms_stats_total(r, "gpgpu_n_tot_thrd_icount", thread_insts);
        gms_stats_total(r, "gms_workload_verified", verified);
        gms_stats_total(r, "Uvm_evictions", evictions);
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

TEST(registry_contract_names_help_lookup_errors)
{
    CHECK(gms_nregistries >= 10);
    for (size_t f = 0; f < gms_nregistries; f++) {
        const gms_registry *r = gms_registries[f];
        REQUIRE(r->family && r->family[0] && r->option && r->option[0]);
        CHECK(r->n >= 1);
        char known[512];
        gms_reg_known(r, known, sizeof known);
        gms_error err = {0};
        CHECK(gms_reg_unknown(r, "no-such-member", &err) != 0);
        CHECK_CONTAINS(err.msg, r->family);
        CHECK_CONTAINS(err.msg, "'no-such-member'; known: ");
        CHECK(gms_reg_find(r, "no-such-member") == NULL);
        for (size_t i = 0; i < r->n; i++) {
            const char *name = gms_reg_name(r, i), *help = gms_reg_help(r, i);
            REQUIRE(name != NULL);
            CHECK(name[0] != 0);
            CHECK(help != NULL && help[0] != 0);
            if (!help || !help[0]) printf("    %s '%s' has no help\n", r->family, name);
            CHECK_CONTAINS(err.msg, name);   /* the error lists every member */
            /* found again by its key: the name, or the letter for letter families */
            char key[2] = { gms_reg_letter(r, i), 0 };
            const char *k = r->letter_off != GMS_REG_NO_LETTER ? key : name;
            CHECK(k[0] != 0);
            CHECK(gms_reg_find(r, k) == gms_reg_at(r, i));
            CHECK_EQ(gms_reg_index(r, k), (long)i);
            for (size_t j = 0; j < i; j++) {   /* keys are unique */
                CHECK(strcmp(gms_reg_name(r, j), name) != 0);
                if (r->letter_off != GMS_REG_NO_LETTER) CHECK(gms_reg_letter(r, j) != key[0]);
            }
        }
    }
}

TEST(registry_contract_aliases_name_members)
{
    for (size_t f = 0; f < gms_nregistries; f++) {
        const gms_registry *r = gms_registries[f];
        for (const gms_reg_alias *a = r->aliases; a && a->alias; a++) {
            long i = gms_reg_index(r, a->alias);
            CHECK(i >= 0);
            if (i >= 0) CHECK_STR(gms_reg_name(r, (size_t)i), a->name);
        }
    }
    /* UVMSmart's short names */
    CHECK_STR(gms_reg_name(&gms_uvm_evict_reg, (size_t)gms_reg_index(&gms_uvm_evict_reg, "ne")), "lru2m");
    CHECK_STR(gms_reg_name(&gms_uvm_prefetch_reg, (size_t)gms_reg_index(&gms_uvm_prefetch_reg, "tbnp")), "tree");
}

/* Every member, selected through its option, runs stream to completion; the program is the
 * same whatever the policy, so every run executes the same thread instructions (8192 threads,
 * counted once from the first member) and verifies its results. */
TEST(registry_contract_every_member_runs)
{
    double plain = -1, managed = -1;
    for (size_t f = 0; f < gms_nregistries; f++) {
        how h = how_of(gms_registries[f]);
        if (h.reg->letter_off != GMS_REG_NO_LETTER && !h.tmpl) {
            printf("    %s: a letter family with no cache-string template in this test\n", h.reg->family);
            CHECK(0);
            continue;
        }
        for (size_t i = 0; i < h.reg->n; i++) {
            double insts = 0, verified = 0, evictions = 0;
            if (run_member(h, i, &insts, &verified, &evictions)) { CHECK(0); continue; }
            double *ref = h.uvm ? &managed : &plain;
            if (*ref < 0) *ref = insts;
            CHECK(insts > 0);
            CHECK_EQ(insts, *ref);
            CHECK_EQ(verified, 1);
            if (h.uvm == 2) {   /* half the footprint fits: every eviction policy must evict */
                CHECK(evictions > 0);
                if (!(evictions > 0)) printf("    eviction '%s' evicted nothing\n", gms_reg_name(h.reg, i));
            }
        }
    }
    CHECK(plain > 0 && managed > 0);
}

/* UVMSmart's numbers (-hardware_prefetch, -eviction_policy): the error lists each member that
 * has one as "<number> <name>", from the same registries */
TEST(registry_contract_uvmsmart_numbers_listed)
{
    char ids[256], want[64];
    gms_uvm_prefetch_ids(ids, sizeof ids);
    for (size_t i = 0; i < gms_uvm_nprefetchers; i++) {
        if (gms_uvm_prefetchers[i]->uvmsmart_id < 0) continue;
        snprintf(want, sizeof want, "%d %s", gms_uvm_prefetchers[i]->uvmsmart_id, gms_uvm_prefetchers[i]->name);
        CHECK_CONTAINS(ids, want);
        CHECK_EQ(gms_uvm_prefetch_find_id(gms_uvm_prefetchers[i]->uvmsmart_id), (int)i);
    }
    gms_uvm_evict_ids(ids, sizeof ids);
    CHECK_CONTAINS(ids, "0 lru2m, 1 tree, 2 lru64k, 3 random, 5 lru4k");   /* UVMSmart's -eviction_policy */
    CHECK(strstr(ids, "belady") == NULL);                                   /* no UVMSmart number */
}
