#include "core/belady_prepass.h"
#include "config/params.h"
#include "uvm/uvm_internal.h"
#include "workloads/workload.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the recording: header "GMSUVMPS", page size, then one page number per reference and
 * GMS_UVM_KERNEL_MARK where a kernel began */
static int load(const char *path, uint64_t **addrs, size_t *n, gms_error *err)
{
    FILE *f = fopen(path, "rb");
    uint64_t hdr[2];
    if (!f || fread(hdr, sizeof hdr, 1, f) != 1 || memcmp(hdr, "GMSUVMPS", 8)) {
        if (f) fclose(f);
        return gms_err(err, "belady: the recording run wrote no page sequence to '%s'", path);
    }
    size_t cap = 1 << 16, k = 0, got;
    uint64_t *v = gms_xmalloc(cap * sizeof *v);
    while ((got = fread(v + k, sizeof *v, cap - k, f)) > 0) {
        k += got;
        if (k == cap) v = gms_xrealloc(v, (cap *= 2) * sizeof *v);
    }
    fclose(f);
    for (size_t i = 0; i < k; i++)   /* page numbers -> byte addresses; kernel marks stay */
        if (v[i] != GMS_UVM_KERNEL_MARK) v[i] *= hdr[1];
    *addrs = v;
    *n = k;
    return 0;
}

int gms_belady_prepass(gms_uvm *u, const gms_params *p, const gms_workload_spec *w, gms_error *err)
{
    if (!u || !gms_uvm_wants_future(u) || w->program) return 0;
    char path[256];
    snprintf(path, sizeof path, "%s/gms_belady_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : P_tmpdir);
    int fd = mkstemp(path);
    if (fd < 0) return gms_err(err, "belady: cannot create a temporary file for the recording run (%s)", path);
    close(fd);
    gms_params q = *p;   /* shallow: read only, never freed */
    q.uvm.evict_id = gms_uvm_evict_find("lru4k");
    q.uvm.belady_trace[0] = 0;
    snprintf(q.uvm.page_trace_out, sizeof q.uvm.page_trace_out, "%s", path);
    gms_wl_clamp_messages(0);   /* the timed run says it */
    gms_sim *s = gms_sim_new(&q, w, err);
    int rc = s ? gms_sim_run(s, err) : -1;
    gms_sim_free(s);
    gms_wl_clamp_messages(1);
    uint64_t *v = NULL;
    size_t n = 0;
    if (rc == 0) rc = load(path, &v, &n, err);
    remove(path);
    if (rc) return -1;
    gms_uvm_set_future(u, v, n);
    free(v);
    return 0;
}
