/* Minimal JSON reader and string writer (see json.h). Recursive descent over the text with
 * a depth limit; numbers through strtod on a bounded copy (the C locale is never changed by
 * gpumemsim, so '.' is the decimal point). */
#include "harness/json.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct jp {
    const char *s, *end, *what;
    gms_error *err;
} jp;

static int fail(jp *p, const char *at, const char *msg)
{
    int line = 1, col = 1;
    for (const char *c = p->s; c < at && c < p->end; c++) {
        if (*c == '\n') { line++; col = 1; } else col++;
    }
    return gms_err(p->err, "%s:%d:%d: invalid JSON: %s", p->what, line, col, msg);
}

static const char *skip_ws(const char *c, const char *end)
{
    while (c < end && (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')) c++;
    return c;
}

static int hex4(const char *c, const char *end, unsigned *out)
{
    if (end - c < 4) return -1;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char h = c[i];
        v <<= 4;
        if (h >= '0' && h <= '9') v |= (unsigned)(h - '0');
        else if (h >= 'a' && h <= 'f') v |= (unsigned)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F') v |= (unsigned)(h - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

static void put_utf8(gms_sbuf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) { u[0] = (char)cp; n = 1; }
    else if (cp < 0x800) { u[0] = (char)(0xc0 | cp >> 6); u[1] = (char)(0x80 | (cp & 0x3f)); n = 2; }
    else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12); u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f)); n = 3;
    } else {
        u[0] = (char)(0xf0 | cp >> 18); u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3f)); u[3] = (char)(0x80 | (cp & 0x3f)); n = 4;
    }
    gms_sbuf_addn(b, u, n);
}

/* *c points at the opening quote; on success *out is a malloc'd string */
static int parse_string(jp *p, const char **c, char **out)
{
    const char *s = *c + 1;
    gms_sbuf b = {0};
    gms_sbuf_addn(&b, "", 0);
    while (s < p->end && *s != '"') {
        unsigned char ch = (unsigned char)*s;
        if (ch < 0x20) { gms_sbuf_free(&b); return fail(p, s, "control character in string"); }
        if (ch != '\\') { gms_sbuf_addn(&b, s, 1); s++; continue; }
        if (++s >= p->end) break;
        switch (*s) {
        case '"': gms_sbuf_add(&b, "\""); break;
        case '\\': gms_sbuf_add(&b, "\\"); break;
        case '/': gms_sbuf_add(&b, "/"); break;
        case 'b': gms_sbuf_add(&b, "\b"); break;
        case 'f': gms_sbuf_add(&b, "\f"); break;
        case 'n': gms_sbuf_add(&b, "\n"); break;
        case 'r': gms_sbuf_add(&b, "\r"); break;
        case 't': gms_sbuf_add(&b, "\t"); break;
        case 'u': {
            unsigned cp;
            if (hex4(s + 1, p->end, &cp)) { gms_sbuf_free(&b); return fail(p, s, "bad \\u escape"); }
            s += 4;
            if (cp >= 0xd800 && cp < 0xdc00) {
                unsigned lo;
                if (p->end - s < 7 || s[1] != '\\' || s[2] != 'u' || hex4(s + 3, p->end, &lo) ||
                    lo < 0xdc00 || lo > 0xdfff) {
                    gms_sbuf_free(&b);
                    return fail(p, s, "unpaired surrogate in \\u escape");
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                s += 6;
            } else if (cp >= 0xdc00 && cp < 0xe000) {
                gms_sbuf_free(&b);
                return fail(p, s, "unpaired surrogate in \\u escape");
            }
            if (cp == 0) { gms_sbuf_free(&b); return fail(p, s, "\\u0000 in string"); }
            put_utf8(&b, cp);
            break;
        }
        default: gms_sbuf_free(&b); return fail(p, s, "bad escape in string");
        }
        s++;
    }
    if (s >= p->end) { gms_sbuf_free(&b); return fail(p, *c, "unterminated string"); }
    *c = s + 1;
    *out = b.s;
    return 0;
}

static int parse_value(jp *p, const char **c, gms_json *v, int depth);

static int parse_number(jp *p, const char **c, gms_json *v)
{
    const char *s = *c, *t = s;
    if (t < p->end && *t == '-') t++;
    if (t >= p->end || !(*t >= '0' && *t <= '9')) return fail(p, s, "bad number");
    if (*t == '0') t++;
    else while (t < p->end && *t >= '0' && *t <= '9') t++;
    if (t < p->end && *t == '.') {
        t++;
        if (t >= p->end || !(*t >= '0' && *t <= '9')) return fail(p, s, "bad number");
        while (t < p->end && *t >= '0' && *t <= '9') t++;
    }
    if (t < p->end && (*t == 'e' || *t == 'E')) {
        t++;
        if (t < p->end && (*t == '+' || *t == '-')) t++;
        if (t >= p->end || !(*t >= '0' && *t <= '9')) return fail(p, s, "bad number");
        while (t < p->end && *t >= '0' && *t <= '9') t++;
    }
    char buf[128];
    size_t n = (size_t)(t - s);
    if (n >= sizeof buf) return fail(p, s, "number too long");
    memcpy(buf, s, n);
    buf[n] = 0;
    v->type = GMS_JSON_NUM;
    v->num = strtod(buf, NULL);
    *c = t;
    return 0;
}

static int parse_container(jp *p, const char **c, gms_json *v, int depth, int is_obj)
{
    const char *s = *c + 1;
    size_t cap = 0;
    v->type = is_obj ? GMS_JSON_OBJ : GMS_JSON_ARR;
    s = skip_ws(s, p->end);
    char close = is_obj ? '}' : ']';
    if (s < p->end && *s == close) { *c = s + 1; return 0; }
    for (;;) {
        char *key = NULL;
        if (is_obj) {
            if (s >= p->end || *s != '"') return fail(p, s, "expected a string key");
            if (parse_string(p, &s, &key)) return -1;
            s = skip_ws(s, p->end);
            if (s >= p->end || *s != ':') { free(key); return fail(p, s, "expected ':'"); }
            s = skip_ws(s + 1, p->end);
        }
        if (v->n == cap) {
            cap = cap ? cap * 2 : 8;
            v->items = gms_xrealloc(v->items, cap * sizeof *v->items);
            if (is_obj) v->keys = gms_xrealloc(v->keys, cap * sizeof *v->keys);
        }
        gms_json *it = &v->items[v->n];
        memset(it, 0, sizeof *it);
        if (is_obj) v->keys[v->n] = key;
        v->n++;
        if (parse_value(p, &s, it, depth + 1)) return -1;
        s = skip_ws(s, p->end);
        if (s < p->end && *s == ',') { s = skip_ws(s + 1, p->end); continue; }
        if (s < p->end && *s == close) { *c = s + 1; return 0; }
        return fail(p, s, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int parse_value(jp *p, const char **c, gms_json *v, int depth)
{
    if (depth > MAX_DEPTH) return fail(p, *c, "nested too deeply");
    const char *s = skip_ws(*c, p->end);
    if (s >= p->end) return fail(p, s, "unexpected end of input");
    int rc;
    switch (*s) {
    case '{': rc = parse_container(p, &s, v, depth, 1); break;
    case '[': rc = parse_container(p, &s, v, depth, 0); break;
    case '"': v->type = GMS_JSON_STR; rc = parse_string(p, &s, &v->str); break;
    case 't':
        if (p->end - s >= 4 && !memcmp(s, "true", 4)) { v->type = GMS_JSON_BOOL; v->b = 1; s += 4; rc = 0; }
        else rc = fail(p, s, "unexpected token");
        break;
    case 'f':
        if (p->end - s >= 5 && !memcmp(s, "false", 5)) { v->type = GMS_JSON_BOOL; s += 5; rc = 0; }
        else rc = fail(p, s, "unexpected token");
        break;
    case 'n':
        if (p->end - s >= 4 && !memcmp(s, "null", 4)) { v->type = GMS_JSON_NULL; s += 4; rc = 0; }
        else rc = fail(p, s, "unexpected token");
        break;
    default: rc = parse_number(p, &s, v); break;
    }
    *c = s;
    return rc;
}

static void free_tree(gms_json *j)
{
    free(j->str);
    for (size_t i = 0; i < j->n; i++) {
        free_tree(&j->items[i]);
        if (j->keys) free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
}

void gms_json_free(gms_json *j)
{
    if (!j) return;
    free_tree(j);
    free(j);
}

gms_json *gms_json_parse(const char *text, size_t len, const char *what, gms_error *err)
{
    jp p = { text, text + len, what ? what : "JSON", err };
    gms_json *root = gms_xcalloc(1, sizeof *root);
    const char *c = text;
    if (parse_value(&p, &c, root, 0)) { gms_json_free(root); return NULL; }
    c = skip_ws(c, p.end);
    if (c != p.end) { fail(&p, c, "trailing characters after the value"); gms_json_free(root); return NULL; }
    return root;
}

const gms_json *gms_json_get(const gms_json *j, const char *key)
{
    if (!j || j->type != GMS_JSON_OBJ) return NULL;
    for (size_t i = j->n; i-- > 0;)
        if (!strcmp(j->keys[i], key)) return &j->items[i];
    return NULL;
}

const char *gms_json_get_str(const gms_json *j, const char *key, const char *dflt)
{
    const gms_json *v = gms_json_get(j, key);
    return v && v->type == GMS_JSON_STR ? v->str : dflt;
}

double gms_json_get_num(const gms_json *j, const char *key, double dflt)
{
    const gms_json *v = gms_json_get(j, key);
    return v && v->type == GMS_JSON_NUM ? v->num : dflt;
}

void gms_json_quote(gms_sbuf *b, const char *s)
{
    gms_sbuf_add(b, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        switch (*c) {
        case '"': gms_sbuf_add(b, "\\\""); break;
        case '\\': gms_sbuf_add(b, "\\\\"); break;
        case '\n': gms_sbuf_add(b, "\\n"); break;
        case '\r': gms_sbuf_add(b, "\\r"); break;
        case '\t': gms_sbuf_add(b, "\\t"); break;
        default:
            if (*c < 0x20) gms_sbuf_printf(b, "\\u%04x", *c);
            else gms_sbuf_addn(b, (const char *)c, 1);
        }
    }
    gms_sbuf_add(b, "\"");
}

static void write_at(gms_sbuf *b, const gms_json *j, int (*keep)(const char *, int), int depth)
{
    switch (j->type) {
    case GMS_JSON_NULL: gms_sbuf_add(b, "null"); return;
    case GMS_JSON_BOOL: gms_sbuf_add(b, j->b ? "true" : "false"); return;
    case GMS_JSON_NUM:
        /* JSON has no NaN or infinity: the parser never makes them */
        /* the range test first: converting a double outside long long's range is undefined */
        if (j->num > -1e15 && j->num < 1e15 && j->num == (double)(long long)j->num)
            gms_sbuf_printf(b, "%lld", (long long)j->num);
        else gms_sbuf_printf(b, "%.17g", j->num);
        return;
    case GMS_JSON_STR: gms_json_quote(b, j->str); return;
    case GMS_JSON_ARR:
        gms_sbuf_add(b, "[");
        for (size_t i = 0; i < j->n; i++) {
            if (i) gms_sbuf_add(b, ",");
            write_at(b, &j->items[i], keep, depth + 1);
        }
        gms_sbuf_add(b, "]");
        return;
    case GMS_JSON_OBJ: {
        gms_sbuf_add(b, "{");
        int first = 1;
        for (size_t i = 0; i < j->n; i++) {
            if (keep && !keep(j->keys[i], depth)) continue;
            if (!first) gms_sbuf_add(b, ",");
            first = 0;
            gms_json_quote(b, j->keys[i]);
            gms_sbuf_add(b, ":");
            write_at(b, &j->items[i], keep, depth + 1);
        }
        gms_sbuf_add(b, "}");
        return;
    }
    }
}

void gms_json_write(gms_sbuf *b, const gms_json *j, int (*keep)(const char *key, int depth))
{
    write_at(b, j, keep, 0);
}
