/* barnes-hut: the CPU reference each time step is checked against, when the step's
 * integration begins (its force kernel done). From the positions the step started with:
 *   - the bounding box and the octree, built by plain recursive insertion with the kernels'
 *     cell geometry (the octree of a set of bodies in a given root cube is unique, whatever
 *     the insertion order), compared cell by cell with the tree the kernels left (children
 *     in octant order, as the summarization compacts them);
 *   - each cell's body count (exactly), mass and centre of mass (in double, relative 1e-4);
 *   - the sorted order (the tree's depth-first order, exactly);
 *   - the forces: the warp-synchronous traversal of the source (__all over the warp's 32
 *     bodies) over the kernels' tree, relative 1e-5, for every warp up to 256 warps (8192
 *     bodies), beyond that for 256 spread evenly; and on up to 64 bodies the direct sum
 *     over all bodies, as a check of the method itself (the error's norm over the
 *     accelerations', summed over the sample, below 5%; 0.15-0.2% measured). */
#include "workloads/lonestar_bh.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BH_REF_WARPS 256   /* warps whose forces are re-traversed per step */

typedef struct rnode { float c[3], r; int32_t ch[8]; } rnode;   /* ch: body, nb + node, or -1 */
typedef struct rtree { rnode *n; uint32_t cnt, cap, nb; } rtree;

static int32_t rt_new(rtree *t, const float c[3], float r)
{
    if (t->cnt == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->n = gms_xrealloc(t->n, (size_t)t->cap * sizeof *t->n);
    }
    rnode *n = &t->n[t->cnt];
    memcpy(n->c, c, sizeof n->c);
    n->r = r;
    for (int i = 0; i < 8; i++) n->ch[i] = -1;
    return (int32_t)t->cnt++;
}

/* insert body b; 0, or -1 if the tree gets deeper than any float cube can split */
static int rt_insert(rtree *t, const float *const p[3], uint32_t b)
{
    int32_t n = 0;
    for (int depth = 0; depth < 200; depth++) {
        rnode *x = &t->n[n];
        int j = bh_octant(x->c[0], x->c[1], x->c[2], p[0][b], p[1][b], p[2][b]);
        int32_t c = x->ch[j];
        if (c < 0) { x->ch[j] = (int32_t)b; return 0; }
        if (c >= (int32_t)t->nb) { n = c - (int32_t)t->nb; continue; }
        /* a body: a new cell in its place (the kernels' geometry), then both go down */
        float r = x->r, h = r * 0.5f, cc[3];
        for (int d = 0; d < 3; d++) cc[d] = x->c[d] - h + (float)((j >> d) & 1) * r;
        int32_t m = rt_new(t, cc, h);
        rnode *y = &t->n[m];
        y->ch[bh_octant(cc[0], cc[1], cc[2], p[0][c], p[1][c], p[2][c])] = c;
        t->n[n].ch[j] = (int32_t)t->nb + m;
        n = m;
    }
    return -1;
}

typedef struct rcmp {
    const bh *s;
    const rtree *t;
    const float *p[3];
    uint32_t pos;          /* next sorted position */
    char *msg;
    size_t msz;
} rcmp;

/* compare kernel cell g with reference node n; body count, mass and centre out */
static int rt_cmp(rcmp *q, int32_t g, int32_t n, uint32_t *cnt, double *m, double cm[3])
{
    const bh *s = q->s;
    const rnode *x = &q->t->n[n];
    int gi = 0;
    *cnt = 0;
    *m = 0;
    cm[0] = cm[1] = cm[2] = 0;
    for (int j = 0; j < 8; j++) {
        int32_t c = x->ch[j];
        if (c < 0) continue;
        int32_t gc = gi < 8 ? s->child[8ll * g + gi] : -1;
        gi++;
        if (c < (int32_t)s->nb) {
            if (gc != c) {
                snprintf(q->msg, q->msz, "cell %d child %d is %d, the reference tree has body %d", g, gi - 1, gc, c);
                return -1;
            }
            if (q->pos >= s->nb || s->sort[q->pos] != c) {
                snprintf(q->msg, q->msz, "sorted body %u is %d, the tree's depth-first order has %d", q->pos,
                         q->pos < s->nb ? s->sort[q->pos] : -1, c);
                return -1;
            }
            q->pos++;
            double bm = s->mass[c];
            (*cnt)++;
            *m += bm;
            for (int d = 0; d < 3; d++) cm[d] += bm * q->p[d][c];
        } else {
            if (gc < (int32_t)s->nb) {
                snprintf(q->msg, q->msz, "cell %d child %d is %d, the reference tree has a cell", g, gi - 1, gc);
                return -1;
            }
            uint32_t cc;
            double mm, ccm[3];
            if (rt_cmp(q, gc, c - (int32_t)s->nb, &cc, &mm, ccm)) return -1;
            *cnt += cc;
            *m += mm;
            for (int d = 0; d < 3; d++) cm[d] += ccm[d];
        }
    }
    if (gi < 8 && s->child[8ll * g + gi] >= 0) {
        snprintf(q->msg, q->msz, "cell %d has more than the reference tree's %d children", g, gi);
        return -1;
    }
    if ((uint32_t)s->count[g] != *cnt) {
        snprintf(q->msg, q->msz, "cell %d counts %d bodies, the reference %u", g, s->count[g], *cnt);
        return -1;
    }
    const float *gp[3] = {s->px, s->py, s->pz};
    if (fabs(s->mass[g] - *m) > 1e-4 * *m) {
        snprintf(q->msg, q->msz, "cell %d mass %.9g, the reference %.9g", g, s->mass[g], *m);
        return -1;
    }
    for (int d = 0; d < 3; d++) {
        double want = cm[d] / *m;
        if (fabs(gp[d][g] - want) > 1e-4 * (fabs(want) + 1e-3)) {
            snprintf(q->msg, q->msz, "cell %d centre of mass [%d] %.9g, the reference %.9g", g, d, gp[d][g], want);
            return -1;
        }
    }
    return 0;
}

void bh_ref_force_warp(const bh *s, uint32_t k0, uint32_t n, float *ax, float *ay, float *az)
{
    float dq[BH_MAXDEPTH];
    dq[0] = s->radius * s->radius * s->itolsq;
    for (int i = 1; i < BH_MAXDEPTH; i++) dq[i] = dq[i - 1] * 0.25f;
    int32_t node[BH_MAXDEPTH], pos[BH_MAXDEPTH];
    for (uint32_t l = 0; l < n; l++) ax[l] = ay[l] = az[l] = 0.0f;
    int depth = 0;
    node[0] = (int32_t)s->nn;
    pos[0] = 0;
    while (depth >= 0) {
        while (pos[depth] < 8) {
            int32_t c = s->child[8ll * node[depth] + pos[depth]++];
            if (c < 0) { depth = depth > 0 ? depth - 1 : 0; continue; }
            int all = 1;
            for (uint32_t l = 0; l < n && all; l++) {
                int32_t b = s->sort[k0 + l];
                float dx = s->px[c] - s->px[b], dy = s->py[c] - s->py[b], dz = s->pz[c] - s->pz[b];
                if (!(dx * dx + dy * dy + dz * dz >= dq[depth])) all = 0;
            }
            if (c < (int32_t)s->nb || all) {
                for (uint32_t l = 0; l < n; l++) {
                    int32_t b = s->sort[k0 + l];
                    if (c == b) continue;
                    float dx = s->px[c] - s->px[b], dy = s->py[c] - s->py[b], dz = s->pz[c] - s->pz[b];
                    float t = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + s->epssq);
                    t = s->mass[c] * t * t * t;
                    ax[l] += dx * t; ay[l] += dy * t; az[l] += dz * t;
                }
            } else {
                depth++;
                node[depth] = c;
                pos[depth] = 0;
            }
        }
        depth--;
    }
}

static int check(bh *s, char *msg, size_t msz)
{
    const float *p[3] = {s->spx, s->spy, s->spz};
    /* positions unchanged by the step so far */
    for (uint32_t i = 0; i < s->nb; i++)
        if (s->px[i] != p[0][i] || s->py[i] != p[1][i] || s->pz[i] != p[2][i])
            return snprintf(msg, msz, "body %u moved before the integration", i), -1;
    float mn[3], mx[3];
    for (int d = 0; d < 3; d++) {
        mn[d] = mx[d] = p[d][0];
        for (uint32_t i = 1; i < s->nb; i++) { mn[d] = fminf(mn[d], p[d][i]); mx[d] = fmaxf(mx[d], p[d][i]); }
    }
    float rad = fmaxf(fmaxf(mx[0] - mn[0], mx[1] - mn[1]), mx[2] - mn[2]) * 0.5f;
    if (rad != s->radius) return snprintf(msg, msz, "radius %.9g, the reference %.9g", s->radius, rad), -1;
    rtree t = {NULL, 0, 0, s->nb};
    float c[3] = {(mn[0] + mx[0]) * 0.5f, (mn[1] + mx[1]) * 0.5f, (mn[2] + mx[2]) * 0.5f};
    rt_new(&t, c, rad);
    int rc = 0;
    for (uint32_t i = 0; i < s->nb && !rc; i++)
        if (rt_insert(&t, p, i)) rc = (snprintf(msg, msz, "reference tree: body %u too deep", i), -1);
    if (!rc && t.cnt != s->nn + 1 - (uint32_t)s->bottom)
        rc = (snprintf(msg, msz, "%u cells, the reference tree %u", s->nn + 1 - (uint32_t)s->bottom, t.cnt), -1);
    if (!rc) {
        rcmp q = {s, &t, {p[0], p[1], p[2]}, 0, msg, msz};
        uint32_t cnt;
        double m, cm[3];
        rc = rt_cmp(&q, (int32_t)s->nn, 0, &cnt, &m, cm);
    }
    free(t.n);
    if (rc) return rc;
    /* forces: the source's traversal, warp by warp: every warp up to BH_REF_WARPS warps, else
     * that many spread evenly, the last (partial) one included (the traversal costs about as
     * much as the kernel's own lane arithmetic, and every warp runs the same code) */
    float ax[32], ay[32], az[32];
    const uint32_t nw = (s->nb + 31) / 32, nc = nw < BH_REF_WARPS ? nw : BH_REF_WARPS;
    for (uint32_t q = 0; q < nc; q++) {
        uint32_t g = q + 1 == nc ? nw - 1 : (uint32_t)((uint64_t)q * nw / nc), k0 = 32 * g;
        uint32_t n = s->nb - k0 < 32 ? s->nb - k0 : 32;
        bh_ref_force_warp(s, k0, n, ax, ay, az);
        for (uint32_t l = 0; l < n; l++) {
            int32_t b = s->sort[k0 + l];
            float got[3] = {s->ax[b], s->ay[b], s->az[b]}, want[3] = {ax[l], ay[l], az[l]};
            for (int d = 0; d < 3; d++)
                if (!(fabsf(got[d] - want[d]) <= 1e-5f * fabsf(want[d]) + 1e-6f))
                    return snprintf(msg, msz, "acceleration [%d] of body %d: %.9g, the reference traversal %.9g", d,
                                    b, got[d], want[d]), -1;
        }
    }
    /* the method: direct sums on a sample */
    uint32_t ns = s->nb < 64 ? s->nb : 64;
    double se = 0, sa = 0;
    for (uint32_t q = 0; q < ns; q++) {
        uint32_t b = (uint32_t)((uint64_t)q * s->nb / ns);
        double a[3] = {0, 0, 0};
        for (uint32_t o = 0; o < s->nb; o++) {
            if (o == b) continue;
            double dx = (double)p[0][o] - p[0][b], dy = (double)p[1][o] - p[1][b], dz = (double)p[2][o] - p[2][b];
            double r2 = dx * dx + dy * dy + dz * dz + s->epssq, f = s->mass[o] / (r2 * sqrt(r2));
            a[0] += dx * f; a[1] += dy * f; a[2] += dz * f;
        }
        double e2 = 0, n2 = 0, g[3] = {s->ax[b], s->ay[b], s->az[b]};
        for (int d = 0; d < 3; d++) { e2 += (g[d] - a[d]) * (g[d] - a[d]); n2 += a[d] * a[d]; }
        se += e2;
        sa += n2;
    }
    /* the error's norm over the acceleration's, summed over the sample: single close pairs,
     * whose one body's relative error can be large at theta 0.5, do not dominate it */
    double rel = sa > 0 ? sqrt(se / sa) : 0;
    if (rel > 0.05) return snprintf(msg, msz, "forces %.3g%% off the direct sums", 100 * rel), -1;
    return 0;
}

void bh_ref_check_step(bh *s)
{
    if (s->failed) return;
    char msg[200];
    if (check(s, msg, sizeof msg)) {
        s->failed = 1;
        snprintf(s->fail, sizeof s->fail, "time step %llu: %s", (unsigned long long)s->checked, msg);
        return;
    }
    s->checked++;
}
