/* The applications of a multiprogrammed workload (`cke`, cke_workload.c): each a built-in
 * workload with its own parameters, opened and reopened (restart) from its name. */
#ifndef GMS_CKE_APPS_H
#define GMS_CKE_APPS_H
#include "cke/cke.h"
#include "workloads/workload.h"

typedef struct gms_cke_app_spec {
    char abbrev[16];                 /* as given (hs, ks, ...) */
    const gms_workload_ops *ops;
    char *kv[16];                    /* its parameters, NULL-terminated (owned) */
} gms_cke_app_spec;

typedef struct gms_cke_apps {
    uint32_t n;
    gms_cke_app_spec a[GMS_CKE_MAX_APPS];
    int alone;                       /* alone=1: an isolated (or profile) run of one application */
    uint32_t cap;                    /* cap=T: at most T blocks per SM (profile runs) */
    uint64_t window;                 /* window=N: overrides -gms_cke_window */
} gms_cke_apps;

/* an Accel-Sim trace as an application (cke_trace_app.c): apps=trace0+..., args=trace0:path=P,offset=O */
extern const gms_workload_ops gms_cke_trace_app;

/* the built-in name an abbreviation of spec 001 section 4.1 stands for (hs -> hotspot, ...);
 * the name itself otherwise */
const char *gms_cke_app_name(const char *abbrev);
/* parse the workload's parameters (apps=bp+ks scale=S args=ks:points=4096;bp:...) */
int gms_cke_apps_parse(const gms_wl_args *a, gms_cke_apps *out, gms_error *err);
void gms_cke_apps_free(gms_cke_apps *x);

#endif
