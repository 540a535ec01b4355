/* The SM's UCP hooks (cke.h): the kernel's quota (or way range) before its L1D access, its
 * UMON after. */
#include "cke/cke.h"
#include "cke/cke_ucp.h"
#include "mem/cache.h"

void gms_cke_ucp_before(gms_cke_sm *cs, struct gms_cache *l1, uint32_t app)
{
    const gms_ucp *u = cs->ucp;
    if (u->by_ways) gms_cache_set_way_range(l1, u->lo[app], u->lo[app] + u->ways[app]);
    else gms_cache_set_quota(l1, app, u->ways, u->napps);
}

void gms_cke_ucp_after(gms_cke_sm *cs, uint32_t app, uint64_t addr)
{
    gms_ucp *u = cs->ucp;
    gms_ucp_access(u, app, gms_cache_set_index(u->l1, addr), addr / u->l1->line);
}
