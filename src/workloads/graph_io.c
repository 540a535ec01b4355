/* Graph file readers (graph_csr.h): edge lists, Matrix Market, GraphBIG CSV datasets */
#define _POSIX_C_SOURCE 200809L
#include "workloads/graph_csr.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ID_MAX (1ULL << 31)   /* ids stay below this (GraphBIG's vertex properties are 32-bit indexed) */

typedef struct rd {
    FILE *f;
    const char *path;
    int line;
    char *buf;
    size_t cap;
} rd;

/* next line into r->buf (newline stripped); 0 at end of file */
static int rd_line(rd *r)
{
    ssize_t n = getline(&r->buf, &r->cap, r->f);
    if (n < 0) return 0;
    r->line++;
    while (n > 0 && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r')) r->buf[--n] = 0;
    return 1;
}

static int blank(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return *s == 0;
}

/* an unsigned decimal at *s (after blanks); advances *s; 0 = none or out of range */
static int rd_u64(const char **s, uint64_t *out)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t') p++;
    if (!isdigit((unsigned char)*p)) return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno) return 0;
    *out = v;
    *s = end;
    return 1;
}

static int rest_blank(const char *s) { return blank(s); }

/* "u v [w]" lines, 0-based */
static int read_edge_list(rd *r, gms_edges *e, gms_error *err)
{
    while (rd_line(r)) {
        const char *s = r->buf;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || *s == '#' || *s == '%') continue;
        uint64_t u, v, w = 1;
        if (!rd_u64(&s, &u) || !rd_u64(&s, &v) || (!rest_blank(s) && (!rd_u64(&s, &w) || !rest_blank(s))))
            return gms_err_at(err, r->path, r->line, "expected an edge \"u v\" or \"u v weight\" (non-negative integers)");
        if (u >= ID_MAX || v >= ID_MAX)
            return gms_err_at(err, r->path, r->line, "vertex id above %llu", (unsigned long long)ID_MAX - 1);
        if (w == 0 || w > 0xffffffffu)
            return gms_err_at(err, r->path, r->line, "edge weight %llu not in [1, 4294967295]", (unsigned long long)w);
        if (u + 1 > e->nv) e->nv = u + 1;
        if (v + 1 > e->nv) e->nv = v + 1;
        gms_edges_push(e, u, v, (uint32_t)w);
    }
    if (!e->nv) return gms_err_at(err, r->path, r->line, "no edges in the file");
    return 0;
}

/* symmetric matrices list each edge once: mirrored here unless `undirected` stores every
 * edge both ways anyway */
static int read_mtx(rd *r, gms_edges *e, int undirected, gms_error *err)
{
    if (!rd_line(r) || strncmp(r->buf, "%%MatrixMarket", 14))
        return gms_err_at(err, r->path, 1, "expected the Matrix Market header \"%%%%MatrixMarket matrix coordinate ...\"");
    char obj[32] = "", fmt[32] = "", field[32] = "", sym[32] = "";
    sscanf(r->buf + 14, "%31s %31s %31s %31s", obj, fmt, field, sym);
    for (char *c = fmt; *c; c++) *c = (char)tolower((unsigned char)*c);
    for (char *c = field; *c; c++) *c = (char)tolower((unsigned char)*c);
    for (char *c = sym; *c; c++) *c = (char)tolower((unsigned char)*c);
    if (strcmp(fmt, "coordinate"))
        return gms_err_at(err, r->path, 1, "only the \"coordinate\" format holds a graph (got \"%s\")", fmt);
    int mirror = !undirected && (!strcmp(sym, "symmetric") || !strcmp(sym, "skew-symmetric") || !strcmp(sym, "hermitian"));
    int has_val = strcmp(field, "pattern") != 0, int_val = !strcmp(field, "integer");
    uint64_t rows = 0, cols = 0, nnz = 0;
    for (;;) {
        if (!rd_line(r)) return gms_err_at(err, r->path, r->line + 1, "expected the size line \"rows cols entries\"");
        if (r->buf[0] == '%' || blank(r->buf)) continue;
        const char *s = r->buf;
        if (!rd_u64(&s, &rows) || !rd_u64(&s, &cols) || !rd_u64(&s, &nnz) || !rest_blank(s))
            return gms_err_at(err, r->path, r->line, "expected the size line \"rows cols entries\"");
        break;
    }
    if (rows != cols) return gms_err_at(err, r->path, r->line, "the matrix is %llux%llu: a graph needs a square one",
                                        (unsigned long long)rows, (unsigned long long)cols);
    if (rows == 0 || rows >= ID_MAX) return gms_err_at(err, r->path, r->line, "vertex count %llu not in [1, %llu]",
                                                       (unsigned long long)rows, (unsigned long long)ID_MAX - 1);
    e->nv = rows;
    uint64_t got = 0;
    while (got < nnz) {
        if (!rd_line(r))
            return gms_err_at(err, r->path, r->line + 1, "expected entry %llu of %llu", (unsigned long long)got + 1,
                              (unsigned long long)nnz);
        if (r->buf[0] == '%' || blank(r->buf)) continue;
        const char *s = r->buf;
        uint64_t i, j, w = 1;
        if (!rd_u64(&s, &i) || !rd_u64(&s, &j))
            return gms_err_at(err, r->path, r->line, "expected an entry \"row col%s\"", has_val ? " value" : "");
        if (i < 1 || j < 1 || i > rows || j > rows)
            return gms_err_at(err, r->path, r->line, "entry (%llu, %llu) outside the %llux%llu matrix (1-based)",
                              (unsigned long long)i, (unsigned long long)j, (unsigned long long)rows,
                              (unsigned long long)rows);
        if (has_val) {
            char *end;
            errno = 0;
            double d = strtod(s, &end);
            if (end == s || errno)
                return gms_err_at(err, r->path, r->line, "expected an entry \"row col value\" (%s field)", field);
            s = end;
            /* integer weights >= 1 become SSSP weights; other values give weight 1 */
            if (int_val && d >= 1 && d <= 4294967295.0) w = (uint64_t)d;
        }
        if (!rest_blank(s)) return gms_err_at(err, r->path, r->line, "unexpected text after the entry");
        gms_edges_push(e, i - 1, j - 1, (uint32_t)w);
        if (mirror && i != j) gms_edges_push(e, j - 1, i - 1, (uint32_t)w);
        got++;
    }
    while (rd_line(r))
        if (r->buf[0] != '%' && !blank(r->buf))
            return gms_err_at(err, r->path, r->line, "more entries than the %llu the size line gives",
                              (unsigned long long)nnz);
    return 0;
}

/* GraphBIG CSV: ids are arbitrary integers; vertex.csv's order gives the index */
typedef struct idmap { uint64_t *key, *val, cap, n; } idmap;
static uint64_t hsh(uint64_t k) { k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; return k; }
static void idmap_grow(idmap *m);
static uint64_t *idmap_slot(idmap *m, uint64_t k, int add)
{
    if (add && 2 * (m->n + 1) > m->cap) idmap_grow(m);
    if (!m->cap) return NULL;
    for (uint64_t i = hsh(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (m->val[i] == UINT64_MAX) {
            if (!add) return NULL;
            m->key[i] = k;
            m->n++;
            return &m->val[i];
        }
        if (m->key[i] == k) return &m->val[i];
    }
}
static void idmap_grow(idmap *m)
{
    idmap o = *m;
    m->cap = o.cap ? 2 * o.cap : 1024;
    m->n = 0;
    m->key = gms_xmalloc(8 * m->cap);
    m->val = gms_xmalloc(8 * m->cap);
    memset(m->val, 0xff, 8 * m->cap);
    for (uint64_t i = 0; i < o.cap; i++)
        if (o.val[i] != UINT64_MAX) *idmap_slot(m, o.key[i], 1) = o.val[i];
    free(o.key);
    free(o.val);
}

/* the first two fields of a CSV line ('|' or ','); nf = fields wanted */
static int csv_ids(const char *line, int nf, uint64_t *a, uint64_t *b)
{
    const char *s = line;
    if (!rd_u64(&s, a)) return 0;
    while (*s == ' ' || *s == '\t') s++;
    if (nf == 1) return *s == 0 || *s == '|' || *s == ',';
    if (*s != '|' && *s != ',') return 0;
    s++;
    if (!rd_u64(&s, b)) return 0;
    while (*s == ' ' || *s == '\t') s++;
    return *s == 0 || *s == '|' || *s == ',';
}

static int open_rd(rd *r, const char *path, gms_error *err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) return gms_err(err, "cannot open graph file %s: %s", path, strerror(errno));
    return 0;
}
static void close_rd(rd *r)
{
    if (r->f) fclose(r->f);
    free(r->buf);
}

static int read_csv(const char *vpath, const char *epath, gms_edges *e, gms_error *err)
{
    idmap m = {0};
    rd r;
    int rc = -1;
    if (vpath) {
        if (open_rd(&r, vpath, err)) return -1;
        rd_line(&r);   /* header */
        while (rd_line(&r)) {
            if (blank(r.buf)) continue;
            uint64_t id, dummy;
            if (!csv_ids(r.buf, 1, &id, &dummy)) { gms_err_at(err, vpath, r.line, "expected a vertex id (a non-negative integer) in the first field"); goto out; }
            uint64_t *slot = idmap_slot(&m, id, 1);
            if (*slot != UINT64_MAX) { gms_err_at(err, vpath, r.line, "vertex id %llu listed twice", (unsigned long long)id); goto out; }
            *slot = e->nv++;
        }
        close_rd(&r);
    }
    if (open_rd(&r, epath, err)) goto out2;
    rd_line(&r);   /* header */
    while (rd_line(&r)) {
        if (blank(r.buf)) continue;
        uint64_t a, b, ia = 0, ib = 0;
        if (!csv_ids(r.buf, 2, &a, &b)) { gms_err_at(err, epath, r.line, "expected an edge \"src|dest\" (vertex ids)"); goto out; }
        for (int k = 0; k < 2; k++) {
            uint64_t id = k ? b : a, *slot = idmap_slot(&m, id, !vpath);
            if (!slot) { gms_err_at(err, epath, r.line, "vertex id %llu is not in %s", (unsigned long long)id, vpath); goto out; }
            if (*slot == UINT64_MAX) *slot = e->nv++;
            if (k) ib = *slot; else ia = *slot;
        }
        if (e->nv >= ID_MAX) { gms_err_at(err, epath, r.line, "more than %llu vertices", (unsigned long long)ID_MAX - 1); goto out; }
        gms_edges_push(e, ia, ib, 1);
    }
    if (!e->nv) { gms_err_at(err, epath, r.line, "no vertices"); goto out; }
    rc = 0;
out:
    close_rd(&r);
out2:
    free(m.key);
    free(m.val);
    return rc;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

int gms_graph_read(gms_graph *g, const char *path, int undirected, gms_error *err)
{
    gms_edges e = {0};
    struct stat st;
    int rc;
    memset(g, 0, sizeof *g);
    if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
        char vp[4096], ep[4096];
        snprintf(vp, sizeof vp, "%s/vertex.csv", path);
        snprintf(ep, sizeof ep, "%s/edge.csv", path);
        rc = read_csv(stat(vp, &st) ? NULL : vp, ep, &e, err);
    } else if (ends_with(path, "vertex.csv") || ends_with(path, "edge.csv")) {
        char vp[4096], ep[4096];
        size_t dl = strlen(path) - (ends_with(path, "vertex.csv") ? 10 : 8);
        snprintf(vp, sizeof vp, "%.*svertex.csv", (int)dl, path);
        snprintf(ep, sizeof ep, "%.*sedge.csv", (int)dl, path);
        rc = read_csv(stat(vp, &st) ? NULL : vp, ep, &e, err);
    } else {
        rd r;
        if (open_rd(&r, path, err)) return -1;
        rc = ends_with(path, ".mtx") ? read_mtx(&r, &e, undirected, err) : read_edge_list(&r, &e, err);
        close_rd(&r);
    }
    if (rc) {
        gms_edges_free(&e);
        return -1;
    }
    gms_graph_from_edges(g, &e, undirected);
    return 0;
}
