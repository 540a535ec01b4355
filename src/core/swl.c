/* SWL: see swl.h. The allowed warps are a bit set the issue test reads (gms_sm_can_issue). */
#include "core/swl.h"
#include "core/sm_internal.h"
#include "core/ccws.h"
#include <string.h>

void gms_swl_update(gms_sm *s)
{
    uint32_t k = s->p->core.swl;
    if (!k) {   /* on for CCWS alone: every warp may issue */
        memset(s->swl_ok, 0xff, sizeof s->swl_ok);
        if (s->ccws) gms_ccws_update(s);
        return;
    }
    memset(s->swl_ok, 0, sizeof s->swl_ok);
    for (uint32_t si = 0; si < s->nsched; si++) {
        const sched *q = &s->sc[si];
        uint32_t taken = 0;
        for (uint32_t j = 0; j < q->n && taken < k; j++) {
            uint32_t wi = q->order[j];
            /* GPGPU-Sim sorts done_exit() and waiting() warps (exited, at a barrier) last: only
             * warps that may issue take one of the K places (else K warps at a barrier whose
             * other warps are not among the K would wait forever) */
            if (s->w[wi].state != W_ACTIVE) continue;
            s->swl_ok[wi >> 6] |= 1ULL << (wi & 63);
            taken++;
        }
    }
    /* CCWS ranks the warps SWL lets issue (ccws.c), so that one of them may always load:
     * ranked over all warps, its allowed ones could all be outside the K and nothing would
     * load, decay the scores or change state again */
    if (s->ccws) gms_ccws_update(s);
}
