/* Cache-string parsing (interop.md 1.2 examples), validation errors, L1D options. */
#include "test.h"
#include "mem/cache.h"
#include "config/params.h"
#include <stdlib.h>

/* exact string compare for long texts (CHECK_STR's buffer is sized for short ones) */
#define CHECK_TEXT(got, want) do { CHECK_CONTAINS(got, want); CHECK_EQ(strlen(got), strlen(want)); } while (0)

static int parse(const char *s, gms_cache_config *c, gms_error *e)
{
    memset(e, 0, sizeof *e);
    return gms_cache_config_parse(s, "-gpgpu_cache:dl1", c, e);
}

TEST(cache_config_qv100_l1d)
{
    gms_cache_config c;
    gms_error e;
    REQUIRE(!parse("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", &c, &e));
    CHECK_EQ(c.enabled, 1);
    CHECK_EQ(c.type, 'S');
    CHECK_EQ(c.nsets, 4); CHECK_EQ(c.line, 128); CHECK_EQ(c.assoc, 64);
    CHECK_EQ(c.repl, 'L'); CHECK_EQ(c.write_policy, 'T'); CHECK_EQ(c.alloc_policy, 'm');
    CHECK_EQ(c.write_alloc, 'L'); CHECK_EQ(c.set_index, 'L'); CHECK_EQ(c.index_kind, GMS_IDX_LINEAR);
    CHECK_EQ(c.mshr_type, 'A'); CHECK_EQ(c.mshr_entries, 512); CHECK_EQ(c.mshr_max_merge, 8);
    CHECK_EQ(c.miss_queue, 16); CHECK_EQ(c.result_fifo, 0); CHECK_EQ(c.data_port_width, 32);
    CHECK_EQ(gms_cache_config_bytes(&c), 32768);
    CHECK_STR(c.mshr_design, "conventional");
    char buf[512];
    gms_cache_config_describe(&c, buf, sizeof buf);
    CHECK_TEXT(buf, "32 KiB, sector (4 x 32 B), 4 sets x 64 ways x 128 B, linear (BMOD) indexing, LRU, "
                   "write-through, allocate-on-miss, lazy fetch-on-read write-allocate, "
                   "512 MSHRs x 8 merges, miss queue 16, 32 B data port");
}

TEST(cache_config_qv100_l2)
{
    gms_cache_config c;
    gms_error e;
    REQUIRE(!parse("S:32:128:24,L:B:m:L:P,A:192:4,32:0,32", &c, &e));
    CHECK_EQ(gms_cache_config_bytes(&c), 96 * 1024);
    CHECK_EQ(c.write_policy, 'B'); CHECK_EQ(c.index_kind, GMS_IDX_IPOLY);
    CHECK_EQ(c.mshr_entries, 192); CHECK_EQ(c.mshr_max_merge, 4); CHECK_EQ(c.miss_queue, 32);
}

TEST(cache_config_gtx480_and_describe)
{
    gms_cache_config c;
    gms_error e;
    REQUIRE(!parse("N:32:128:4,L:L:m:N:H,S:64:8,8", &c, &e));
    CHECK_EQ(c.type, 'N'); CHECK_EQ(c.mshr_type, 'S'); CHECK_EQ(c.index_kind, GMS_IDX_FERMI_HASH);
    CHECK_EQ(c.data_port_width, 128);   /* default = line */
    char buf[512];
    gms_cache_config_describe(&c, buf, sizeof buf);
    CHECK_TEXT(buf, "16 KiB, 32 sets x 4 ways x 128 B, Fermi hash indexing, LRU, local write-back, "
                   "global write-evict, allocate-on-miss, no write-allocate, 64 sector MSHRs x 8 merges, "
                   "miss queue 8");
    REQUIRE(!parse("N:32:128:4,L:T:m:N:X,A:32:8,8", &c, &e));
    gms_cache_config_describe(&c, buf, sizeof buf);
    CHECK_TEXT(buf, "16 KiB, 32 sets x 4 ways x 128 B, BXOR indexing, LRU, write-through, "
                   "allocate-on-miss, no write-allocate, 32 MSHRs x 8 merges, miss queue 8");
}

TEST(cache_config_sound_baseline_3x_form)
{
    gms_cache_config c;
    gms_error e;
    /* [repo] sound-baseline L1D and L2 (GPGPU-Sim 3.x strings: no type letter) */
    REQUIRE(!parse("32:128:4,L:L:f:N:X,A:128:8,128:0,64", &c, &e));
    CHECK_EQ(c.type, 'N'); CHECK_EQ(c.nsets, 32); CHECK_EQ(c.alloc_policy, 'f');
    CHECK_EQ(c.index_kind, GMS_IDX_BXOR); CHECK_EQ(c.mshr_entries, 128); CHECK_EQ(c.miss_queue, 128);
    CHECK_EQ(c.data_port_width, 64);
    REQUIRE(!parse("64:128:16,L:B:m:W:X,A:128:8,128:0,32", &c, &e));
    CHECK_EQ(gms_cache_config_bytes(&c), 128 * 1024);
    CHECK_EQ(c.write_alloc, 'W');
    /* UVMSmart GTX1080Ti */
    REQUIRE(!parse("64:128:6,L:L:m:N:H,A:128:8,8", &c, &e));
    CHECK_EQ(gms_cache_config_bytes(&c), 48 * 1024);
    /* none */
    REQUIRE(!parse("none", &c, &e));
    CHECK_EQ(c.enabled, 0);
    CHECK_EQ(gms_cache_config_bytes(&c), 0);
    /* our index letters */
    REQUIRE(!parse("N:24:128:4,L:T:m:N:M,A:32:8,8", &c, &e));
    CHECK_EQ(c.index_kind, GMS_IDX_PMOD);
    REQUIRE(!parse("N:32:128:4,L:T:m:N:A,A:32:8,8", &c, &e));
    CHECK_EQ(c.index_kind, GMS_IDX_APRIME);
    REQUIRE(!parse("N:32:128:4,L:T:m:N:D,A:32:8,8", &c, &e));
    CHECK_EQ(c.index_kind, GMS_IDX_DPRIME);
}

static void bad(const char *s, const char *needle)
{
    gms_cache_config c;
    gms_error e;
    int r = parse(s, &c, &e);
    CHECK(r != 0);
    CHECK_CONTAINS(e.msg, "-gpgpu_cache:dl1");
    CHECK_CONTAINS(e.msg, needle);
}

TEST(cache_config_errors)
{
    bad("", "empty cache string");
    bad("N:0:128:4,L:T:m:N:L,A:32:8,8", "sets must be at least 1");
    bad("N:24:128:4,L:T:m:N:X,A:32:8,8", "power-of-two number of sets");
    bad("N:32:100:4,L:T:m:N:L,A:32:8,8", "line size 100 is not a power of two");
    bad("N:32:128:0,L:T:m:N:L,A:32:8,8", "associativity");
    bad("N:32:128:4,L:T:m:N:L,A:0:8,8", "MSHR entries must be at least 1");
    bad("N:32:128:4,L:T:m:N:L,A:32:0,8", "MSHR max merge");
    bad("S:32:64:4,L:T:m:N:L,A:32:8,8", "line must be 128 B");
    bad("N:32:128:4,L:B:f:N:L,A:32:8,8", "write-back cache (B) cannot allocate on fill");
    bad("N:32:128:4,L:B:s:N:L,A:32:8,8", "write-back cache (B) cannot allocate on fill");
    bad("N:32:128:4,L:T:f:L:L,A:32:8,8", "needs allocate-on-miss");
    bad("Q:32:128:4,L:T:m:N:L,A:32:8,8", "field 1 (type)");
    bad("N:32:128:4,X:T:m:N:L,A:32:8,8", "field 5 (replacement policy)");
    bad("N:32:128:4,L:Z:m:N:L,A:32:8,8", "field 6 (write policy)");
    bad("N:32:128:4,L:T:q:N:L,A:32:8,8", "field 7 (allocation policy)");
    bad("N:32:128:4,L:T:m:Y:L,A:32:8,8", "field 8 (write-allocate policy)");
    bad("N:32:128:4,L:T:m:N:Z,A:32:8,8", "field 9 (set index function)");
    bad("N:32:128:4,L:T:m:N:C,A:32:8,8", "not implemented");
    bad("N:32:128:4,L:T:m:N:L,F:32:8,8:4", "texture");
    bad("N:32:128:4,L:T:m:N:L,A:32:8", "field 12 (MSHR max merge)");
    bad("N:32:128:4,L:T:m:N:L,A:32:8,", "field 13 (miss queue size): missing");
    bad("N:16:128:4,L:T:m:N:H,A:32:8,8", "needs 32 or 64 sets");
    bad("N:32:128:4,L:T:m:N:L,A:32:8,1", "miss queue size 1 is too small");
    bad("N:32:128:4,L:B:m:W:L,A:32:8,2", "miss queue size 2 is too small");
    bad("N:32:128:4,L:T:m:N:L,A:32:8,8:0,48", "data port width 48");
    bad("N:32:128:4,L:T:m:N:L,A:32:8,8 junk", "unexpected text");
    bad("N:32:128:4;L:T:m:N:L,A:32:8,8", "expected ','");
    bad("N:32:128:-4,L:T:m:N:L,A:32:8,8", "expected a number");
    bad("N:99999999999:128:4,L:T:m:N:L,A:32:8,8", "too large");
}

static gms_params *params_with(const char *dl1, const char *prime, const char *mshr)
{
    gms_params *p = gms_params_new();
    snprintf(p->l1d.dl1_str, sizeof p->l1d.dl1_str, "%s", dl1);
    p->l1d.pmod_prime = (uint32_t)atoi(prime);
    snprintf(p->l1d.mshr_design, sizeof p->l1d.mshr_design, "%s", mshr);
    return p;
}

extern const gms_config_module gms_config_module_l1d;

TEST(cache_l1d_options)
{
    gms_error e = { 0 };
    gms_params *p = params_with("N:32:128:4,L:T:m:N:M,A:32:8,8", "29", "conventional");
    CHECK_EQ(gms_config_module_l1d.finalize(p, &e), 0);
    CHECK_EQ(p->l1d.dl1.pmod_prime, 29);
    CHECK_EQ(gms_cache_set_index(&p->l1d.dl1, 100 * 128), 13);   /* 100 mod 29 */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    gms_config_module_l1d.dump(p, f);
    fclose(f);
    CHECK_CONTAINS(buf, "L1D: 16 KiB per SM, 32 sets x 4 ways x 128 B, PMOD (p=29) indexing, LRU, write-through");
    CHECK_CONTAINS(buf, "L1D MSHR design: conventional");
    free(buf);
    gms_params_free(p);

    /* bad combinations: cache string, PMOD prime, MSHR design, and what the error says */
    static const struct { const char *cache, *prime, *mshr, *msg; } bad[] = {
        { "N:32:128:4,L:T:m:N:M,A:32:8,8", "30", "conventional", "30 is not a prime" },
        { "N:32:128:4,L:T:m:N:X,A:32:8,8", "31", "conventional", "-gms_l1d_pmod_prime" },
        { "N:32:128:4,L:T:m:N:X,A:32:8,8", "0", "dlmshr2", "unknown MSHR design 'dlmshr2'; known: conventional, dlmshr" },
        { "N:32:128:4,L:T:m:N:X,A:32:8,8", "0", "magic", "-gms_l1d_mshr: unknown MSHR design 'magic'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = params_with(bad[i].cache, bad[i].prime, bad[i].mshr);
        CHECK(gms_config_module_l1d.finalize(p, &e) != 0);
        CHECK_CONTAINS(e.msg, bad[i].msg);
        gms_params_free(p);
    }

    p = params_with("none", "0", "conventional");
    CHECK_EQ(gms_config_module_l1d.finalize(p, &e), 0);
    CHECK_EQ(p->l1d.dl1.enabled, 0);
    gms_params_free(p);

    /* the default string decodes */
    p = gms_params_new();
    CHECK_EQ(gms_config_module_l1d.finalize(p, &e), 0);
    CHECK_EQ(p->l1d.dl1.nsets, 32);
    gms_params_free(p);
}
