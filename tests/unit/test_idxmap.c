/* The compact index map (util/idxmap.c: 8 B slots, a gms_u64map once a key or an index does
 * not fit) against a plain array of what it should hold. */
#include "test.h"
#include "util/idxmap.h"
#include <stdlib.h>
#include <string.h>

TEST(idxmap_get_or_put_inserts_then_finds)
{
    gms_idxmap m;
    gms_idxmap_init(&m, 4, 100, 7);
    CHECK_EQ(m.is_wide, 0);
    int created = -1;
    CHECK_EQ(gms_idxmap_get_or_put(&m, 42 * 128, 9, &created), 9);
    CHECK_EQ(created, 1);
    CHECK_EQ(gms_idxmap_get_or_put(&m, 42 * 128, 11, &created), 9);   /* present: its own index */
    CHECK_EQ(created, 0);
    CHECK_EQ(gms_idxmap_get(&m, 42 * 128), 9);
    CHECK_EQ(gms_idxmap_get(&m, 43 * 128), GMS_IDX_NONE);
    CHECK_EQ(gms_idxmap_get(&m, 0), GMS_IDX_NONE);   /* key 0 (part 0) is an ordinary key */
    gms_idxmap_put(&m, 0, 3);
    CHECK_EQ(gms_idxmap_get(&m, 0), 3);
    gms_idxmap_put(&m, 0, 4);   /* overwrite */
    CHECK_EQ(gms_idxmap_get(&m, 0), 4);
    CHECK_EQ(m.n, 2);
    CHECK_EQ(m.is_wide, 0);
    gms_idxmap_free(&m);
}

TEST(idxmap_del_if_removes_only_on_matching_index)
{
    gms_idxmap m;
    gms_idxmap_init(&m, 4, 100, 7);
    gms_idxmap_put(&m, 5 * 128, 50);
    CHECK_EQ(gms_idxmap_del_if(&m, 5 * 128, 51), 0);
    CHECK_EQ(gms_idxmap_get(&m, 5 * 128), 50);
    CHECK_EQ(gms_idxmap_del_if(&m, 6 * 128, 50), 0);
    CHECK_EQ(gms_idxmap_del_if(&m, UINT64_MAX, 0), 0);   /* a never-used line's tag: absent */
    CHECK_EQ(gms_idxmap_del(&m, 5 * 128 + 1), 0);        /* an unaligned key was never stored */
    CHECK_EQ(gms_idxmap_del_if(&m, 5 * 128, 50), 1);
    CHECK_EQ(gms_idxmap_get(&m, 5 * 128), GMS_IDX_NONE);
    CHECK_EQ(m.n, 0);
    CHECK_EQ(m.is_wide, 0);
    gms_idxmap_free(&m);
}

/* a key the 8 B slot cannot hold (unaligned, or wider than 48 bits above the shift) moves the
 * map to 16 B slots with every entry it had; an index that does not fit is stored wide from
 * the start */
TEST(idxmap_goes_wide_for_keys_and_indices_that_do_not_fit)
{
    gms_idxmap m;
    gms_idxmap_init(&m, 4, 1000, 5);
    for (uint32_t i = 0; i < 20; i++) gms_idxmap_put(&m, (uint64_t)i * 32, i);
    CHECK_EQ(m.is_wide, 0);
    gms_idxmap_put(&m, 1ULL << 60, 500);   /* 60 - 5 = 55 bits above the shift: too wide */
    CHECK_EQ(m.is_wide, 1);
    for (uint32_t i = 0; i < 20; i++) CHECK_EQ(gms_idxmap_get(&m, (uint64_t)i * 32), i);
    CHECK_EQ(gms_idxmap_get(&m, 1ULL << 60), 500);
    gms_idxmap_put(&m, 7, 8);   /* unaligned: fine once wide */
    CHECK_EQ(gms_idxmap_get(&m, 7), 8);
    CHECK_EQ(gms_idxmap_del_if(&m, 3 * 32, 3), 1);
    CHECK_EQ(gms_idxmap_get(&m, 3 * 32), GMS_IDX_NONE);
    gms_idxmap_free(&m);

    gms_idxmap_init(&m, 4, 100, 5);
    int created;
    CHECK_EQ(gms_idxmap_get_or_put(&m, 64 + 3, 1, &created), 1);   /* unaligned on insert */
    CHECK_EQ(created, 1);
    CHECK_EQ(m.is_wide, 1);
    CHECK_EQ(gms_idxmap_get(&m, 64 + 3), 1);
    gms_idxmap_free(&m);

    gms_idxmap_init(&m, 4, 70000, 5);   /* indices up to 69999: not in 16 bits */
    CHECK_EQ(m.is_wide, 1);
    gms_idxmap_put(&m, 32, 69999);
    CHECK_EQ(gms_idxmap_get(&m, 32), 69999);
    gms_idxmap_free(&m);
}

/* the largest key that fits stays compact; the next line up does not */
TEST(idxmap_compact_key_range_edge)
{
    gms_idxmap m;
    gms_idxmap_init(&m, 4, 100, 7);
    uint64_t top = ((1ULL << 48) - 2) << 7;   /* part 2^48 - 2: the largest compact part */
    gms_idxmap_put(&m, top, 1);
    CHECK_EQ(m.is_wide, 0);
    CHECK_EQ(gms_idxmap_get(&m, top), 1);
    CHECK_EQ(gms_idxmap_get(&m, top + 128), GMS_IDX_NONE);
    gms_idxmap_put(&m, top + 128, 2);   /* part 2^48 - 1 is the empty slot's pattern */
    CHECK_EQ(m.is_wide, 1);
    CHECK_EQ(gms_idxmap_get(&m, top), 1);
    CHECK_EQ(gms_idxmap_get(&m, top + 128), 2);
    gms_idxmap_free(&m);
}

/* many keys through a small map (it grows; probe chains collide and are shifted back on
 * deletion), in compact mode and after going wide half-way: every key that should be there
 * is found with its index, and no other */
static void churn(int wide_at)
{
    enum { N = 4096 };
    static uint32_t ref[N];   /* 0 = absent, else index + 1 */
    memset(ref, 0, sizeof ref);
    gms_idxmap m;
    gms_idxmap_init(&m, 8, 60000, 7);
    uint64_t x = 12345;
    size_t live = 0;
    for (int step = 0; step < 40000; step++) {
        if (step == wide_at) {
            gms_idxmap_put(&m, 1, 0);   /* unaligned: wide from here on */
            CHECK_EQ(m.is_wide, 1);
            CHECK_EQ(gms_idxmap_del(&m, 1), 1);
        }
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t k = (uint32_t)(x >> 33) % N;
        uint64_t key = (uint64_t)k * 128;
        uint32_t val = (uint32_t)(step % 60000);
        switch ((x >> 20) % 4) {
        case 0: {
            int created;
            uint32_t got = gms_idxmap_get_or_put(&m, key, val, &created);
            CHECK_EQ(created, ref[k] == 0);
            if (created) { live++; ref[k] = val + 1; }
            CHECK_EQ(got, ref[k] - 1);
            break;
        }
        case 1:
            if (ref[k]) live--;
            CHECK_EQ(gms_idxmap_del(&m, key), ref[k] != 0);
            ref[k] = 0;
            break;
        case 2: {
            uint32_t want = ref[k] ? ref[k] - 1 : 0;
            int hit = gms_idxmap_del_if(&m, key, want);
            CHECK_EQ(hit, ref[k] != 0);
            if (hit) { ref[k] = 0; live--; }
            break;
        }
        default:
            if (!ref[k]) live++;
            gms_idxmap_put(&m, key, val);
            ref[k] = val + 1;
            break;
        }
    }
    CHECK_EQ(m.is_wide ? m.wide.n : m.n, live);
    for (uint32_t k = 0; k < N; k++)
        CHECK_EQ(gms_idxmap_get(&m, (uint64_t)k * 128), ref[k] ? ref[k] - 1 : GMS_IDX_NONE);
    gms_idxmap_clear(&m);
    for (uint32_t k = 0; k < N; k++) CHECK_EQ(gms_idxmap_get(&m, (uint64_t)k * 128), GMS_IDX_NONE);
    gms_idxmap_free(&m);
}

TEST(idxmap_matches_reference_under_churn) { churn(-1); }
TEST(idxmap_matches_reference_after_going_wide) { churn(20000); }
