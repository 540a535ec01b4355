/* Parameters of the L2 input queue members (l2q.h): -gms_l2q_cart nR:nC:nE[:drain] and
 * -gms_l2q_p2 B:depth. */
#include "mem/l2q.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const gms_cart_drain_name[GMS_CART_DRAIN__N] = { "rotate", "longest", "rr" };

void gms_l2q_params_default(gms_l2q_params *p)
{
    gms_error err;
    gms_l2q_params_parse(GMS_L2Q_CART_DEFAULT, GMS_L2Q_P2_DEFAULT, p, &err);
}

/* the n-th ':'-field of s as a number in [lo, hi]; -1 on error */
static int field(const char *s, const char *opt, const char *what, char **end, uint32_t lo, uint32_t hi,
                 uint32_t *out, gms_error *err)
{
    char *e = NULL;
    if (*s < '0' || *s > '9') return gms_err(err, "%s: %s must be a number, got \"%s\"", opt, what, s);
    unsigned long v = strtoul(s, &e, 10);
    /* the digits as given: strtoul saturates a number past its range at ULONG_MAX */
    if (v < lo || v > hi)
        return gms_err(err, "%s: %s must be %u..%u, got %.*s", opt, what, lo, hi, (int)(e - s), s);
    *out = (uint32_t)v;
    *end = e;
    return 0;
}

int gms_l2q_params_parse(const char *cart, const char *p2, gms_l2q_params *p, gms_error *err)
{
    const char *o = "-gms_l2q_cart";
    char *e = NULL;   /* set by each successful field() (LTO cannot see it) */
    memset(p, 0, sizeof *p);
    if (field(cart, o, "nR (rows per bank)", &e, 1, GMS_CART_MAX_RC, &p->cart_rows, err)) return -1;
    if (*e != ':') return gms_err(err, "%s: expected nR:nC:nE[:drain], got \"%s\"", o, cart);
    if (field(e + 1, o, "nC (columns per row)", &e, 1, GMS_CART_MAX_RC, &p->cart_cols, err)) return -1;
    if (*e != ':') return gms_err(err, "%s: expected nR:nC:nE[:drain], got \"%s\"", o, cart);
    if (field(e + 1, o, "nE (entries per queue)", &e, 1, GMS_CART_MAX_E, &p->cart_entries, err)) return -1;
    p->cart_drain = GMS_CART_DRAIN_ROTATE;
    if (*e == ':') {
        long d = -1;
        for (int i = 0; i < GMS_CART_DRAIN__N; i++)
            if (!strcmp(e + 1, gms_cart_drain_name[i])) d = i;
        if (d < 0) return gms_err(err, "%s: unknown drain policy \"%s\"; known: rotate, longest, rr", o, e + 1);
        p->cart_drain = (uint32_t)d;
    } else if (*e) {
        return gms_err(err, "%s: expected nR:nC:nE[:drain], got \"%s\"", o, cart);
    }
    o = "-gms_l2q_p2";
    if (field(p2, o, "B (queues)", &e, 1, 64, &p->p2_queues, err)) return -1;
    if (*e != ':') return gms_err(err, "%s: expected B:depth, got \"%s\"", o, p2);
    if (field(e + 1, o, "depth (entries per queue)", &e, 1, GMS_CART_MAX_E, &p->p2_depth, err)) return -1;
    if (*e) return gms_err(err, "%s: expected B:depth, got \"%s\"", o, p2);
    return 0;
}
