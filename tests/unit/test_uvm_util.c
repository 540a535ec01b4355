#include "test_uvm_util.h"
#include <math.h>
#include <stdlib.h>

extern const gms_config_module gms_config_module_uvm;

static void on_deliver(void *ud, uint32_t sm, gms_mreq *r)
{
    uvm_h *h = ud;
    (void)sm;
    size_t i = (size_t)(r - h->req);   /* requests live in h->req */
    h->dcycle[i] = gms_engine_cycle(h->e, GMS_DOM_CORE);
    h->delivered[i] = 1;
    h->ndel++;
}

static int timer_tick(void *self, uint64_t cycle) { (void)self; (void)cycle; return 0; }

int uvm_h_init(uvm_h *h, uint32_t n_sm, const char *const *opts)
{
    memset(h, 0, sizeof *h);
    h->p = gms_params_new();
    for (; opts && opts[0]; opts += 2)
        if (gms_params_set(h->p, opts[0], opts[1], &h->err)) return -1;
    if (gms_config_module_uvm.finalize(h->p, &h->err)) return -1;
    const double mhz[GMS_NDOM] = { 1481, 1481, 1481, 1481 };
    h->e = gms_engine_new(mhz, 1);
    h->timer = gms_engine_add(h->e, GMS_DOM_CORE, "test-timer", timer_tick, NULL, h);
    return gms_uvm_create(&h->u, h->p, h->e, n_sm, on_deliver, h, &h->err);
}

int uvm_h_start(uvm_h *h, uint32_t n_sm, const char *const *opts, uint64_t bytes)
{
    if (uvm_h_init(h, n_sm, opts)) return -1;
    if (gms_uvm_alloc(h->u, UVM_BASE, bytes, 1, "a", &h->err)) return -1;
    gms_uvm_kernel_begin(h->u, 0);
    return 0;
}

void uvm_h_free(uvm_h *h)
{
    gms_uvm_free(h->u);
    if (h->e) gms_engine_free(h->e);
    gms_params_free(h->p);
}

void uvm_h_expect_error(const char *const *opts, const char *msg)
{
    uvm_h h;
    CHECK(uvm_h_init(&h, 1, opts) != 0);
    CHECK_CONTAINS(h.err.msg, msg);
    if (h.u) gms_uvm_free(h.u);
    if (h.e) gms_engine_free(h.e);
    gms_params_free(h.p);
}

uint64_t uvm_h_now(uvm_h *h) { return gms_engine_cycle(h->e, GMS_DOM_CORE); }

int uvm_h_access(uvm_h *h, uint32_t sm, uint16_t warp, uint64_t addr, int kind, int *immediate)
{
    if (h->nreq == UVM_MAXREQ) {
        /* every slot used: start again once all have been delivered (long access loops) */
        if (h->ndel != h->nreq) { fprintf(stderr, "uvm_h: more than %d requests in flight\n", UVM_MAXREQ); abort(); }
        h->nreq = h->ndel = 0;
        memset(h->delivered, 0, sizeof h->delivered);
    }
    int i = h->nreq++;
    gms_mreq *r = &h->req[i];
    memset(r, 0, sizeof *r);
    r->addr = addr;
    r->bytes = 128;
    r->kind = (uint8_t)kind;
    r->sm = (uint16_t)sm;
    r->warp = warp;
    int ok = gms_uvm_translate(h->u, sm, r, uvm_h_now(h));
    if (ok) { h->delivered[i] = 1; h->dcycle[i] = uvm_h_now(h); h->ndel++; }
    if (immediate) *immediate = ok;
    return i;
}

static int done_del(void *ud) { uvm_h *h = ud; return h->ndel >= h->want; }
static int done_cycle(void *ud) { uvm_h *h = ud; return gms_engine_cycle(h->e, GMS_DOM_CORE) >= h->stop_at; }
static int done_idle(void *ud) { uvm_h *h = ud; return !gms_uvm_busy(h->u); }

int uvm_h_run_deliveries(uvm_h *h, int want)
{
    h->want = want;
    return gms_engine_run(h->e, done_del, h, 0, stderr, &h->err);
}

int uvm_h_run_until(uvm_h *h, uint64_t c)
{
    h->stop_at = c;
    if (c > uvm_h_now(h)) gms_engine_wake_at(h->e, h->timer, c);
    return gms_engine_run(h->e, done_cycle, h, 0, stderr, &h->err);
}

int uvm_h_run_idle(uvm_h *h) { return gms_engine_run(h->e, done_idle, h, 0, stderr, &h->err); }

uint64_t uvm_h_access_wait(uvm_h *h, uint32_t sm, uint64_t addr, int kind)
{
    int i = uvm_h_access(h, sm, 0, addr, kind, NULL);
    if (!h->delivered[i] && uvm_h_run_deliveries(h, h->ndel + 1)) return UINT64_MAX;
    return h->dcycle[i];
}

double uvm_h_stat(uvm_h *h, const char *name)
{
    gms_stats s;
    gms_stats_init(&s);
    gms_uvm_report(h->u, &s);
    const gms_stat *st = gms_stats_find(&s, name);
    double v = st ? st->value : -1;
    if (!st) printf("    no stat %s\n", name);
    gms_stats_free(&s);
    return v;
}

uint64_t uvm_h_pcie_cycles(uint64_t bytes)
{
    float speed = (float)(2.0 * 12.0 / M_PI * atan(0.07292 * ((double)bytes / 1024.0)));
    return (uint64_t)((double)bytes * 1481e6 / (double)speed / (1024.0 * 1024.0 * 1024.0));
}
