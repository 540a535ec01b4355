/* Private: one cache line (tag kept separately, contiguous per set, for a fast hit scan) and
 * the replacement-policy ops. Sector state is kept as bit masks (bit i = 32 B sector i; a
 * normal, non-sector cache uses bit 0 for the whole line). The masks valid/reserved/modified
 * are disjoint; a sector in none of them is INVALID (GPGPU-Sim cache_block_state). */
#ifndef GMS_MEM_CACHE_LINE_H
#define GMS_MEM_CACHE_LINE_H
#include <stdint.h>

typedef struct gms_line {
    uint64_t key;              /* replacement key: victim = smallest (LRU: last access, FIFO: alloc) */
    uint8_t valid, reserved, modified;
    uint8_t unreadable;        /* MODIFIED sectors whose bytes are not all known (lazy fetch) */
    uint8_t mod_on_fill;       /* sector becomes MODIFIED, not VALID, when filled */
    uint8_t readable_on_fill;
} gms_line;

static inline int gms_line_is_valid(const gms_line *l) { return (l->valid | l->reserved | l->modified) != 0; }
static inline int gms_line_is_reserved(const gms_line *l) { return l->reserved != 0; }
static inline int gms_line_is_modified(const gms_line *l) { return l->modified != 0; }

/* Replacement policy: how the key moves. Adding a policy = one repl_*.c file + one line in
 * repl.c's registry + its letter accepted by the cache string. cache.c calls on_alloc and
 * on_access only through repl_alloc/repl_access, which keep wide sets' (key, way) order for
 * the victim search. */
typedef struct gms_repl_ops {
    char letter;               /* 'L', 'F' */
    const char *name;          /* "LRU" */
    const char *summary;       /* one line, for `gpumemsim list policies` */
    void (*on_alloc)(gms_line *l, uint64_t now);    /* line (re)allocated to a new block */
    void (*on_access)(gms_line *l, uint64_t now);   /* hit, pending hit, sector allocation */
} gms_repl_ops;

const gms_repl_ops *gms_repl_find(char letter);
extern const struct gms_registry gms_repl_reg;   /* keyed by letter (util/registry.h) */

#endif
