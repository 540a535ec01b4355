/* Energy by event counts (-gms_energy, l2q_energy.c): the table's parsing and the sums. */
#include <stdio.h>
#include <string.h>
#include "test.h"
#include "mem/l2q.h"
#include "stats/stats.h"

TEST(energy_table_and_sums)
{
    gms_energy_params p;
    gms_error e;
    REQUIRE(!gms_energy_params_parse(GMS_ENERGY_DEFAULT, &p, &e));
    CHECK_EQ(p.l2_pj, 200.0);
    CHECK_EQ(p.static_w, 30.0);
    CHECK_EQ(p.core_pj, 2000.0);   /* not in GMS_ENERGY_DEFAULT's text: the table's default */
    CHECK_EQ(p.l1d_pj, 300.0);
    REQUIRE(!gms_energy_params_parse("dram_act=1000,static_w=0", &p, &e));   /* the rest: defaults */
    CHECK_EQ(p.dram_act_pj, 1000.0);
    CHECK_EQ(p.dram_rw_pj, 1600.0);
    CHECK_EQ(p.static_w, 0.0);
    CHECK_EQ(gms_energy_params_parse("l2=-1", &p, &e), -1);
    CHECK(strstr(e.msg, "-gms_energy") && strstr(e.msg, "l2"));
    CHECK_EQ(gms_energy_params_parse("sram=5", &p, &e), -1);
    CHECK(strstr(e.msg, "sram") != NULL);
    CHECK_EQ(gms_energy_params_parse("l2", &p, &e), -1);

    REQUIRE(!gms_energy_params_parse("l2=100,dram_act=2000,dram_rw=1000,queue=10,static_w=2", &p, &e));
    /* 1000 L2 accesses x 100 pJ = 100 nJ; 10 activates x 2 nJ + 50 bursts x 1 nJ = 70 nJ;
     * 300 queue ops x 10 pJ = 3 nJ; 2 W x 1 us = 2000 nJ */
    gms_energy_events ev = { .l2_accesses = 1000, .dram_act = 10, .dram_rw = 50, .queue_ops = 300, .seconds = 1e-6 };
    gms_stats st;
    gms_stats_init(&st);
    gms_energy_report(&p, &ev, &st);
    static const struct { const char *name; double v; } want[] = {
        { "gms_energy_l2_nj", 100 }, { "gms_energy_dram_nj", 70 }, { "gms_energy_queue_nj", 3 },
        { "gms_energy_static_nj", 2000 }, { "gms_energy_total_nj", 2173 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const gms_stat *x = gms_stats_find(&st, want[i].name);
        REQUIRE(x);
        CHECK_NEAR(x->value, want[i].v, 1e-9);
    }
    gms_stats_free(&st);
}

/* The hardware cost model (docs/dlmshr.md "Area and energy"): an MSHR level's bits and
 * events as mshr.c reports them, turned into area, leakage and energy by hand. */
TEST(energy_mshr_cost_model)
{
    gms_energy_params p;
    gms_error e;
    REQUIRE(!gms_energy_params_parse("l2=0,dram_act=0,dram_rw=0,queue=0,static_w=0,sram_um2=1,cam_um2=2,ff_um2=3,"
                                     "sram_fj=1,cam_fj=2,ff_fj=4,sram_nw=1,cam_nw=2,ff_nw=3,addr_bits=17,slot_bits=10",
                                     &p, &e));
    CHECK_EQ(p.entry_bits, 64.0);   /* not given: the default */
    gms_stats st;
    gms_stats_init(&st);
    static const struct { const char *n; uint64_t v; } in[] = {
        { "gms_L1D_mshr_tables", 2 }, { "gms_L1D_mshr_hw_comparators", 4 }, { "gms_L1D_mshr_hw_slots", 8 },
        { "gms_L1D_mshr_hw_ff_bits", 8 }, { "gms_L1D_mshr_hw_ptr_bits", 4 }, { "gms_L1D_mshr_hw_key_shift", 7 },
        { "gms_L1D_mshr_compares", 10 }, { "gms_L1D_mshr_slot_ops", 6 }, { "gms_L1D_mshr_ctrl_ops", 5 },
    };
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) gms_stat_u64(&st, in[i].n, in[i].v);
    gms_energy_events ev = { .seconds = 1e-3 };
    gms_energy_report(&p, &ev, &st);
    /* tag 17 - 7 = 10 bits: CAM 4 x 10 = 40 bits, SRAM 8 x 10 + 4 = 84, FF 8.
     * area 40 x 2 + 84 x 1 + 8 x 3 = 188 um2; leakage 2 tables x 188 nW = 0.000376 mW;
     * dynamic 10 x 10 x 2 + 6 x 10 x 1 + 5 x 4 = 280 fJ; leakage over 1 ms = 0.376 nJ */
    static const struct { const char *name; double v; } want[] = {
        { "gms_L1D_mshr_area_mm2", 188e-6 }, { "gms_L1D_mshr_leakage_mw", 376e-6 },
        { "gms_L1D_mshr_leakage_mw_table", 188e-6 }, { "gms_L1D_mshr_dynamic_nj", 280e-6 }, { "gms_energy_mshr_nj", 0.376 + 280e-6 },
        { "gms_energy_total_nj", 0.376 + 280e-6 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const gms_stat *x = gms_stats_find(&st, want[i].name);
        REQUIRE(x);
        CHECK_NEAR(x->value, want[i].v, 1e-12);
    }
    CHECK(gms_stats_find(&st, "gms_L2_mshr_area_mm2") == NULL);   /* no L2 tables reported */
    gms_stats_free(&st);

    /* the same structure at the L2: each slot also holds its data buffer (l2_slot_data_bits) */
    REQUIRE(!gms_energy_params_parse("l2=0,dram_act=0,dram_rw=0,queue=0,static_w=0,sram_um2=1,cam_um2=2,ff_um2=3,"
                                     "sram_fj=1,cam_fj=2,ff_fj=4,sram_nw=1,cam_nw=2,ff_nw=3,addr_bits=17,slot_bits=10,"
                                     "l2_slot_data_bits=6", &p, &e));
    gms_stats_init(&st);
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        char n[64];
        snprintf(n, sizeof n, "gms_L2_%s", in[i].n + strlen("gms_L1D_"));
        gms_stat_u64(&st, n, in[i].v);
    }
    gms_energy_report(&p, &ev, &st);
    /* slots of 10 + 6 bits: SRAM 8 x 16 + 4 = 132; area 40 x 2 + 132 + 8 x 3 = 236 um2;
     * leakage 2 x 236 nW; dynamic 10 x 10 x 2 + 6 x 16 x 1 + 5 x 4 = 316 fJ */
    static const struct { const char *name; double v; } want2[] = {
        { "gms_L2_mshr_area_mm2", 236e-6 }, { "gms_L2_mshr_leakage_mw", 472e-6 },
        { "gms_L2_mshr_dynamic_nj", 316e-6 }, { "gms_energy_mshr_nj", 0.472 + 316e-6 },
    };
    for (size_t i = 0; i < sizeof want2 / sizeof want2[0]; i++) {
        const gms_stat *x = gms_stats_find(&st, want2[i].name);
        REQUIRE(x);
        CHECK_NEAR(x->value, want2[i].v, 1e-12);
    }
    gms_stats_free(&st);
}

/* The cores' part: warp instructions and L1D accesses, read from the counters the SMs reported
 * before the memory system, priced by the table and added to the dynamic and total energy. */
TEST(energy_core_events)
{
    gms_energy_params p;
    gms_error e;
    REQUIRE(!gms_energy_params_parse("l2=100,dram_act=0,dram_rw=0,queue=0,static_w=1,core=1500,l1d=250", &p, &e));
    gms_stats st;
    gms_stats_init(&st);
    gms_stat_u64(&st, "gpgpu_n_tot_w_icount", 4000);
    gms_stat_u64(&st, "L1D_total_cache_accesses", 800);
    gms_energy_events ev = { .l2_accesses = 10, .seconds = 1e-6 };
    gms_energy_report(&p, &ev, &st);
    /* 4000 x 1.5 nJ + 800 x 0.25 nJ = 6200 nJ; L2 10 x 0.1 = 1 nJ; static 1 W x 1 us = 1000 nJ */
    static const struct { const char *name; double v; } want[] = {
        { "gms_energy_core_nj", 6200 }, { "gms_energy_l2_nj", 1 }, { "gms_energy_dynamic_nj", 6201 },
        { "gms_energy_static_nj", 1000 }, { "gms_energy_total_nj", 7201 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const gms_stat *x = gms_stats_find(&st, want[i].name);
        REQUIRE(x);
        CHECK_NEAR(x->value, want[i].v, 1e-9);
    }
    gms_stats_free(&st);
    CHECK_EQ(gms_energy_params_parse("core=-3", &p, &e), -1);
    CHECK(strstr(e.msg, "core") != NULL);
}
