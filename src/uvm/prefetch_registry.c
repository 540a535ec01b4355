/* Prefetchers, chosen by -uvm_prefetcher (name) or -hardware_prefetch (UVMSmart's number).
 * Adding one = a file + a line here. */
#include "uvm/uvm_internal.h"
#include "config/params.h"

extern const gms_uvm_prefetch_ops gms_uvm_prefetch_none, gms_uvm_prefetch_tree, gms_uvm_prefetch_seq,
    gms_uvm_prefetch_random, gms_uvm_prefetch_cap;

const gms_uvm_prefetch_ops *const gms_uvm_prefetchers[] = {
    &gms_uvm_prefetch_none,
    &gms_uvm_prefetch_tree,
    &gms_uvm_prefetch_seq,
    &gms_uvm_prefetch_random,
    &gms_uvm_prefetch_cap,
};
const size_t gms_uvm_nprefetchers = sizeof gms_uvm_prefetchers / sizeof gms_uvm_prefetchers[0];

/* the papers' names for the same policies */
static const gms_reg_alias aliases[] = {
    { "sequential-local", "seq" }, { "sl", "seq" }, { "tbn", "tree" }, { "tbnp", "tree" }, { NULL, NULL },
};
static long chosen(const struct gms_params *p) { return p->uvm.prefetch_id; }
/* two roles: the prefetcher before and the one after oversubscription */
static int knob_used(const struct gms_params *p, size_t i, const char *knob)
{
    (void)knob;
    return (long)i == p->uvm.prefetch_id || (long)i == p->uvm.prefetch_oversub_id;
}
GMS_REGISTRY_DEFINE_KNOBS(gms_uvm_prefetch_reg, "prefetcher", "uvm_prefetcher", gms_uvm_prefetch_ops,
                          gms_uvm_prefetchers, name, help, knobs, aliases, chosen, knob_used);

int gms_uvm_prefetch_find(const char *name) { return (int)gms_reg_index(&gms_uvm_prefetch_reg, name); }

void gms_uvm_prefetch_ids(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < gms_uvm_nprefetchers && used + 1 < n; i++)
        if (gms_uvm_prefetchers[i]->uvmsmart_id >= 0)
            used += (size_t)snprintf(buf + used, n - used, "%s%d %s", used ? ", " : "", gms_uvm_prefetchers[i]->uvmsmart_id,
                                     gms_uvm_prefetchers[i]->name);
}

int gms_uvm_prefetch_find_id(int id)
{
    if (id < 0) return -1;   /* -1 marks a member without a UVMSmart number (CAP): no value selects it */
    for (size_t i = 0; i < gms_uvm_nprefetchers; i++)
        if (gms_uvm_prefetchers[i]->uvmsmart_id == id) return (int)i;
    return -1;
}
