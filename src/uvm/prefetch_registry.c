/* Prefetchers, chosen by -uvm_prefetcher (name) or -hardware_prefetch (UVMSmart's number).
 * Adding one = a file + a line here. */
#include <string.h>
#include "uvm/uvm_internal.h"

extern const gms_uvm_prefetch_ops gms_uvm_prefetch_none, gms_uvm_prefetch_tree, gms_uvm_prefetch_seq,
    gms_uvm_prefetch_random;

const gms_uvm_prefetch_ops *const gms_uvm_prefetchers[] = {
    &gms_uvm_prefetch_none,
    &gms_uvm_prefetch_tree,
    &gms_uvm_prefetch_seq,
    &gms_uvm_prefetch_random,
};
const size_t gms_uvm_nprefetchers = sizeof gms_uvm_prefetchers / sizeof gms_uvm_prefetchers[0];

int gms_uvm_prefetch_find(const char *name)
{
    if (!strcmp(name, "sequential-local") || !strcmp(name, "sl")) name = "seq";
    if (!strcmp(name, "tbn") || !strcmp(name, "tbnp")) name = "tree";
    for (size_t i = 0; i < gms_uvm_nprefetchers; i++)
        if (!strcmp(gms_uvm_prefetchers[i]->name, name)) return (int)i;
    return -1;
}

int gms_uvm_prefetch_find_id(int id)
{
    for (size_t i = 0; i < gms_uvm_nprefetchers; i++)
        if (gms_uvm_prefetchers[i]->uvmsmart_id == id) return (int)i;
    return -1;
}
