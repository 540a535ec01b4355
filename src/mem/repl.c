/* Replacement policies (GPGPU-Sim tag_array::probe): the victim is the non-reserved valid line
 * with the smallest key, ties to the lowest way; an invalid line is preferred (the highest
 * invalid way, as GPGPU-Sim's loop keeps the last one found).
 *   LRU : key = last access time (hit, pending hit, allocation, sector allocation)
 *   FIFO: key = line allocation time */
#include "mem/cache_line.h"
#include "util/registry.h"
#include "config/params.h"
#include <stddef.h>

static void set_key(gms_line *l, uint64_t now) { l->key = now; }
static void keep_key(gms_line *l, uint64_t now) { (void)l; (void)now; }

static const gms_repl_ops lru = { 'L', "LRU", "least recently used: evict the line touched longest ago", set_key, set_key };
static const gms_repl_ops fifo = { 'F', "FIFO", "first in, first out: evict the line allocated longest ago", set_key,
                                   keep_key };

static const gms_repl_ops *const registry[] = { &lru, &fifo };

static long chosen(const struct gms_params *p);
GMS_REGISTRY_DEFINE_EX(gms_repl_reg, "replacement policy", "gpgpu_cache:dl1 (replacement letter)", gms_repl_ops,
                       registry, name, summary, NULL, offsetof(gms_repl_ops, letter), chosen);
static long chosen(const struct gms_params *p)
{
    return p->l1d.dl1.enabled ? gms_reg_index_n(&gms_repl_reg, &p->l1d.dl1.repl, 1) : -1;
}

const gms_repl_ops *gms_repl_find(char letter)
{
    long i = gms_reg_index_n(&gms_repl_reg, &letter, 1);
    return i < 0 ? NULL : registry[i];
}
