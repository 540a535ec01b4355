/* A policy's own options (its ops table's knobs) set while another member of its family is
 * chosen are named as unused: one warning per option, the family's option, the members that
 * would read it, and the run's choice. */
#include "test.h"
#include "config/params.h"
#include "util/registry.h"
#include <stdlib.h>
#include <string.h>

/* finalized params from name=value pairs (NULL-ended) */
static gms_params *params(const char *const *kv)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = 0;
    for (; kv && kv[0] && !rc; kv += 2) rc = gms_params_set(p, kv[0], kv[1], &err);
    rc = rc || gms_params_finalize(p, &err);
    if (rc) printf("    %s\n", err.msg);
    CHECK(rc == 0);
    return p;
}

static size_t unused(const char *const *kv, const char **first)
{
    gms_params *p = params(kv);
    gms_unused_knob u[8];
    size_t n = gms_params_unused_knobs(p, u, 8);
    if (first) *first = n ? u[0].option : NULL;
    gms_params_free(p);
    return n;
}

TEST(unused_knobs_by_family_choice)
{
    const char *opt = NULL;
    CHECK_EQ(unused(NULL, NULL), 0u);
    /* HPE's knob under LRU: unused; under HPE: used */
    CHECK_EQ(unused((const char *[]){ "uvm_hpe_interval", "7", "uvm_eviction", "lru4k", NULL }, &opt), 1u);
    CHECK_STR(opt, "uvm_hpe_interval");
    CHECK_EQ(unused((const char *[]){ "uvm_hpe_interval", "7", "uvm_eviction", "hpe", NULL }, NULL), 0u);
    /* an option three members claim is used when any one of them is chosen */
    CHECK_EQ(unused((const char *[]){ "uvm_policy_refs", "1", "uvm_eviction", "clockpro", NULL }, NULL), 0u);
    CHECK_EQ(unused((const char *[]){ "uvm_policy_refs", "1", "uvm_eviction", "tree", NULL }, NULL), 1u);
    /* set to its default it is not reported */
    CHECK_EQ(unused((const char *[]){ "uvm_policy_refs", "0", "uvm_eviction", "tree", NULL }, NULL), 0u);
    /* the prefetcher's two roles: CAP chosen only after oversubscription still reads its knobs */
    CHECK_EQ(unused((const char *[]){ "uvm_cap_min", "128KB", "uvm_prefetcher", "tree", NULL }, NULL), 1u);
    CHECK_EQ(unused((const char *[]){ "uvm_cap_min", "128KB", "uvm_prefetcher", "tree", "uvm_prefetcher_oversub",
                                      "cap", NULL }, NULL), 0u);
    /* the MSHR design's two roles: the L2's knob follows -gms_l2_mshr, the L1D's -gms_l1d_mshr */
    CHECK_EQ(unused((const char *[]){ "gms_l2_dlmshr", "2:40:1:1", "gms_l1d_mshr", "dlmshr", NULL }, &opt), 1u);
    CHECK_STR(opt, "gms_l2_dlmshr");
    CHECK_EQ(unused((const char *[]){ "gms_l2_dlmshr", "2:40:1:1", "gms_l2_mshr", "dlmshr", NULL }, NULL), 0u);
    CHECK_EQ(unused((const char *[]){ "gms_l1d_dlmshr", "2:40:1:1", "gms_l2_mshr", "dlmshr", NULL }, NULL), 1u);
    /* CART's and the partition mappings' */
    CHECK_EQ(unused((const char *[]){ "gms_l2q_cart_age", "5", NULL }, NULL), 1u);
    CHECK_EQ(unused((const char *[]){ "gms_l2q_cart_age", "5", "gms_l2_input_queue", "cart", NULL }, NULL), 0u);
    CHECK_EQ(unused((const char *[]){ "gms_partition_prime", "13", "gms_partition_mapping", "modulo", NULL }, NULL),
             1u);
    CHECK_EQ(unused((const char *[]){ "gms_partition_prime", "13", "gms_partition_mapping", "aprime", NULL }, NULL),
             0u);
}

TEST(unused_knobs_warning_text)
{
    gms_params *p = params((const char *[]){ "uvm_policy_refs", "1", "uvm_eviction", "lru64k", NULL });
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    gms_params_warn_unused_knobs(p, m);
    fclose(m);
    CHECK_STR(buf, "gpumemsim: warning: -uvm_policy_refs is set, but it has no effect unless -uvm_eviction is "
                      "rrip, clockpro or hpe (this run: lru64k)\n");
    free(buf);
    gms_params_free(p);
}

/* every knob prefix a member declares names at least one option: a misspelt prefix would
 * silently claim nothing */
TEST(unused_knobs_prefixes_name_options)
{
    size_t declared = 0;
    for (size_t f = 0; f < gms_nregistries; f++) {
        const gms_registry *r = gms_registries[f];
        for (size_t i = 0; i < r->n; i++)
            for (const char *const *k = gms_reg_knobs(r, i); k && *k; k++) {
                int found = 0;
                for (size_t m = 0; m < gms_config_nmodules && !found; m++)
                    for (size_t o = 0; o < gms_config_modules[m]->noptions && !found; o++)
                        found = !strncmp(gms_config_modules[m]->options[o].name, *k, strlen(*k));
                if (!found) printf("    %s '%s': knob prefix '%s' names no option\n", r->family, gms_reg_name(r, i), *k);
                CHECK(found);
                declared++;
            }
    }
    CHECK(declared >= 20);
}
