#include "core/warp_sched.h"
#include <string.h>

extern const gms_warp_sched_ops gms_sched_lrr, gms_sched_gto, gms_sched_two_level;
static const gms_warp_sched_ops *const all[] = { &gms_sched_lrr, &gms_sched_gto, &gms_sched_two_level };

const gms_warp_sched_ops *gms_warp_sched_find(const char *spec)
{
    size_t n = strcspn(spec, ":");
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strlen(all[i]->name) == n && !strncmp(all[i]->name, spec, n)) return all[i];
    return NULL;
}

const char *gms_warp_sched_names(void) { return "lrr, gto, two_level_active"; }
