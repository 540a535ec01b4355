/* Replacement policies (GPGPU-Sim tag_array::probe): the victim is the non-reserved valid line
 * with the smallest key, ties to the lowest way; an invalid line is preferred (the highest
 * invalid way, as GPGPU-Sim's loop keeps the last one found).
 *   LRU : key = last access time (hit, pending hit, allocation, sector allocation)
 *   FIFO: key = line allocation time */
#include "mem/cache_line.h"
#include <stddef.h>

static void set_key(gms_line *l, uint64_t now) { l->key = now; }
static void keep_key(gms_line *l, uint64_t now) { (void)l; (void)now; }

static const gms_repl_ops lru = { 'L', "LRU", set_key, set_key };
static const gms_repl_ops fifo = { 'F', "FIFO", set_key, keep_key };

static const gms_repl_ops *const registry[] = { &lru, &fifo };

const gms_repl_ops *gms_repl_find(char letter)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (registry[i]->letter == letter) return registry[i];
    return NULL;
}
