#include "workloads/wl_shadow.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_BITS 12   /* WL_SHADOW_PAGE = 1 << PAGE_BITS */
#define CACHE 256   /* a power of two */

/* key = page number + 1 (0: empty). page NULL: a page held (counted in `used`, towards the
 * bound) whose bytes are all zero, not given memory until a non-zero byte is written to it
 * (host speed: wl_shadow_write of an output array's initial zeros touches no memory; the
 * bound is passed at the same write as when every page was allocated at once) */
typedef struct sh_slot { uint64_t key; uint8_t *page; } sh_slot;

struct wl_shadow {
    sh_slot *tab;
    uint64_t cap, used;        /* slots (a power of two), pages held */
    uint64_t max_pages;
    int overflow;
    /* host speed: recently used pages, direct-mapped by a hash of the page number (a warp's
     * lanes mostly fall in one page; a stencil's loads alternate between a few; a column walk
     * of a row-major array visits pages a fixed distance apart, which the page number's low
     * bits would map to a few entries) */
    uint64_t ckey[CACHE];
    uint8_t *cpage[CACHE];
    uint64_t loads, stores;    /* instructions seen (numbering for the perturbation hook) */
    uint64_t perturb_store, perturb_load;
    int64_t perturb_delta;
    /* read-only input arrays (wl_shadow_write_ro): device range and host copy */
    struct { uint64_t dev, n; const uint8_t *host; } ro[16];
    int nro;
    int bad;                   /* a mismatch or a misuse was recorded in msg */
    char msg[400];
};

wl_shadow *wl_shadow_new(uint64_t max_bytes)
{
    wl_shadow *sh = gms_xcalloc(1, sizeof *sh);
    sh->cap = 1024;
    sh->tab = gms_xcalloc(sh->cap, sizeof *sh->tab);
    sh->max_pages = max_bytes / WL_SHADOW_PAGE;
    return sh;
}

static void drop_pages(wl_shadow *sh)
{
    for (uint64_t i = 0; i < sh->cap; i++) free(sh->tab[i].page);
    memset(sh->tab, 0, sh->cap * sizeof *sh->tab);
    sh->used = 0;
    memset(sh->ckey, 0, sizeof sh->ckey);
}

void wl_shadow_free(wl_shadow *sh)
{
    if (!sh) return;
    drop_pages(sh);
    free(sh->tab);
    free(sh);
}

int wl_shadow_active(const wl_shadow *sh) { return sh && !sh->overflow; }
int wl_shadow_overflowed(const wl_shadow *sh) { return sh && sh->overflow; }
uint64_t wl_shadow_loads(const wl_shadow *sh) { return sh ? sh->loads : 0; }
uint64_t wl_shadow_stores(const wl_shadow *sh) { return sh ? sh->stores : 0; }

static uint64_t slot_of(const wl_shadow *sh, uint64_t key)
{
    uint64_t h = (key * 0x9e3779b97f4a7c15ULL) >> 17 & (sh->cap - 1);
    while (sh->tab[h].key && sh->tab[h].key != key) h = (h + 1) & (sh->cap - 1);
    return h;
}

static void grow(wl_shadow *sh)
{
    sh_slot *old = sh->tab;
    uint64_t ocap = sh->cap;
    sh->cap *= 2;
    sh->tab = gms_xcalloc(sh->cap, sizeof *sh->tab);
    for (uint64_t i = 0; i < ocap; i++)
        if (old[i].key) sh->tab[slot_of(sh, old[i].key)] = old[i];
    free(old);
}

/* the slot of page key, held from now on if create (its page NULL: all zero); NULL when
 * absent and !create, or when the bound was passed (the shadow then stops: what it held is
 * no longer the whole device memory). Valid until the next slot is added. */
static sh_slot *slot_get(wl_shadow *sh, uint64_t key, int create)
{
    if (sh->overflow) return NULL;
    uint64_t h = slot_of(sh, key);
    if (!sh->tab[h].key) {
        if (!create) return NULL;
        if (sh->used >= sh->max_pages) {
            sh->overflow = 1;
            drop_pages(sh);
            return NULL;
        }
        if (2 * (sh->used + 1) > sh->cap) {
            grow(sh);
            h = slot_of(sh, key);
        }
        sh->tab[h].key = key;
        sh->tab[h].page = NULL;
        sh->used++;
    }
    return &sh->tab[h];
}

static inline unsigned cache_of(uint64_t key)
{
    return (unsigned)((key * 0x9e3779b97f4a7c15ULL) >> 56) & (CACHE - 1);
}

static uint8_t *page_miss(wl_shadow *sh, uint64_t key, unsigned c, int create);

/* the page holding addr (given memory if create); NULL when absent or all zero and !create,
 * or when the bound was passed. Host speed: a page in the cache (nearly every lookup)
 * without a call. */
static inline uint8_t *page_of(wl_shadow *sh, uint64_t addr, int create)
{
    uint64_t key = (addr >> PAGE_BITS) + 1;
    unsigned c = cache_of(key);
    if (key == sh->ckey[c]) return sh->cpage[c];
    return page_miss(sh, key, c, create);
}

/* page_of's lookup in the table, c = cache_of(key) */
static uint8_t *page_miss(wl_shadow *sh, uint64_t key, unsigned c, int create)
{
    sh_slot *sl = slot_get(sh, key, create);
    if (!sl) return NULL;
    if (!sl->page) {
        if (!create) return NULL;
        sl->page = gms_xcalloc(1, WL_SHADOW_PAGE);
    }
    sh->ckey[c] = key;   /* pages with memory only */
    sh->cpage[c] = sl->page;
    return sl->page;
}

static int all_zero(const uint8_t *p, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        if (v) return 0;
    }
    for (; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

void wl_shadow_write(wl_shadow *sh, uint64_t addr, const void *src, uint64_t n)
{
    const uint8_t *s = src;
    while (n && !sh->overflow) {
        uint64_t off = addr & (WL_SHADOW_PAGE - 1), k = WL_SHADOW_PAGE - off;
        if (k > n) k = n;
        if (all_zero(s, k)) {
            /* zeros: a page with memory takes them; one held all zero or not held yet (it
             * is now, counted as before) stays without memory */
            uint64_t key = (addr >> PAGE_BITS) + 1;
            uint8_t *p = key == sh->ckey[cache_of(key)] ? sh->cpage[cache_of(key)] : NULL;
            if (!p) {
                sh_slot *sl = slot_get(sh, key, 1);
                if (!sl) return;
                p = sl->page;
            }
            if (p) memset(p + off, 0, k);
        } else {
            uint8_t *p = page_of(sh, addr, 1);
            if (!p) return;
            memcpy(p + off, s, k);
        }
        addr += k, s += k, n -= k;
    }
}

void wl_shadow_read(const wl_shadow *csh, uint64_t addr, void *dst, uint64_t n)
{
    wl_shadow *sh = (wl_shadow *)csh;   /* the page cache only */
    uint8_t *d = dst;
    while (n) {
        uint64_t off = addr & (WL_SHADOW_PAGE - 1), k = WL_SHADOW_PAGE - off;
        if (k > n) k = n;
        uint8_t *p = page_of(sh, addr, 0);
        if (p) memcpy(d, p + off, k); else memset(d, 0, k);
        addr += k, d += k, n -= k;
    }
}

void wl_shadow_write_ro(wl_shadow *sh, uint64_t dev, const void *host, uint64_t n)
{
    wl_shadow_write(sh, dev, host, n);
    wl_shadow_ro_begin(sh, dev, host, n);
}

/* 0, or -1 with the mismatch recorded: read-only array i's host copy against the shadow */
static int ro_check(wl_shadow *sh, int i)
{
    uint8_t buf[4096];
    for (uint64_t o = 0; o < sh->ro[i].n; o += sizeof buf) {
        uint64_t k = sh->ro[i].n - o < sizeof buf ? sh->ro[i].n - o : sizeof buf;
        wl_shadow_read(sh, sh->ro[i].dev + o, buf, k);
        if (memcmp(buf, sh->ro[i].host + o, k)) {
            if (!sh->bad)
                snprintf(sh->msg, sizeof sh->msg, "shadow memory: the host copy of the read-only array at 0x%llx "
                         "differs from device memory (changed after it was declared read-only, or never stored "
                         "there)", (unsigned long long)sh->ro[i].dev);
            sh->bad = 1;
            return -1;
        }
    }
    return 0;
}

void wl_shadow_ro_end(wl_shadow *sh, uint64_t dev)
{
    if (!wl_shadow_active(sh)) return;
    for (int i = 0; i < sh->nro; i++)
        if (sh->ro[i].dev == dev) {
            ro_check(sh, i);
            sh->ro[i] = sh->ro[--sh->nro];
            return;
        }
}

void wl_shadow_ro_begin(wl_shadow *sh, uint64_t dev, const void *host, uint64_t n)
{
    if (!wl_shadow_active(sh) || !n) return;
    for (int i = 0; i < sh->nro; i++)   /* uploaded again (a repeat): the same array */
        if (sh->ro[i].dev == dev) { sh->ro[i].n = n; sh->ro[i].host = host; return; }
    if (sh->nro == (int)(sizeof sh->ro / sizeof sh->ro[0])) return;
    sh->ro[sh->nro].dev = dev;
    sh->ro[sh->nro].n = n;
    sh->ro[sh->nro].host = host;
    sh->nro++;
}

/* the read-only array holding bytes [lo, hi] (device addresses), or -1 */
static int ro_of(const wl_shadow *sh, uint64_t lo, uint64_t hi)
{
    for (int i = 0; i < sh->nro; i++)
        if (lo >= sh->ro[i].dev && hi < sh->ro[i].dev + sh->ro[i].n) return i;
    return -1;
}

/* 1 iff [lo, hi] overlaps a read-only array */
static int ro_overlap(const wl_shadow *sh, uint64_t lo, uint64_t hi)
{
    for (int i = 0; i < sh->nro; i++)
        if (hi >= sh->ro[i].dev && lo < sh->ro[i].dev + sh->ro[i].n) return 1;
    return 0;
}

/* the test hook: move the first active lane of `in` by delta bytes in the record itself
 * (a stride record with several lanes becomes a list, the one form that can say it) */
static void perturb(const wl_shadow *sh, gms_warp_trace *w, gms_inst *in)
{
    uint64_t a[32], list[32];
    int n = gms_inst_lane_addrs(w, in, a);
    if (n == 0) return;
    int k = 0;
    for (uint32_t m = in->mask; m; m &= m - 1) list[k++] = a[__builtin_ctz(m)];
    list[0] += (uint64_t)sh->perturb_delta;
    if (in->addr_mode == GMS_ADDR_LIST) {
        w->addrs[in->base] = list[0];
    } else if (n == 1) {
        in->base = list[0];
    } else {
        in->base = gms_warp_push_addrs(w, list, (uint32_t)n);
        in->addr_mode = GMS_ADDR_LIST;
        in->stride = 0;
    }
}

static int check_size(wl_shadow *sh, const gms_inst *in, size_t size, const char *what)
{
    if (size == in->width) return 0;
    if (!sh->bad)
        snprintf(sh->msg, sizeof sh->msg, "shadow memory: %zu-byte lane values given for a %u-byte %s at pc 0x%x",
                 size, in->width, what, in->pc);
    sh->bad = 1;
    return -1;
}

/* Host speed: a stride record whose active lanes are one run of lanes (lane values
 * consecutive in vals) and whose bytes lie in one page: 1, the first lane and *pg = the page
 * (NULL: not held or all zero when !create; the bound passed when create), else 0 */
static inline int one_page_run(wl_shadow *sh, const gms_inst *in, size_t size, int create, int *first, int *n,
                               uint8_t **pg)
{
    uint32_t mask = in->mask;
    if (in->addr_mode != GMS_ADDR_STRIDE || !mask) return 0;
    *first = __builtin_ctz(mask);
    *n = __builtin_popcount(mask);
    uint32_t run = mask >> *first;
    if (run & (run + 1)) return 0;   /* not one run of lanes */
    int64_t st = *n > 1 ? in->stride : (int64_t)size;
    if (st != (int64_t)size && st != 0) return 0;
    uint64_t last = in->base + (st ? (uint64_t)*n * size : size) - 1;
    if ((in->base ^ last) >> PAGE_BITS) return 0;
    *pg = page_of(sh, in->base, create);
    return 1;
}

/* one lane's value (4 or 8 bytes nearly always): compared / copied without a library call */
static inline int lane_same(const uint8_t *a, const uint8_t *b, size_t size)
{
    if (size == 4) { uint32_t x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); return x == y; }
    if (size == 8) { uint64_t x, y; memcpy(&x, a, 8); memcpy(&y, b, 8); return x == y; }
    return !memcmp(a, b, size);
}

/* 16 bytes per operation (GCC's generic vectors: SSE on x86-64, scalar code elsewhere) */
typedef uint32_t sh_v4u __attribute__((vector_size(16)));
static inline sh_v4u v4u_ld(const uint8_t *p) { sh_v4u v; memcpy(&v, p, sizeof v); return v; }
static inline int v4u_zero(sh_v4u d) { return !(d[0] | d[1] | d[2] | d[3]); }

/* 1 iff the n bytes at a and b are the same (host speed: a warp's 128 bytes without a call,
 * a tail of 4-byte lanes too; no early exit, the answer only) */
static inline int bytes_same(const uint8_t *a, const uint8_t *b, size_t n)
{
    sh_v4u d = { 0, 0, 0, 0 };
    size_t i = 0;
    for (; i + 16 <= n; i += 16) d |= v4u_ld(a + i) ^ v4u_ld(b + i);
    uint32_t t = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t x, y;
        memcpy(&x, a + i, 4);
        memcpy(&y, b + i, 4);
        t |= x ^ y;
    }
    return v4u_zero(d) && !t && (i == n || !memcmp(a + i, b + i, n - i));
}

/* 1 iff every one of the n lane values at x (size bytes each) equals the one at at: without a
 * branch per lane (host speed: a broadcast load's 32 lanes) */
static inline int lanes_all(const uint8_t *at, const uint8_t *x, int n, size_t size)
{
    if (size == 4) {
        uint32_t ref, d = 0;
        memcpy(&ref, at, 4);
        const sh_v4u r4 = { ref, ref, ref, ref };
        sh_v4u d4 = { 0, 0, 0, 0 };
        int k = 0;
        for (; k + 4 <= n; k += 4) d4 |= v4u_ld(x + 4 * (size_t)k) ^ r4;
        for (; k < n; k++) { uint32_t v; memcpy(&v, x + 4 * (size_t)k, 4); d |= v ^ ref; }
        return d == 0 && v4u_zero(d4);
    }
    if (size == 8) {
        uint64_t ref, d = 0;
        memcpy(&ref, at, 8);
        for (int k = 0; k < n; k++) { uint64_t v; memcpy(&v, x + 8 * (size_t)k, 8); d |= v ^ ref; }
        return d == 0;
    }
    int ok = 1;
    for (int k = 0; k < n && ok; k++) ok = !memcmp(at, x + (size_t)k * size, size);
    return ok;
}

static inline void lane_copy(uint8_t *d, const uint8_t *s, size_t size)
{
    if (size == 4) memcpy(d, s, 4);
    else if (size == 8) memcpy(d, s, 8);
    else memcpy(d, s, size);
}

void wl_shadow_store(wl_shadow *sh, gms_warp_trace *w, gms_inst *in, const void *vals, size_t size)
{
    if (!wl_shadow_active(sh) || !in->mask || check_size(sh, in, size, "store")) return;
    if (++sh->stores == sh->perturb_store) perturb(sh, w, in);
    if (sh->nro) {
        uint64_t a[32], lo = UINT64_MAX, hi = 0;
        gms_inst_lane_addrs(w, in, a);
        for (uint32_t m = in->mask; m; m &= m - 1) {
            uint64_t x = a[__builtin_ctz(m)];
            if (x < lo) lo = x;
            if (x + size - 1 > hi) hi = x + size - 1;
        }
        if (ro_overlap(sh, lo, hi) && !sh->bad) {
            snprintf(sh->msg, sizeof sh->msg, "shadow memory: store at pc 0x%x to 0x%llx..0x%llx, inside an array "
                     "declared read-only (wl_shadow_write_ro)", in->pc, (unsigned long long)lo, (unsigned long long)hi);
            sh->bad = 1;
        }
    }
    int first, n;
    uint8_t *pg = NULL;
    if (in->stride && one_page_run(sh, in, size, 1, &first, &n, &pg) && pg) {   /* consecutive elements: one copy */
        memcpy(pg + (in->base & (WL_SHADOW_PAGE - 1)), (const uint8_t *)vals + (size_t)first * size, (size_t)n * size);
        return;
    }
    uint64_t a[32];
    gms_inst_lane_addrs(w, in, a);
    /* host speed: the page of the previous lane's address, looked up again only when a lane
     * is on another one (a page found stays valid until the bound is passed, which ends the
     * walk: the shadow then takes no more writes) */
    uint64_t lastpn = UINT64_MAX;
    uint8_t *lastp = NULL;
    /* lanes in order: when two lanes store to one address, the highest lane wins, as the
     * timing model's coalescer does not say otherwise and CUDA leaves it undefined */
    for (uint32_t m = in->mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        const uint8_t *v = (const uint8_t *)vals + (size_t)l * size;
        uint64_t off = a[l] & (WL_SHADOW_PAGE - 1);
        uint8_t *p = NULL;
        if (off + size <= WL_SHADOW_PAGE) {
            if (a[l] >> PAGE_BITS != lastpn) { lastpn = a[l] >> PAGE_BITS; lastp = page_of(sh, a[l], 1); }
            p = lastp;
        }
        /* host speed: a lane inside one page is copied in place (the usual case) */
        if (p) lane_copy(p + off, v, size);
        else wl_shadow_write(sh, a[l], v, size);
        if (sh->overflow) return;
    }
}

static double as_double(const uint8_t *b, size_t size)
{
    if (size == 4) { float f; memcpy(&f, b, 4); return f; }
    if (size == 8) { double d; memcpy(&d, b, 8); return d; }
    return 0;
}

static unsigned long long as_bits(const uint8_t *b, size_t size)
{
    uint64_t v = 0;
    memcpy(&v, b, size < 8 ? size : 8);
    return (unsigned long long)v;
}

/* Host speed: a list record whose active lanes are a few stretches of consecutive lanes at
 * consecutive addresses (a stencil's or a convolution's row across two columns of a column
 * major array): 1 iff each stretch lies in one page with memory and holds the stretch's lane
 * values, a compare per stretch, without the lanes' address array; else 0, and the lane by
 * lane walk decides (it finds a mismatch exactly when this finds a stretch that differs) */
static int list_stretches_same(wl_shadow *sh, const gms_warp_trace *w, const gms_inst *in, const uint8_t *want,
                               size_t size)
{
    const uint64_t *ad = w->addrs + in->base;   /* the k-th active lane's address */
    uint64_t m = in->mask;                       /* 64 bits: m >> 32 is defined */
    int k = 0;
    while (m) {
        const int l = __builtin_ctzll(m);
        int j = 1;   /* lanes l .. l+j-1: active, at ad[k] + (lane - l) * size */
        while (m >> (l + j) & 1 && ad[k + j] == ad[k] + (uint64_t)j * size) j++;
        const uint64_t a0 = ad[k], off = a0 & (WL_SHADOW_PAGE - 1);
        if (off + (uint64_t)j * size > WL_SHADOW_PAGE) return 0;
        const uint8_t *p = page_of(sh, a0, 0);
        if (!p || !bytes_same(p + off, want + (size_t)l * size, (size_t)j * size)) return 0;
        m &= ~(((1ULL << j) - 1) << l);
        k += j;
    }
    return 1;
}

void wl_shadow_load(wl_shadow *sh, gms_warp_trace *w, gms_inst *in, const void *want, size_t size)
{
    if (!wl_shadow_active(sh) || !in->mask || check_size(sh, in, size, "load")) return;
    if (++sh->loads == sh->perturb_load) perturb(sh, w, in);
    if (sh->bad) return;   /* the first mismatch is the one to report */
    if (sh->nro && in->addr_mode == GMS_ADDR_STRIDE) {
        /* consecutive elements of a read-only array, the values read from its host copy at the
         * same place: the lanes use exactly the elements at their addresses */
        const int f = __builtin_ctz(in->mask), k = __builtin_popcount(in->mask);
        const uint32_t run = in->mask >> f;
        if (!(run & (run + 1)) && (k == 1 || in->stride == (int64_t)size)) {
            const uint64_t lo = in->base, hi = in->base + (uint64_t)k * size - 1;
            const int r = ro_of(sh, lo, hi);
            if (r >= 0 && (const uint8_t *)want + (size_t)f * size == sh->ro[r].host + (lo - sh->ro[r].dev)) return;
        }
    }
    int first, n;
    uint8_t *pg;
    if (one_page_run(sh, in, size, 0, &first, &n, &pg)) {
        /* one page: consecutive elements in one compare, or one element for all; a page not
         * held or all zero: every lane's value must be zero bytes */
        const uint8_t *x = (const uint8_t *)want + (size_t)first * size;
        int ok;
        if (!pg) ok = all_zero(x, (uint64_t)n * size);
        else if (n == 1 || in->stride) {
            const uint8_t *at = pg + (in->base & (WL_SHADOW_PAGE - 1));
            ok = bytes_same(at, x, (size_t)n * size);
            /* host speed: the next warp usually reads the next stretch; ask for it (a hint
             * only, inside this page) */
            if ((in->base & (WL_SHADOW_PAGE - 1)) + 2 * (uint64_t)n * size <= WL_SHADOW_PAGE) {
                __builtin_prefetch(at + (size_t)n * size);
                if ((size_t)n * size > 64) __builtin_prefetch(at + (size_t)n * size + 64);
            }
        }
        else ok = lanes_all(pg + (in->base & (WL_SHADOW_PAGE - 1)), x, n, size);   /* a broadcast */
        if (ok) return;   /* else the lane by lane walk names the lane */
    } else if (in->addr_mode == GMS_ADDR_LIST && list_stretches_same(sh, w, in, want, size)) {
        return;
    }
    uint64_t a[32];
    gms_inst_lane_addrs(w, in, a);
    uint8_t got[16];
    /* host speed: the page of the previous lane's address, looked up again only when a lane
     * is on another one (a load creates no page, so a page found stays valid) */
    uint64_t lastpn = UINT64_MAX;
    const uint8_t *lastp = NULL;
    for (uint32_t m = in->mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        const uint8_t *x = (const uint8_t *)want + (size_t)l * size;
        /* host speed: a lane inside a page held is compared in place, without a copy or a
         * call per lane; a lane on a page never written, or across two pages, is read out */
        uint64_t off = a[l] & (WL_SHADOW_PAGE - 1);
        const uint8_t *p = NULL;
        if (off + size <= WL_SHADOW_PAGE) {
            if (a[l] >> PAGE_BITS != lastpn) { lastpn = a[l] >> PAGE_BITS; lastp = page_of(sh, a[l], 0); }
            p = lastp;
        }
        if (p ? lane_same(p + off, x, size) : off + size <= WL_SHADOW_PAGE && all_zero(x, size)) continue;
        wl_shadow_read(sh, a[l], got, size);
        if (!memcmp(got, x, size)) continue;
        snprintf(sh->msg, sizeof sh->msg,
                 "load at pc 0x%x, lane %d, address 0x%llx: memory holds %.9g (bits 0x%llx) but the lane "
                 "computed with %.9g (bits 0x%llx), so the emitted address is not the element the kernel reads",
                 in->pc, l, (unsigned long long)a[l], as_double(got, size), as_bits(got, size),
                 as_double(x, size), as_bits(x, size));
        sh->bad = 1;
        return;
    }
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

uint64_t wl_shadow_digest(const wl_shadow *sh)
{
    if (!sh) return 0;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < sh->cap; i++) {
        const uint8_t *p = sh->tab[i].page;
        if (!p || all_zero(p, WL_SHADOW_PAGE)) continue;
        uint64_t h = mix64(sh->tab[i].key);
        for (uint64_t k = 0; k < WL_SHADOW_PAGE; k += 8) {
            uint64_t v;
            memcpy(&v, p + k, 8);
            h = mix64(h ^ v) + k;
        }
        sum += h;   /* a sum: the same whatever the table's order */
    }
    return sum;
}

int wl_shadow_status(const wl_shadow *csh, const char *wl, gms_error *err)
{
    wl_shadow *sh = (wl_shadow *)csh;   /* the page cache only */
    /* the read-only arrays' host copies still hold what was written (the loads that passed by
     * their place in the host copy relied on it) */
    for (int i = 0; sh && !sh->bad && !sh->overflow && i < sh->nro; i++) ro_check(sh, i);
    if (!sh || !sh->bad) return 0;
    return gms_err(err, "workload %s: %s", wl, sh->msg);
}

void wl_shadow_perturb(wl_shadow *sh, uint64_t nth_store, uint64_t nth_load, int64_t delta)
{
    sh->perturb_store = nth_store;
    sh->perturb_load = nth_load;
    sh->perturb_delta = delta;
}
