/* The sweep harness's minimal JSON reader (src/harness/json.c). */
#include "test.h"
#include "harness/json.h"
#include <stdlib.h>

static gms_json *parse(const char *s, gms_error *e) { return gms_json_parse(s, strlen(s), "t.json", e); }

TEST(harness_json_run_stats)
{
    const char *s = "{\"gpumemsim_version\": \"0.1.0\", \"workload\": \"stream\", \"config_digest\": \"ab12\",\n"
                    " \"total\": {\"gpu_tot_ipc\": 12.5, \"gpu_sim_cycle\": 1e3, \"neg\": -0.25, \"flag\": true},\n"
                    " \"kernels\": [{\"name\": \"k\", \"uid\": 1, \"stream\": 0, \"stats\": {\"x\": 3}}]}";
    gms_error e = {0};
    gms_json *j = parse(s, &e);
    REQUIRE(j);
    CHECK_STR(gms_json_get_str(j, "workload", NULL), "stream");
    const gms_json *t = gms_json_get(j, "total");
    REQUIRE(t && t->type == GMS_JSON_OBJ && t->n == 4);
    CHECK_NEAR(gms_json_get_num(t, "gpu_tot_ipc", 0), 12.5, 0);
    CHECK_NEAR(gms_json_get_num(t, "gpu_sim_cycle", 0), 1000, 0);
    CHECK_NEAR(gms_json_get_num(t, "neg", 0), -0.25, 0);
    CHECK(gms_json_get(t, "flag")->type == GMS_JSON_BOOL && gms_json_get(t, "flag")->b == 1);
    const gms_json *k = gms_json_get(j, "kernels");
    REQUIRE(k && k->type == GMS_JSON_ARR && k->n == 1);
    CHECK_NEAR(gms_json_get_num(gms_json_get(&k->items[0], "stats"), "x", 0), 3, 0);
    CHECK(gms_json_get(j, "nope") == NULL);
    gms_json_free(j);
}

TEST(harness_json_strings)
{
    gms_error e = {0};
    gms_json *j = parse("[\"a\\\"b\\\\c\\n\", \"\\u00e9\\ud83d\\ude00\", \"\"]", &e);
    REQUIRE(j && j->n == 3);
    CHECK_STR(j->items[0].str, "a\"b\\c\n");
    CHECK_STR(j->items[1].str, "\xc3\xa9\xf0\x9f\x98\x80");
    CHECK_STR(j->items[2].str, "");
    gms_json_free(j);
    gms_sbuf b = {0};
    gms_json_quote(&b, "q\"\\\n\x01");
    CHECK_STR(b.s, "\"q\\\"\\\\\\n\\u0001\"");
    gms_sbuf_free(&b);
}

TEST(harness_json_errors)
{
    const char *bad[] = { "", "{", "{\"a\" 1}", "[1,]", "{\"a\":1,}", "01", "1.", "-", "\"abc", "[1] x",
                          "tru", "\"\\ud800\"", "\"\\q\"", "{1:2}", "\"a\nb\"", NULL };
    for (int i = 0; bad[i]; i++) {
        gms_error e = {0};
        gms_json *j = parse(bad[i], &e);
        CHECK(j == NULL);
        CHECK(e.set);
        CHECK_CONTAINS(e.msg, "t.json:");
        gms_json_free(j);
    }
    gms_error e = {0};
    CHECK(parse("{\n  \"a\": [1, 2,\n   oops]}", &e) == NULL);
    CHECK_CONTAINS(e.msg, "t.json:3:4:");
    /* deep nesting is refused, not a stack overflow */
    char deep[400];
    memset(deep, '[', 300);
    deep[300] = 0;
    CHECK(parse(deep, &e) == NULL);
    CHECK_CONTAINS(e.msg, "nested too deeply");
}

static int drop_kernel_stats(const char *key, int depth) { return !(depth == 2 && !strcmp(key, "stats")); }

TEST(harness_json_write_round_trip_and_filter)
{
    const char *s = "{\"v\": \"a\\\"b\", \"total\": {\"ipc\": 0.1, \"n\": 1234567, \"big\": 1e300, \"neg\": -2.5,"
                    " \"t\": true, \"z\": null},\n \"kernels\": [{\"name\": \"k\", \"uid\": 1, \"stats\": {\"x\": 3}}, {\"stats\": {}}]}";
    gms_error e = {0};
    gms_json *j = parse(s, &e);
    REQUIRE(j);
    gms_sbuf b = {0};
    gms_json_write(&b, j, NULL);
    CHECK_STR(b.s, "{\"v\":\"a\\\"b\",\"total\":{\"ipc\":0.10000000000000001,\"n\":1234567,\"big\":1.0000000000000001e+300,"
                   "\"neg\":-2.5,\"t\":true,\"z\":null},\"kernels\":[{\"name\":\"k\",\"uid\":1,\"stats\":{\"x\":3}},{\"stats\":{}}]}");
    gms_json *k = parse(b.s, &e);   /* reads back to the same numbers */
    REQUIRE(k);
    CHECK(gms_json_get_num(gms_json_get(k, "total"), "ipc", 0) == 0.1);
    CHECK(gms_json_get_num(gms_json_get(k, "total"), "big", 0) == 1e300);
    gms_json_free(k);
    gms_sbuf_free(&b);
    gms_sbuf c = {0};
    gms_json_write(&c, j, drop_kernel_stats);   /* the sweep's 'kernel_stats totals' */
    CHECK_STR(c.s, "{\"v\":\"a\\\"b\",\"total\":{\"ipc\":0.10000000000000001,\"n\":1234567,\"big\":1.0000000000000001e+300,"
                   "\"neg\":-2.5,\"t\":true,\"z\":null},\"kernels\":[{\"name\":\"k\",\"uid\":1},{}]}");
    gms_sbuf_free(&c);
    gms_json_free(j);
}
