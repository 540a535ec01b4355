/* The coalescer: a warp memory instruction's lane accesses -> memory transactions, with the
 * distinct bytes each transaction carries. Sectored (sector = 1): one transaction per touched
 * 32 B sector. Otherwise GPGPU-Sim's segment rule (memory_coalescing_arch_13 and the 4.x
 * memory_coalescing_arch when L1-cached): lanes are grouped by segment, 32 B for 1-byte
 * accesses, 64 B for 2-byte ones, 128 B for wider ones, and each segment's transaction
 * shrinks to the half or 32 B chunk its lanes use (reduce_and_send). gms_coalesce_range is the
 * same for a unit-stride access (a contiguous byte range), without going through 32 lane
 * addresses. */
#include <string.h>

#include "core/sm.h"

uint32_t gms_coalesce_segment(uint32_t width, int sector)
{
    if (sector || width == 1) return 32;
    return width == 2 ? 64 : 128;
}

gms_txn gms_segment_reduce(uint64_t seg, uint32_t segment, uint8_t chunks, uint32_t nbytes)
{
    uint64_t addr = seg;
    uint32_t size = segment;
    if (size == 128) {
        if (!(chunks & 0xc)) size = 64;
        else if (!(chunks & 0x3)) { size = 64; addr += 64; }
    }
    if (size == 64) {
        uint8_t h = (uint8_t)(chunks >> ((addr >> 5) & 2) & 3);   /* the half's two chunks */
        if (h == 1) size = 32;
        else if (h == 2) { size = 32; addr += 32; }
    }
    return (gms_txn){ .addr = addr, .sector_mask = chunks, .nbytes_sectors = (uint8_t)(size / 32), .bytes = (uint16_t)nbytes };
}

/* the transactions of one 128 B line whose touched chunks are smask (bytes: each chunk's
 * touched bytes), cut into segments of `segment` bytes and reduced */
static int line_txns(uint64_t line, uint8_t smask, const uint32_t bytes[4], uint32_t segment, gms_txn *out)
{
    int n = 0;
    if (segment == 32) {   /* host speed (sector caches): one 32 B transaction per touched chunk, as below */
        for (uint32_t m = smask & 0xfu; m; m &= m - 1) {
            uint32_t c = (uint32_t)__builtin_ctz(m);
            out[n++] = (gms_txn){ .addr = (line << 7) + c * 32u, .sector_mask = (uint8_t)(1u << c), .nbytes_sectors = 1,
                                  .bytes = (uint16_t)__builtin_popcount(bytes[c]) };
        }
        return n;
    }
    uint32_t per = segment / 32;   /* chunks per segment: 1, 2 or 4 */
    uint8_t segmask = (uint8_t)((1u << per) - 1u);
    for (uint32_t c0 = 0; c0 < 4; c0 += per) {
        uint8_t q = (uint8_t)(smask & (segmask << c0));
        if (!q) continue;
        uint32_t nb = 0;
        for (uint32_t c = c0; c < c0 + per; c++) nb += (uint32_t)__builtin_popcount(bytes[c]);
        out[n++] = gms_segment_reduce((line << 7) + c0 * 32u, segment, q, nb);
    }
    return n;
}

/* The lines one warp access touches, each with its touched sectors and bytes. Up to 128
 * lines: a global access touches at most 64 (32 lanes of up to 16 bytes, each in at most two
 * lines); a translated local one up to 128 (32 lanes x 4 words, local_mem.c). */
typedef struct co_lines {
    uint64_t lines[128];
    uint8_t smask[128];
    uint32_t bytes[128][4];   /* distinct bytes per sector: a 32-bit mask of each sector's bytes */
    uint8_t hix[256];         /* slot + 1 by a hash of the line, open addressing (0: empty) */
    int nl;
} co_lines;

/* cap (64 for a global access, 128 for a local one) is a constant at each call site, so the
 * hash width and the part of hix cleared fold in (host speed: this is on every access) */
__attribute__((always_inline)) static inline void co_init(co_lines *c, int cap)
{
    c->nl = 0;
    memset(c->hix, 0, (size_t)cap * 2);
}

/* the slot of `line` among the lines seen so far, added if new; -1 when all cap are taken;
 * hashed over 2 x cap entries */
__attribute__((always_inline)) static inline int line_slot(co_lines *c, uint64_t line, int cap)
{
    int n = c->nl;
    if (n && c->lines[n - 1] == line) return n - 1;   /* common: same line as the previous lane */
    uint32_t hmask = (uint32_t)cap * 2 - 1;
    uint32_t h = (uint32_t)((line * 0x9e3779b97f4a7c15ULL) >> (cap == 64 ? 57 : 56));
    for (uint8_t j; (j = c->hix[h]) != 0; h = (h + 1) & hmask)
        if (c->lines[j - 1] == line) return j - 1;
    if (n == cap) return -1;
    c->hix[h] = (uint8_t)(n + 1);
    c->lines[n] = line;
    c->smask[n] = 0;
    c->bytes[n][0] = c->bytes[n][1] = c->bytes[n][2] = c->bytes[n][3] = 0;
    c->nl = n + 1;
    return n;
}

/* an access that crosses a sector: byte by byte per sector. Only bad input reaches the line
 * loop's second line (a trace or program of no real GPU): an access past the end of the
 * 64-bit address space (its end wrapped) keeps the bytes before it, as GPGPU-Sim keeps only a
 * lane's bytes inside its segment */
static void co_add_split(co_lines *c, uint64_t a, uint32_t width, int cap)
{
    uint64_t end = a + width - 1;
    if (end < a) end = UINT64_MAX;
    for (uint64_t line = a >> 7; line <= end >> 7; line++) {
        uint64_t lo = line << 7 > a ? line << 7 : a;
        uint64_t hi = (line << 7) + 127 < end ? (line << 7) + 127 : end;
        int j = line_slot(c, line, cap);
        if (j < 0) continue;
        for (uint64_t b = lo;;) {   /* one sector at a time */
            uint32_t sct = (uint32_t)(b >> 5) & 3;
            uint64_t se = (b | 31) < hi ? (b | 31) : hi;
            uint32_t l5 = (uint32_t)(b & 31), h5 = (uint32_t)(se & 31);
            uint32_t m = (h5 == 31 ? 0xffffffffu : ((1u << (h5 + 1)) - 1u)) & ~((1u << l5) - 1u);
            c->smask[j] |= (uint8_t)(1u << sct);
            c->bytes[j][sct] |= m;
            if (se == hi) break;   /* not b = se + 1 <= hi: se may be the last address */
            b = se + 1;
        }
    }
}

/* one access of `width` bytes at a; wmask: width's bytes as a mask (all 32 from width 32) */
__attribute__((always_inline)) static inline void co_add(co_lines *c, uint64_t a, uint32_t width, uint32_t wmask,
                                                        int cap)
{
    uint32_t l5 = (uint32_t)(a & 31);
    if (l5 + width > 32) {   /* the access crosses a sector (width < 2^32 - 31) */
        co_add_split(c, a, width, cap);
        return;
    }
    int j = line_slot(c, a >> 7, cap);   /* the common case: the access stays in one sector */
    if (j < 0) return;
    uint32_t sct = (uint32_t)(a >> 5) & 3;
    c->smask[j] |= (uint8_t)(1u << sct);
    c->bytes[j][sct] |= wmask << l5;
}

static inline uint32_t width_mask(uint32_t width) { return width >= 32 ? 0xffffffffu : (1u << width) - 1u; }

static inline int co_emit(const co_lines *c, uint32_t segment, gms_txn *out)
{
    int n = 0;
    if (segment == 32) {   /* line_txns' sector case here (host speed: a call per line saved) */
        for (int j = 0; j < c->nl; j++)
            for (uint32_t m = c->smask[j] & 0xfu; m; m &= m - 1) {
                uint32_t k = (uint32_t)__builtin_ctz(m);
                out[n++] = (gms_txn){ .addr = (c->lines[j] << 7) + k * 32u, .sector_mask = (uint8_t)(1u << k),
                                      .nbytes_sectors = 1, .bytes = (uint16_t)__builtin_popcount(c->bytes[j][k]) };
            }
        return n;
    }
    for (int j = 0; j < c->nl; j++) n += line_txns(c->lines[j], c->smask[j], c->bytes[j], segment, out + n);
    return n;
}

int gms_coalesce(const uint64_t addrs[32], uint32_t mask, uint32_t width, int sector, gms_txn out[128])
{
    uint32_t segment = gms_coalesce_segment(width ? width : 4, sector);
    co_lines c;
    co_init(&c, 64);
    if (width == 0) width = 4;
    uint32_t wm = width_mask(width);
    for (uint32_t m = mask; m; m &= m - 1) co_add(&c, addrs[__builtin_ctz(m)], width, wm, 64);
    return co_emit(&c, segment, out);
}

/* a translated local access (local_mem.c): n word accesses of acc_width bytes each (4, or the
 * instruction's width below 4), in segments of the instruction's width as GPGPU-Sim's
 * memory_coalescing_arch (data_size picks the segment, data_size_coales the bytes) */
int gms_coalesce_words(const uint64_t *addrs, int n, uint32_t acc_width, uint32_t inst_width, int sector,
                       gms_txn out[128])
{
    uint32_t segment = gms_coalesce_segment(inst_width ? inst_width : 4, sector);
    co_lines c;
    co_init(&c, 128);
    uint32_t aw = acc_width ? acc_width : 4, wm = width_mask(aw);
    for (int i = 0; i < n; i++) co_add(&c, addrs[i], aw, wm, 128);
    return co_emit(&c, segment, out);
}

int gms_coalesce_range(uint64_t lo, uint64_t hi, uint32_t width, int sector, gms_txn out[128])
{
    uint32_t segment = gms_coalesce_segment(width ? width : 4, sector);
    int n = 0;
    for (uint64_t line = lo >> 7; line <= hi >> 7; line++) {
        uint64_t base = line << 7;
        uint64_t a = lo > base ? lo : base, e = hi < base + 127 ? hi : base + 127;
        uint8_t smask = 0;
        uint32_t bytes[4] = { 0, 0, 0, 0 };
        for (uint32_t sct = (uint32_t)(a >> 5) & 3; sct <= ((uint32_t)(e >> 5) & 3); sct++) {
            uint64_t sb = base + sct * 32u, sa = a > sb ? a : sb, se = e < sb + 31 ? e : sb + 31;
            uint32_t l5 = (uint32_t)(sa & 31), h5 = (uint32_t)(se & 31);
            smask |= (uint8_t)(1u << sct);
            bytes[sct] = (h5 == 31 ? 0xffffffffu : ((1u << (h5 + 1)) - 1u)) & ~((1u << l5) - 1u);
        }
        n += line_txns(line, smask, bytes, segment, out + n);
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
