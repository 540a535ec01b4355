/* The coalescer for global atomics (ATOM, ATOMG, RED), as GPGPU-Sim does it
 * (warp_inst_t::memory_coalescing_arch_atomic and memory_coalescing_arch_reduce_and_send in
 * abstract_hardware_model.cc). Unlike loads and stores, lanes whose bytes overlap never share
 * a request: each lane, in lane order, joins the first request of its segment that does not
 * yet hold any of its bytes, or opens a new one. So a segment costs as many requests as the
 * most lanes on any one of its bytes: 32 lanes on one word are 32 requests, 8 lanes on each
 * of 4 words of a sector are 8 requests of 4 lanes, 32 different words of a sector are one. */
#include "core/sm.h"

/* GPGPU-Sim's segment size for an atomic of `width` bytes. Accel-Sim's trace front end makes
 * every ATOM/ATOMG/RED CACHE_GLOBAL, so the Fermi/Kepler rule (20 <= arch < 39: 32 B segments
 * for CACHE_GLOBAL) and the Maxwell+ rule (arch >= 40: always 32 B) both give 32 B; GT200
 * (13) and, by the same test's gap, arch 39 keep 128 B segments (64 B for 2-byte atomics). */
uint32_t gms_atomic_segment(uint32_t coalesce_arch, uint32_t width)
{
    int sector = (coalesce_arch >= 20 && coalesce_arch < 39) || coalesce_arch >= 40;
    if (width == 1) return 32;
    if (width == 2) return sector ? 32 : 64;
    return sector ? 32 : 128;
}

typedef struct atx {
    uint64_t seg;        /* segment address */
    uint8_t chunks;      /* 32 B chunks of its 128 B line it touches (transaction_info::chunks) */
    uint32_t bytes[4];   /* the bytes it holds, per chunk (transaction_info::bytes) */
} atx;

/* the bytes [lo, hi] of one chunk as a mask of that chunk's 32 bytes */
static uint32_t chunk_bytes(uint32_t lo, uint32_t hi)
{
    return (hi == 31 ? 0xffffffffu : ((1u << (hi + 1)) - 1u)) & ~((1u << lo) - 1u);
}

/* do the bytes [a, e] (inside one 128 B line) overlap what t holds? */
static int overlaps(const atx *t, uint64_t a, uint64_t e)
{
    for (uint64_t b = a;; b = (b | 31) + 1) {   /* until the chunk holding e (it may be the last address) */
        uint64_t ce = (b | 31) < e ? (b | 31) : e;
        if (t->bytes[(b >> 5) & 3] & chunk_bytes((uint32_t)(b & 31), (uint32_t)(ce & 31))) return 1;
        if (ce == e) return 0;
    }
}

static void add_bytes(atx *t, uint64_t a, uint64_t e)
{
    for (uint64_t b = a;; b = (b | 31) + 1) {
        uint64_t ce = (b | 31) < e ? (b | 31) : e;
        uint32_t c = (uint32_t)(b >> 5) & 3;
        t->chunks |= (uint8_t)(1u << c);
        t->bytes[c] |= chunk_bytes((uint32_t)(b & 31), (uint32_t)(ce & 31));
        if (ce == e) return;
    }
}

/* reduce_and_send (gms_segment_reduce): the request keeps the chunks it touches */
static gms_txn reduce(const atx *t, uint32_t segment)
{
    uint32_t nb = 0;
    for (int c = 0; c < 4; c++) nb += (uint32_t)__builtin_popcount(t->bytes[c]);
    return gms_segment_reduce(t->seg, segment, t->chunks, nb);
}

int gms_coalesce_atomic(const uint64_t addrs[32], uint32_t mask, uint32_t width, uint32_t segment, gms_txn out[128])
{
    atx t[64];
    int n = 0;
    if (width == 0) width = 4;
    for (int lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1u)) continue;
        uint64_t a = addrs[lane], end = a + width - 1;
        if (end < a) end = UINT64_MAX;   /* past the end of the address space: bad input, as gms_coalesce */
        /* GPGPU-Sim asserts that a lane stays in one segment (an aligned atomic does); a
         * misaligned one is taken here one segment piece at a time */
        for (uint64_t lo = a; lo <= end;) {
            uint64_t seg = lo & ~(uint64_t)(segment - 1);
            uint64_t hi = seg + segment - 1 < end ? seg + segment - 1 : end;
            int j;
            for (j = 0; j < n; j++)
                if (t[j].seg == seg && !overlaps(&t[j], lo, hi)) break;
            if (j == n) {
                if (n == 64) break;   /* cannot happen: at most 2 pieces per lane */
                t[n] = (atx){ .seg = seg };
                n++;
            }
            add_bytes(&t[j], lo, hi);
            if (hi == UINT64_MAX) break;
            lo = hi + 1;
        }
    }
    /* std::map order: ascending segment; within a segment, the order the requests were opened
     * (insertion sort: stable) */
    for (int i = 1; i < n; i++) {
        atx x = t[i];
        int j = i - 1;
        while (j >= 0 && t[j].seg > x.seg) { t[j + 1] = t[j]; j--; }
        t[j + 1] = x;
    }
    for (int i = 0; i < n; i++) out[i] = reduce(&t[i], segment);
    return n;
}
