/* `gpumemsim sweep status`: the state of every point from the result files, running
 * markers and (when this sweep submitted Slurm jobs) squeue. */
#include "harness/runner.h"
#include "harness/point.h"
#include "harness/util.h"
#include <stdlib.h>
#include <string.h>

int gms_sweep_status(const gms_sweep_spec *s, const gms_sweep_plan *plan, int verbose, FILE *out,
                     gms_error *err)
{
    size_t cnt[4] = {0}, queued_n = 0, shown = 0;
    unsigned char *queued = gms_xcalloc(plan->n + 1, 1);
    gms_slurm_queued(s, plan, queued);
    gms_sbuf lines = {0};
    for (size_t i = 0; i < plan->n; i++) {
        const gms_sweep_point *pt = &plan->points[i];
        char why[700];
        gms_pt_state st = gms_point_state(s, pt->id, why, sizeof why);
        if (st == GMS_PT_PENDING && queued[i]) queued_n++;
        cnt[st]++;
        char desc[600];
        gms_sweep_point_desc(pt, desc, sizeof desc);
        if (st == GMS_PT_FAILED && (verbose || shown < 10)) {
            shown++;
            char *nl = strchr(why, '\n');
            if (nl && !verbose) strcpy(nl, " ...");
            gms_sbuf_printf(&lines, "  failed   %s  %s: %s\n", pt->id, desc, why);
        } else if (verbose && st != GMS_PT_DONE) {
            gms_sbuf_printf(&lines, "  %-8s %s  %s\n", st == GMS_PT_PENDING && queued[i] ? "queued" : gms_pt_state_name(st),
                            pt->id, desc);
        }
    }
    free(queued);
    fprintf(out, "sweep %s: %zu points (%zu excluded)\n", s->name, plan->n, plan->excluded);
    fprintf(out, "  done     %zu\n  running  %zu\n  failed   %zu\n  pending  %zu", cnt[GMS_PT_DONE],
            cnt[GMS_PT_RUNNING], cnt[GMS_PT_FAILED], cnt[GMS_PT_PENDING]);
    if (queued_n) fprintf(out, " (%zu queued in Slurm)", queued_n);
    fprintf(out, "\n");
    if (lines.n) fputs(lines.s, out);
    if (!verbose && cnt[GMS_PT_FAILED] > shown) fprintf(out, "  ... %zu more failed (-v lists all)\n", cnt[GMS_PT_FAILED] - shown);
    gms_sbuf_free(&lines);
    (void)err;
    return 0;
}
