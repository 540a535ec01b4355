/* The graph readers and generators of the GraphBIG workloads (graph_csr.h): the CSR of small
 * hand-made files in tests/data/graphs/ (edge list with weights and comments, a symmetric
 * Matrix Market matrix, a GraphBIG CSV dataset), one clear "file:line: what was expected"
 * error per malformed file, and the generators' sizes and shapes. */
#include "test.h"
#include "workloads/graph_csr.h"
#include "workloads/workload.h"
#include "wl_test_util.h"
#include <string.h>

#define D "tests/data/graphs/"

static void check_csr(const gms_graph *g, const uint64_t *off, const uint64_t *adj, const uint32_t *wt)
{
    for (uint64_t v = 0; v <= g->nv; v++) CHECK_EQ(g->off[v], off[v]);
    for (uint64_t e = 0; e < g->ne; e++) {
        CHECK_EQ(g->adj[e], adj[e]);
        if (wt) CHECK_EQ(g->wt[e], wt[e]);
    }
}

TEST(graph_io_edge_list)
{
    gms_graph g;
    gms_error e = {0};
    REQUIRE(gms_graph_read(&g, D "tiny.el", 1, &e) == 0);
    CHECK_EQ(g.nv, 7);
    CHECK_EQ(g.ne, 12);
    /* each edge stored both ways, in file order: 0-1(5) 1-2(1) 2-3(2) 4-5 5-6(7) 6-4 */
    const uint64_t off[] = {0, 1, 3, 5, 6, 8, 10, 12};
    const uint64_t adj[] = {1, 0, 2, 1, 3, 2, 5, 6, 4, 6, 5, 4};
    const uint32_t wt[] = {5, 5, 1, 1, 2, 2, 1, 1, 1, 7, 7, 1};
    check_csr(&g, off, adj, wt);
    CHECK_EQ(gms_graph_max_degree_vertex(&g), 1);   /* degree 2, the lowest such id */
    gms_graph_free(&g);
}

TEST(graph_io_matrix_market)
{
    gms_graph g;
    gms_error e = {0};
    REQUIRE(gms_graph_read(&g, D "tiny.mtx", 0, &e) == 0);
    CHECK_EQ(g.nv, 5);
    CHECK_EQ(g.ne, 10);   /* 5 entries of a symmetric matrix, mirrored */
    const uint64_t off[] = {0, 4, 5, 6, 8, 10};
    const uint64_t adj[] = {1, 2, 3, 4, 0, 0, 0, 4, 0, 3};
    const uint32_t wt[] = {3, 1, 2, 9, 3, 1, 2, 4, 9, 4};
    check_csr(&g, off, adj, wt);
    gms_graph_free(&g);
    /* read as undirected: the same graph, not each entry four times */
    REQUIRE(gms_graph_read(&g, D "tiny.mtx", 1, &e) == 0);
    CHECK_EQ(g.ne, 10);
    check_csr(&g, off, adj, wt);
    gms_graph_free(&g);
}

TEST(graph_io_graphbig_csv)
{
    gms_graph g;
    gms_error e = {0};
    /* ids 38, 534, 941, 7 are vertices 0..3 in vertex.csv order; edges as given */
    const uint64_t off[] = {0, 1, 2, 3, 3};
    const uint64_t adj[] = {1, 2, 0};
    REQUIRE(gms_graph_read(&g, D "csv", 0, &e) == 0);
    CHECK_EQ(g.nv, 4);
    CHECK_EQ(g.ne, 3);
    check_csr(&g, off, adj, NULL);
    gms_graph_free(&g);
    REQUIRE(gms_graph_read(&g, D "csv/edge.csv", 0, &e) == 0);
    CHECK_EQ(g.nv, 4);
    check_csr(&g, off, adj, NULL);
    gms_graph_free(&g);
}

static void bad(const char *path, const char *want)
{
    gms_graph g;
    gms_error e = {0};
    CHECK(gms_graph_read(&g, path, 1, &e) != 0);
    CHECK_CONTAINS(e.msg, want);
}

TEST(graph_io_malformed)
{
    bad(D "bad_line.el", "bad_line.el:3: expected an edge \"u v\"");
    bad(D "bad_range.mtx", "bad_range.mtx:4: entry (4, 1) outside the 3x3 matrix");
    bad(D "short.mtx", "short.mtx:5: expected entry 3 of 3");
    bad(D "bad_csv", "bad_csv/edge.csv:3: vertex id 5 is not in");
}

TEST(graph_io_workload_files)
{
    /* the workloads run on files, and a malformed one stops them with its line */
    const char *kv[] = {"graph=" D "tiny.el", "root=0", NULL};
    WL_RUN_BOTH("bfs-twc", kv, 1);
    WL_RUN_BOTH("sssp-twc", kv, 1);
    const char *kv2[] = {"graph=" D "tiny.mtx", "undirected=0", NULL};
    WL_RUN("kcore", kv2, 1);
    WL_RUN("gc-dtc", kv2, 1);
    const char *kv3[] = {"graph=" D "csv", NULL};
    WL_RUN("pr", kv3, 1);
    const char *kb[] = {"graph=" D "bad_line.el", NULL};
    gms_functional_result r;
    gms_error e = {0};
    CHECK(gms_workload_run_functional(gms_workload_find("bfs-ttc"), kb, 1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "bad_line.el:3");
    const char *kr[] = {"graph=" D "tiny.el", "root=7", NULL};
    CHECK(gms_workload_run_functional(gms_workload_find("bfs-ta"), kr, 1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "root=7 is not a vertex");
}

TEST(graph_gen_rmat_and_uniform)
{
    gms_graph a, b, u;
    gms_graph_generate(&a, GMS_GRAPH_RMAT, 1024, 8192, 5);
    gms_graph_generate(&b, GMS_GRAPH_RMAT, 1024, 8192, 5);
    gms_graph_generate(&u, GMS_GRAPH_UNIFORM, 1024, 8192, 5);
    CHECK_EQ(a.ne, 16384);   /* every edge both ways, repeats and self loops kept */
    CHECK_EQ(u.ne, 16384);
    CHECK_EQ(a.off[1024], 16384);
    CHECK(memcmp(a.adj, b.adj, 8 * a.ne) == 0);   /* the seed fixes the graph */
    for (uint64_t e = 0; e < a.ne; e++) CHECK(a.wt[e] >= 1 && a.wt[e] <= GMS_GRAPH_MAXW);
    /* R-MAT is skewed: its largest degree is far above the mean of 16; uniform's is not */
    uint64_t va = gms_graph_max_degree_vertex(&a), vu = gms_graph_max_degree_vertex(&u);
    CHECK(a.off[va + 1] - a.off[va] > 8 * 16);
    CHECK(u.off[vu + 1] - u.off[vu] < 4 * 16);
    gms_graph_free(&a);
    gms_graph_free(&b);
    gms_graph_free(&u);
}
