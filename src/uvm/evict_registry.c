/* Eviction policies, chosen by -uvm_eviction (name) or -eviction_policy (UVMSmart's number).
 * Adding one = a file + a line here. */
#include <string.h>
#include "uvm/uvm_internal.h"

extern const gms_uvm_evict_ops gms_uvm_evict_lru4k, gms_uvm_evict_lru64k, gms_uvm_evict_lru2m, gms_uvm_evict_tree,
    gms_uvm_evict_random, gms_uvm_evict_belady;

const gms_uvm_evict_ops *const gms_uvm_evictors[] = {
    &gms_uvm_evict_lru2m,
    &gms_uvm_evict_tree,
    &gms_uvm_evict_lru64k,
    &gms_uvm_evict_random,
    &gms_uvm_evict_lru4k,
    &gms_uvm_evict_belady,
};
const size_t gms_uvm_nevictors = sizeof gms_uvm_evictors / sizeof gms_uvm_evictors[0];

int gms_uvm_evict_find(const char *name)
{
    if (!strcmp(name, "lru")) name = "lru4k";
    if (!strcmp(name, "ne")) name = "lru2m";
    if (!strcmp(name, "se")) name = "lru64k";
    if (!strcmp(name, "te")) name = "tree";
    for (size_t i = 0; i < gms_uvm_nevictors; i++)
        if (!strcmp(gms_uvm_evictors[i]->name, name)) return (int)i;
    return -1;
}

int gms_uvm_evict_find_id(int id)
{
    if (id < 0) return -1;
    for (size_t i = 0; i < gms_uvm_nevictors; i++)
        if (gms_uvm_evictors[i]->uvmsmart_id == id) return (int)i;
    return -1;
}
