/* The open-addressing hash map (util/hashmap.c) against a plain array of what it should hold,
 * and the aligned request pool (requests on 64 B host lines, mem/mreq.h). */
#include "test.h"
#include "util/hashmap.h"
#include "util/err.h"
#include "mem/mreq.h"
#include <stdlib.h>

TEST(hashmap_upsert_creates_then_finds)
{
    gms_u64map m;
    gms_u64map_init(&m, 4);
    int created = -1;
    uint64_t *v = gms_u64map_upsert(&m, 42, &created);
    REQUIRE(v != NULL);
    CHECK_EQ(created, 1);
    CHECK_EQ(*v, 0);   /* a new key's value starts at 0 */
    *v = 7;
    v = gms_u64map_upsert(&m, 42, &created);
    CHECK_EQ(created, 0);
    CHECK_EQ(*v, 7);
    CHECK_EQ(m.n, 1);
    REQUIRE(gms_u64map_get(&m, 42) != NULL);
    CHECK_EQ(*gms_u64map_get(&m, 42), 7);
    gms_u64map_free(&m);
}

TEST(hashmap_del_if_removes_only_on_matching_value)
{
    gms_u64map m;
    gms_u64map_init(&m, 4);
    gms_u64map_put(&m, 5, 50);
    CHECK_EQ(gms_u64map_del_if(&m, 5, 51), 0);   /* other value: kept */
    CHECK(gms_u64map_get(&m, 5) != NULL);
    CHECK_EQ(gms_u64map_del_if(&m, 6, 50), 0);   /* absent key */
    CHECK_EQ(gms_u64map_del_if(&m, UINT64_MAX, 0), 0);   /* the reserved key never matches */
    CHECK_EQ(gms_u64map_del_if(&m, 5, 50), 1);
    CHECK(gms_u64map_get(&m, 5) == NULL);
    CHECK_EQ(m.n, 0);
    gms_u64map_free(&m);
}

/* many keys through a small map (it grows; probe chains collide), deletions in between:
 * every key that should be there is found with its value, and no other */
TEST(hashmap_matches_reference_under_churn)
{
    enum { N = 4096 };
    static uint64_t ref[N];   /* 0 = absent, else value + 1 */
    memset(ref, 0, sizeof ref);
    gms_u64map m;
    gms_u64map_init(&m, 8);
    uint64_t x = 12345;
    size_t live = 0;
    for (int step = 0; step < 40000; step++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t k = (uint32_t)(x >> 33) % N;
        uint64_t key = (uint64_t)k * 128;   /* block addresses: low bits all zero */
        switch ((x >> 20) % 4) {
        case 0: {
            int created;
            uint64_t *v = gms_u64map_upsert(&m, key, &created);
            CHECK_EQ(created, ref[k] == 0);
            if (created) live++;
            *v = step;
            ref[k] = (uint64_t)step + 1;
            break;
        }
        case 1:
            if (ref[k]) live--;
            CHECK_EQ(gms_u64map_del(&m, key), ref[k] != 0);
            ref[k] = 0;
            break;
        case 2: {
            uint64_t want = ref[k] ? ref[k] - 1 : 0;
            int hit = gms_u64map_del_if(&m, key, want);
            CHECK_EQ(hit, ref[k] != 0);
            if (hit) { ref[k] = 0; live--; }
            break;
        }
        default:
            if (!ref[k]) live++;
            gms_u64map_put(&m, key, (uint64_t)step);
            ref[k] = (uint64_t)step + 1;
            break;
        }
    }
    CHECK_EQ(m.n, live);
    for (uint32_t k = 0; k < N; k++) {
        const uint64_t *v = gms_u64map_get(&m, (uint64_t)k * 128);
        if (ref[k]) { REQUIRE(v != NULL); CHECK_EQ(*v, ref[k] - 1); }
        else CHECK(v == NULL);
    }
    gms_u64map_free(&m);
}

TEST(mreq_pool_requests_on_host_lines)
{
    CHECK_EQ(sizeof(gms_mreq), 64);   /* one host line (mreq.h) */
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_mreq *r[3000];   /* more than one slab */
    for (int i = 0; i < 3000; i++) {
        r[i] = gms_mreq_alloc(&p);
        CHECK_EQ((uintptr_t)r[i] % 64, 0);
        CHECK_EQ(r[i]->addr, 0);   /* zeroed */
    }
    for (int i = 0; i < 3000; i++) gms_mreq_release(&p, r[i]);
    gms_mreq_pool_free(&p);
    void *a = gms_xaligned(64, 100);   /* not a multiple of the alignment: rounded up */
    CHECK_EQ((uintptr_t)a % 64, 0);
    free(a);
}
