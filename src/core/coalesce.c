/* The coalescer: a warp memory instruction's lane accesses -> memory transactions (one per
 * touched 128 B line, or per touched 32 B sector for sectored caches), with the distinct
 * bytes each transaction carries. gms_coalesce_range is the same for a unit-stride access
 * (a contiguous byte range), without going through 32 lane addresses. */
#include "core/sm.h"

/* the slot of `line` among the lines seen so far, added if new; -1 when 64 lines are full */
static inline int line_slot(uint64_t lines[64], uint8_t smask[64], uint32_t bytes[64][4], int *nl, uint64_t line)
{
    int n = *nl, j;
    if (n && lines[n - 1] == line) return n - 1;   /* common: same line as the previous lane */
    for (j = 0; j < n; j++) if (lines[j] == line) return j;
    if (n == 64) return -1;
    lines[n] = line;
    smask[n] = 0;
    bytes[n][0] = bytes[n][1] = bytes[n][2] = bytes[n][3] = 0;
    *nl = n + 1;
    return n;
}

int gms_coalesce(const uint64_t addrs[32], uint32_t mask, uint32_t width, int sector, gms_txn out[128])
{
    uint64_t lines[64];
    uint8_t smask[64];
    uint32_t bytes[64][4];   /* distinct bytes per sector: a 32-bit mask of each sector's bytes */
    int nl = 0;
    if (width == 0) width = 4;
    for (int lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1u)) continue;
        uint64_t a = addrs[lane], end = a + width - 1;
        if ((a >> 5) == (end >> 5)) {   /* fast path: the lane's access stays in one sector */
            int j = line_slot(lines, smask, bytes, &nl, a >> 7);
            if (j < 0) continue;
            uint32_t sct = (uint32_t)(a >> 5) & 3, l5 = (uint32_t)(a & 31);
            smask[j] |= (uint8_t)(1u << sct);
            bytes[j][sct] |= (width >= 32 ? 0xffffffffu : ((1u << width) - 1u)) << l5;
            continue;
        }
        for (uint64_t line = a >> 7; line <= end >> 7; line++) {
            uint64_t lo = line << 7 > a ? line << 7 : a;
            uint64_t hi = (line << 7) + 127 < end ? (line << 7) + 127 : end;
            int j = line_slot(lines, smask, bytes, &nl, line);
            if (j < 0) continue;
            for (uint64_t b = lo; b <= hi;) {   /* one sector at a time */
                uint32_t sct = (uint32_t)(b >> 5) & 3;
                uint64_t se = (b | 31) < hi ? (b | 31) : hi;
                uint32_t l5 = (uint32_t)(b & 31), h5 = (uint32_t)(se & 31);
                uint32_t m = (h5 == 31 ? 0xffffffffu : ((1u << (h5 + 1)) - 1u)) & ~((1u << l5) - 1u);
                smask[j] |= (uint8_t)(1u << sct);
                bytes[j][sct] |= m;
                b = se + 1;
            }
        }
    }
    int n = 0;
    for (int j = 0; j < nl; j++) {
        if (sector) {
            for (int sct = 0; sct < 4; sct++)
                if (smask[j] >> sct & 1) {
                    out[n].addr = (lines[j] << 7) + (uint64_t)sct * 32;
                    out[n].sector_mask = (uint8_t)(1u << sct);
                    out[n].nbytes_sectors = 1;
                    out[n].bytes = (uint16_t)__builtin_popcount(bytes[j][sct]);
                    n++;
                }
        } else {
            out[n].addr = lines[j] << 7;
            out[n].sector_mask = smask[j];
            out[n].nbytes_sectors = 4;
            out[n].bytes = (uint16_t)(__builtin_popcount(bytes[j][0]) + __builtin_popcount(bytes[j][1]) +
                                      __builtin_popcount(bytes[j][2]) + __builtin_popcount(bytes[j][3]));
            n++;
        }
    }
    return n;
}

int gms_coalesce_range(uint64_t lo, uint64_t hi, int sector, gms_txn out[128])
{
    int n = 0;
    for (uint64_t line = lo >> 7; line <= hi >> 7; line++) {
        uint64_t base = line << 7;
        uint64_t a = lo > base ? lo : base, e = hi < base + 127 ? hi : base + 127;
        uint8_t smask = 0;
        uint32_t total = 0;
        for (uint32_t sct = (uint32_t)(a >> 5) & 3; sct <= ((uint32_t)(e >> 5) & 3); sct++) {
            uint64_t sb = base + sct * 32u, sa = a > sb ? a : sb, se = e < sb + 31 ? e : sb + 31;
            uint32_t bytes = (uint32_t)(se - sa + 1);
            smask |= (uint8_t)(1u << sct);
            total += bytes;
            if (sector) {
                out[n].addr = sb;
                out[n].sector_mask = (uint8_t)(1u << sct);
                out[n].nbytes_sectors = 1;
                out[n].bytes = (uint16_t)bytes;
                n++;
            }
        }
        if (!sector) {
            out[n].addr = base;
            out[n].sector_mask = smask;
            out[n].nbytes_sectors = 4;
            out[n].bytes = (uint16_t)total;
            n++;
        }
        if (line == UINT64_MAX >> 7) break;
    }
    return n;
}

/* GPGPU-Sim's issue order: warp_inst_t::memory_coalescing_arch collects a warp's transactions
 * in a std::map keyed by block address (ascending) and appends them to the access queue in
 * that order; the LDST unit (ldst_unit::process_memory_access_queue_l1cache, memory_cycle)
 * then always takes accessq_back(), so they leave highest address first. Insertion sort:
 * at most 128 transactions, and the usual input (lanes in address order) is one reversal. */
void gms_txn_issue_order(gms_txn *t, int n)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) { gms_txn x = t[i]; t[i] = t[j]; t[j] = x; }
    for (int i = 1; i < n; i++) {
        gms_txn x = t[i];
        int j = i - 1;
        while (j >= 0 && t[j].addr < x.addr) { t[j + 1] = t[j]; j--; }
        t[j + 1] = x;
    }
}
