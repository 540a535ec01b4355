/* Config values are read exactly: a number followed by text is either a unit the option
 * declares (scaled into the option's unit) or an error naming file, line, option and the
 * accepted units; integers never wrap or clamp. */
#include "test.h"
#include "config/params.h"
#include <stdlib.h>
#include <unistd.h>

static int set(gms_params *p, const char *name, const char *val, gms_error *err)
{
    memset(err, 0, sizeof *err);
    return gms_params_set(p, name, val, err);
}

TEST(config_bandwidth_units_scale)
{
    gms_params *p = gms_params_new();
    gms_error err;
    CHECK_NEAR(p->uvm.pcie_bandwidth, 16.0, 1e-12);           /* default "16.0GB/s" */
    REQUIRE(set(p, "pcie_bandwidth", "16MB/s", &err) == 0);
    CHECK_NEAR(p->uvm.pcie_bandwidth, 0.016, 1e-15);          /* 16 MB/s = 0.016 GB/s, not 16 */
    REQUIRE(set(p, "pcie_bandwidth", "32GB/s", &err) == 0);
    CHECK_NEAR(p->uvm.pcie_bandwidth, 32.0, 1e-12);
    REQUIRE(set(p, "pcie_bandwidth", "64", &err) == 0);       /* bare number: the documented GB/s */
    CHECK_NEAR(p->uvm.pcie_bandwidth, 64.0, 1e-12);
    REQUIRE(set(p, "pcie_bandwidth", "500KB/s", &err) == 0);
    CHECK_NEAR(p->uvm.pcie_bandwidth, 0.0005, 1e-15);
    REQUIRE(set(p, "uvm_pcie_d2h_bandwidth", "8000MB/s", &err) == 0);
    CHECK_NEAR(p->uvm.pcie_d2h_bandwidth, 8.0, 1e-12);
    REQUIRE(set(p, "uvm_fault_handling_us", "2ms", &err) == 0);
    CHECK_NEAR(p->uvm.fault_handling_us, 2000.0, 1e-9);
    REQUIRE(set(p, "uvm_fault_handling_us", "500ns", &err) == 0);
    CHECK_NEAR(p->uvm.fault_handling_us, 0.5, 1e-12);
    gms_params_free(p);
}

TEST(config_size_units_scale)
{
    gms_params *p = gms_params_new();
    gms_error err;
    CHECK_EQ(p->uvm.page_size, 4096u);                        /* default "4KB" */
    REQUIRE(set(p, "gddr_size", "1GB", &err) == 0);
    CHECK_EQ(p->uvm.gddr_size, 1073741824ull);
    REQUIRE(set(p, "gddr_size", "1.5GB", &err) == 0);
    CHECK_EQ(p->uvm.gddr_size, 1610612736ull);
    REQUIRE(set(p, "gddr_size", "3MiB", &err) == 0);
    CHECK_EQ(p->uvm.gddr_size, 3145728ull);
    REQUIRE(set(p, "gddr_size", "4096", &err) == 0);          /* bare number: bytes */
    CHECK_EQ(p->uvm.gddr_size, 4096ull);
    REQUIRE(set(p, "uvm_prefetch_size", "512KB", &err) == 0);
    CHECK_EQ(p->uvm.prefetch_size, 524288ull);
    gms_params_free(p);
}

/* every rejected value: the option, the value and what is accepted are named */
TEST(config_trailing_text_is_an_error)
{
    struct { const char *name, *val, *expect; } cases[] = {
        { "pcie_bandwidth", "16Gb/s", "accepted units: GB/s, MB/s, KB/s" },
        { "pcie_bandwidth", "16 GB/sec", "unit 'GB/sec' is not accepted" },
        { "pcie_bandwidth", "16x", "accepted units" },
        { "pcie_bandwidth", "fast", "not a number" },
        { "pcie_bandwidth", "inf", "not a number" },
        { "pcie_bandwidth", "1e999", "out of range" },
        { "uvm_fault_handling_us", "20s", "accepted units: us, ns, ms" },
        { "gddr_size", "4KBx", "unit 'KBx' is not accepted" },
        { "gddr_size", "1GBps", "accepted units: B, KB, MB, GB" },
        { "gddr_size", "0.3B", "not a whole number of bytes" },
        { "gddr_size", "99999999999GB", "out of range" },
        { "uvm_oversub_ratio", "1.25x", "takes no unit" },
        { "gpgpu_n_clusters", "4x", "takes no unit" },
        { "gpgpu_n_clusters", "4.0", "takes no unit" },
        { "gpgpu_n_clusters", "99999999999999999999", "out of range" },
        { "gpgpu_n_clusters", "4294967296", "out of range (at most 4294967295)" },
        { "gpgpu_n_clusters", "", "not an unsigned 32-bit integer" },
        { "gpgpu_max_cycle", "1M", "takes no unit" },             /* cycles are not sizes */
        { "gms_seed", "18446744073709551616", "out of range" },
        { "gpgpu_mem_address_mask", "2147483648", "out of range" },
        { "gpgpu_mem_address_mask", "1 2", "takes no unit" },
        { "network_mode", "2a", "takes no unit" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err;
        CHECK(set(p, cases[i].name, cases[i].val, &err) != 0);
        CHECK_CONTAINS(err.msg, cases[i].name);
        CHECK_CONTAINS(err.msg, cases[i].expect);
        gms_params_free(p);
    }
}

TEST(config_integers_exact)
{
    gms_params *p = gms_params_new();
    gms_error err;
    REQUIRE(set(p, "gpgpu_n_clusters", "4294967295", &err) == 0);
    CHECK_EQ(p->core.n_clusters, 4294967295u);
    REQUIRE(set(p, "gpgpu_n_clusters", "010", &err) == 0);   /* decimal, as GPGPU-Sim reads it (not octal 8) */
    CHECK_EQ(p->core.n_clusters, 10u);
    REQUIRE(set(p, "gpgpu_n_clusters", "0x10", &err) == 0);
    CHECK_EQ(p->core.n_clusters, 16u);
    REQUIRE(set(p, "gms_seed", "18446744073709551615", &err) == 0);
    CHECK_EQ(p->sim.seed, 18446744073709551615ull);
    REQUIRE(set(p, "gpgpu_mem_address_mask", "-1", &err) == 0);
    CHECK_EQ(p->mem.address_mask, -1);
    gms_params_free(p);
}

/* in a file the error names the file and line as well */
TEST(config_unit_error_names_file_and_line)
{
    char path[] = "/tmp/gms_units_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("-gpgpu_n_clusters 4\n# the next line asks for 16 MB/s in the wrong unit\n-pcie_bandwidth 16Mb/s\n", f);
    fclose(f);
    gms_params *p = gms_params_new();
    gms_error err = {0};
    CHECK(gms_params_load_file(p, path, &err) != 0);
    char want[64];
    snprintf(want, sizeof want, "%s:3: -pcie_bandwidth: '16Mb/s'", path);
    CHECK_CONTAINS(err.msg, want);
    CHECK_CONTAINS(err.msg, "accepted units: GB/s, MB/s, KB/s");
    gms_params_free(p);
    unlink(path);
}

/* packed strings decoded by the modules: no sign wrap (sscanf's %u reads "-1" as 4294967295),
 * no overflow, nothing after the last field */
TEST(config_packed_integer_lists_exact)
{
    struct { const char *name, *val; } bad[] = {
        { "gpgpu_dram_partition_queues", "-1:8:8:8" },
        { "gpgpu_dram_partition_queues", "99999999999:8:8:8" },
        { "gpgpu_dram_partition_queues", "8:8:8:8x" },
        { "gpgpu_dram_partition_queues", "8:8:8" },
        { "dram_write_queue_size", "32:28:-16" },
        { "gpgpu_shmem_option", "-8" },
        { "gpgpu_shmem_option", "0,8,,16" },
        { "gpgpu_shader_core_pipeline", "+2048:32" },
        { "gpgpu_shader_core_pipeline", "2048:32:1" },
        { "ptx_opcode_latency_int", "4,-5,4" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        REQUIRE(gms_params_set(p, bad[i].name, bad[i].val, &err) == 0);   /* a string: decoded at finalize */
        CHECK(gms_params_finalize(p, &err) != 0);
        CHECK_CONTAINS(err.msg, bad[i].name);
        gms_params_free(p);
    }
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_set(p, "gpgpu_dram_partition_queues", "4:0:16:4294967295", &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_shmem_option", "0,8,16,32,64,100", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(p->mem.q_icnt_l2, 4u);
    CHECK_EQ(p->mem.q_l2_icnt, 4294967295u);
    CHECK_EQ(p->core.n_shmem_opts, 6u);
    CHECK_EQ(p->core.shmem_opts[5], 100u);
    gms_params_free(p);
}
