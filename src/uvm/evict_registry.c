/* Eviction policies, chosen by -uvm_eviction (name) or -eviction_policy (UVMSmart's number).
 * Adding one = a file + a line here. */
#include "uvm/uvm_internal.h"
#include "config/params.h"

extern const gms_uvm_evict_ops gms_uvm_evict_lru4k, gms_uvm_evict_lru64k, gms_uvm_evict_lru2m, gms_uvm_evict_tree,
    gms_uvm_evict_random, gms_uvm_evict_belady, gms_uvm_evict_ture, gms_uvm_evict_rrip, gms_uvm_evict_clockpro, gms_uvm_evict_hpe;

const gms_uvm_evict_ops *const gms_uvm_evictors[] = {
    &gms_uvm_evict_lru2m,
    &gms_uvm_evict_tree,
    &gms_uvm_evict_lru64k,
    &gms_uvm_evict_random,
    &gms_uvm_evict_lru4k,
    &gms_uvm_evict_belady,
    &gms_uvm_evict_ture,
    &gms_uvm_evict_rrip,
    &gms_uvm_evict_clockpro,
    &gms_uvm_evict_hpe,
};
const size_t gms_uvm_nevictors = sizeof gms_uvm_evictors / sizeof gms_uvm_evictors[0];

/* UVMSmart's and the papers' names: NE (2 MiB), SE (64 KiB), TE (tree) */
static const gms_reg_alias aliases[] = {
    { "lru", "lru4k" }, { "ne", "lru2m" }, { "se", "lru64k" }, { "te", "tree" }, { NULL, NULL },
};
static long chosen(const struct gms_params *p) { return p->uvm.evict_id; }
GMS_REGISTRY_DEFINE_KNOBS(gms_uvm_evict_reg, "eviction policy", "uvm_eviction", gms_uvm_evict_ops, gms_uvm_evictors,
                          name, help, knobs, aliases, chosen, NULL);

int gms_uvm_evict_find(const char *name) { return (int)gms_reg_index(&gms_uvm_evict_reg, name); }

void gms_uvm_evict_ids(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < gms_uvm_nevictors && used + 1 < n; i++)
        if (gms_uvm_evictors[i]->uvmsmart_id >= 0)
            used += (size_t)snprintf(buf + used, n - used, "%s%d %s", used ? ", " : "", gms_uvm_evictors[i]->uvmsmart_id,
                                     gms_uvm_evictors[i]->name);
}

int gms_uvm_evict_find_id(int id)
{
    if (id < 0) return -1;
    for (size_t i = 0; i < gms_uvm_nevictors; i++)
        if (gms_uvm_evictors[i]->uvmsmart_id == id) return (int)i;
    return -1;
}
