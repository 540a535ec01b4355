/* Energy by event counts (-gms_energy, l2q_energy.c): the table's parsing and the sums. */
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
