/* Sound-baseline audit (spec 001 1.1, 3.2): the preset's core values, the fork's set-index
 * letters, BXOR's t shift, A-prime's prime. Line 128 B (b = 7), 32 sets (k = 5) unless said. */
#include "test.h"
#include "config/params.h"
#include "mem/cache.h"
#include "mem/index.h"
#include "cache_test_util.h"
#include <stdio.h>
#include <stdlib.h>

extern const gms_config_module gms_config_module_l1d;

/* the L1D options finalized on a cache string with -gms_l1d_pmod_prime / -gms_l1d_bxor_t_shift */
static gms_params *l1d(const char *dl1, uint32_t prime, uint32_t shift, gms_error *e, int *rc)
{
    gms_params *p = gms_params_new();
    snprintf(p->l1d.dl1_str, sizeof p->l1d.dl1_str, "%s", dl1);
    p->l1d.pmod_prime = prime;
    p->l1d.bxor_t_shift = shift;
    *rc = gms_config_module_l1d.finalize(p, e);
    return p;
}

/* spec 001 1.1: "[repo] ... 16 register banks, 1 instruction issued per warp per cycle" */
TEST(baseline_preset_issue_and_banks_are_the_authors)
{
    gms_params *p = gms_params_new();
    gms_error e = { 0 };
    int rc = gms_params_load_file(p, "configs/maxwell-sound-baseline.config", &e) || gms_params_finalize(p, &e);
    if (rc) printf("    %s\n", e.msg);
    CHECK_EQ(rc, 0);
    CHECK_EQ(p->core.max_insn_issue_per_warp, 1);
    CHECK_EQ(p->core.num_reg_banks, 16);
    gms_params_free(p);
}

/* The fork's BXOR t = ((addr >> b) >> b) & (nset-1) = addr[18:14]; with the shift 14 */
TEST(baseline_bxor_t_shift_authors_variant)
{
    gms_cache_config c = tu_index_cfg(32, 'X');
    /* textbook: 0x13080: x = addr[11:7] = 1, t = addr[16:12] = 0x13 = 19 -> 18 */
    CHECK_EQ(gms_cache_set_index(&c, 0x13080), 18);
    c.bxor_t_shift = 14;
    /* author: t = addr[18:14] = 0x13080 >> 14 = 4 -> 1 ^ 4 = 5 */
    CHECK_EQ(gms_cache_set_index(&c, 0x13080), 5);
    /* 0x1000 (bit 12): textbook t = 1 -> 1; author t = 0 -> 0 */
    CHECK_EQ(gms_cache_set_index(&c, 0x1000), 0);
    /* 0x4000 (bit 14): x = 0, t = 1 -> 1 (textbook: t = addr[16:12] = 4) */
    CHECK_EQ(gms_cache_set_index(&c, 0x4000), 1);
    /* 0x7C080: t = addr[18:14] = 31, x = 1 -> 30; bit 19 is outside t: 0xFC080 -> 30 too */
    CHECK_EQ(gms_cache_set_index(&c, 0x7C080), 30);
    CHECK_EQ(gms_cache_set_index(&c, 0xFC080), 30);
    /* the L2's 64 sets: 0x4080: x = addr[12:7] = 1, t = addr[19:14] = 1 -> 0 (textbook
     * t = addr[18:13] = 2 -> 3) */
    c = tu_index_cfg(64, 'X');
    CHECK_EQ(gms_cache_set_index(&c, 0x4080), 3);
    c.bxor_t_shift = 14;
    CHECK_EQ(gms_cache_set_index(&c, 0x4080), 0);
    /* the fork's expression on a spread of addresses */
    c = tu_index_cfg(32, 'X');
    c.bxor_t_shift = 14;
    uint64_t a = 12345;
    for (int i = 0; i < 1000; i++) {
        a = a * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t addr = a >> 24;
        uint32_t fork = (uint32_t)(((addr >> 7) & 31) ^ (((addr >> 7) >> 7) & 31));
        CHECK_EQ(gms_cache_set_index(&c, addr), fork);
    }
}

TEST(baseline_bxor_t_shift_option)
{
    gms_error e = { 0 };
    int rc;
    gms_params *p = l1d("N:32:128:4,L:L:f:N:X,A:128:8,128:0,64", 0, 14, &e, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(gms_cache_set_index(&p->l1d.dl1, 0x13080), 5);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    gms_config_module_l1d.dump(p, f);
    fclose(f);
    CHECK_CONTAINS(buf, "BXOR (t = addr[18:14]) indexing");
    free(buf);
    gms_params_free(p);

    static const struct { const char *cache; uint32_t shift; const char *msg; } bad[] = {
        /* t would overlap x = addr[11:7] */
        { "N:32:128:4,L:L:f:N:X,A:128:8,128:0,64", 10,
          "-gms_l1d_bxor_t_shift 10: t = addr[14:10] must lie above the set bits x = addr[11:7] and within 64 bits: use 12 to 59" },
        { "N:32:128:4,L:L:f:N:X,A:128:8,128:0,64", 60, "-gms_l1d_bxor_t_shift 60: t = addr[64:60]" },
        { "N:32:128:4,L:L:f:N:X,A:128:8,128:0,64", 4000000000u, "-gms_l1d_bxor_t_shift 4000000000" },
        { "N:32:128:4,L:L:f:N:L,A:128:8,128:0,64", 14, "-gms_l1d_bxor_t_shift 14: the L1D set index 'L' is not BXOR" },
        { "none", 14, "-gms_l1d_bxor_t_shift 14: the L1D is disabled" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = l1d(bad[i].cache, 0, bad[i].shift, &e, &rc);
        CHECK(rc != 0);
        CHECK_CONTAINS(e.msg, bad[i].msg);
        gms_params_free(p);
    }
    /* the edges are accepted: 12 = textbook, 59 = the top */
    p = l1d("N:32:128:4,L:L:f:N:X,A:128:8,128:0,64", 0, 12, &e, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(gms_cache_set_index(&p->l1d.dl1, 0x13080), 18);
    gms_params_free(p);
    p = l1d("N:32:128:4,L:L:f:N:X,A:128:8,128:0,64", 0, 59, &e, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(gms_cache_set_index(&p->l1d.dl1, 0xF800000000000080ull), 30);   /* x 1, t 31 */
    gms_params_free(p);
}

/* The fork's strings have no type letter; its 'P' is PMOD (PRIME_INDEX) and 'I' I-Poly.
 * Address 4096 = A 32: PMOD (p 31) -> 1, I-Poly (x^5 mod x^5+x^2+1 = x^2+1) -> 5, linear -> 0 */
TEST(baseline_fork_set_index_letters)
{
    gms_cache_config c;
    gms_error e = { 0 };
    REQUIRE(!gms_cache_config_parse("32:128:4,L:L:f:N:P,A:128:8,128:0,64", "-gpgpu_cache:dl1", &c, &e));
    CHECK_EQ(c.set_index, 'M');
    CHECK_EQ(c.index_kind, GMS_IDX_PMOD);
    CHECK_EQ(gms_cache_set_index(&c, 4096), 1);
    char d[512];
    gms_cache_config_describe(&c, d, sizeof d);
    CHECK_CONTAINS(d, "PMOD (p=31) indexing");
    REQUIRE(!gms_cache_config_parse("32:128:4,L:L:f:N:I,A:128:8,128:0,64", "-gpgpu_cache:dl1", &c, &e));
    CHECK_EQ(c.set_index, 'P');
    CHECK_EQ(gms_cache_set_index(&c, 4096), 5);
    /* GPGPU-Sim 4.x form (type letter): 'P' is I-Poly; 'I' is read as I-Poly too */
    REQUIRE(!gms_cache_config_parse("N:32:128:4,L:L:f:N:P,A:128:8,128:0,64", "-gpgpu_cache:dl1", &c, &e));
    CHECK_EQ(c.set_index, 'P');
    CHECK_EQ(gms_cache_set_index(&c, 4096), 5);
    REQUIRE(!gms_cache_config_parse("N:32:128:4,L:L:f:N:I,A:128:8,128:0,64", "-gpgpu_cache:dl1", &c, &e));
    CHECK_EQ(c.set_index, 'P');
    /* the fork's 64-set L2: 'P' = A mod 61; A 100 -> 39 */
    REQUIRE(!gms_cache_config_parse("64:128:16,L:B:m:W:P,A:128:8,128:0,32", "-gpgpu_cache:dl2", &c, &e));
    CHECK_EQ(gms_cache_set_index(&c, 100 * 128), 39);
    /* the fork's 'P' takes -gms_l1d_pmod_prime as 'M' does: A 100 mod 29 = 13 */
    int rc;
    gms_params *p = l1d("32:128:4,L:L:f:N:P,A:128:8,128:0,64", 29, 0, &e, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(gms_cache_set_index(&p->l1d.dl1, 100 * 128), 13);
    gms_params_free(p);
}

/* A-prime = (A mod p) mod sets needs p > sets: p <= sets would be PMOD */
TEST(baseline_aprime_prime_above_sets)
{
    gms_error e = { 0 };
    int rc;
    static const uint32_t bad[] = { 31, 29, 2 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gms_params *p = l1d("N:32:128:4,L:T:m:N:A,A:32:8,8", bad[i], 0, &e, &rc);
        CHECK(rc != 0);
        char want[160];
        snprintf(want, sizeof want, "-gms_l1d_pmod_prime %u must be larger than the number of sets (32) for A-prime ('A')", bad[i]);
        CHECK_CONTAINS(e.msg, want);
        gms_params_free(p);
    }
    /* 37 (the default) and 41 are accepted: A 70 -> 70 mod 37 = 33 -> 1; 70 mod 41 = 29 -> 29 */
    gms_params *p = l1d("N:32:128:4,L:T:m:N:A,A:32:8,8", 37, 0, &e, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(gms_cache_set_index(&p->l1d.dl1, 70 * 128), 1);
    gms_params_free(p);
    p = l1d("N:32:128:4,L:T:m:N:A,A:32:8,8", 41, 0, &e, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(gms_cache_set_index(&p->l1d.dl1, 70 * 128), 29);
    gms_params_free(p);
    /* the direct check too (a config built in code) */
    gms_cache_config c = tu_index_cfg(32, 'A');
    c.pmod_prime = 31;
    CHECK(gms_cache_config_validate(&c, "-gpgpu_cache:dl1", &e) != 0);
    CHECK_CONTAINS(e.msg, "must be larger than the number of sets (32)");
}
