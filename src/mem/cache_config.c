/* GPGPU-Sim cache string: decode, validate, describe (interop.md 1.2; GPGPU-Sim
 * cache_config::init). Grammar (docs/cache.md):
 *   [<type>:]<nsets>:<line>:<assoc>,<repl>:<write>:<alloc>:<wr_alloc>:<set_idx>,
 *   <mshr_type>:<mshr_entries>:<mshr_max_merge>,<miss_queue>[:<result_fifo>][,<port_width>]
 * or "none". Without the type letter (GPGPU-Sim 3.x / UVMSmart / the sound-baseline fork) the
 * cache is normal and set index 'P' is the fork's PMOD; 'I' is I-Poly in both forms. */
#include "mem/cache.h"
#include "mem/cache_line.h"
#include "mem/index.h"
#include "mem/mshr.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct pctx {
    const char *s, *p, *opt;
    int field;
    gms_error *err;
} pctx;

static const char *const field_names[] = {
    "", "type", "sets", "line size", "associativity", "replacement policy", "write policy",
    "allocation policy", "write-allocate policy", "set index function", "MSHR type",
    "MSHR entries", "MSHR max merge", "miss queue size", "result FIFO size", "data port width",
};

static int perr(pctx *x, const char *what)
{
    return gms_err(x->err, "%s: '%s': field %d (%s): %s", x->opt, x->s, x->field,
                   field_names[x->field], what);
}

static int get_char(pctx *x, char *out)
{
    if (!isalpha((unsigned char)*x->p)) {
        char m[96];
        if (*x->p) snprintf(m, sizeof m, "expected a letter, found '%c'", *x->p);
        else snprintf(m, sizeof m, "missing (string ends early)");
        return perr(x, m);
    }
    *out = *x->p++;
    return 0;
}

static int get_uint(pctx *x, uint32_t *out)
{
    if (!isdigit((unsigned char)*x->p)) {
        char m[96];
        if (*x->p) snprintf(m, sizeof m, "expected a number, found '%c'", *x->p);
        else snprintf(m, sizeof m, "missing (string ends early)");
        return perr(x, m);
    }
    uint64_t v = 0;
    while (isdigit((unsigned char)*x->p)) {
        v = v * 10 + (uint64_t)(*x->p++ - '0');
        if (v > UINT32_MAX) return perr(x, "number too large");
    }
    *out = (uint32_t)v;
    return 0;
}

static int expect(pctx *x, char sep)
{
    if (*x->p != sep) {
        char m[96];
        if (*x->p) snprintf(m, sizeof m, "expected '%c' after it, found '%c'", sep, *x->p);
        else snprintf(m, sizeof m, "expected '%c' after it, string ends", sep);
        return perr(x, m);
    }
    x->p++;
    return 0;
}

static int bad_letter(pctx *x, char c, const char *allowed)
{
    char m[400];
    snprintf(m, sizeof m, "'%c' is not one of %s", c, allowed);
    return perr(x, m);
}

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

int gms_cache_config_validate(const gms_cache_config *c, const char *opt, gms_error *err)
{
    if (!c->enabled) return 0;
    if (c->nsets == 0) return gms_err(err, "%s: sets must be at least 1", opt);
    if (c->line == 0 || !is_pow2(c->line))
        return gms_err(err, "%s: line size %u is not a power of two", opt, c->line);
    if (c->assoc == 0) return gms_err(err, "%s: associativity must be at least 1", opt);
    if (c->type == 'S' && c->line != 128)
        return gms_err(err, "%s: a sector cache (type S) has 4 sectors of 32 B, so the line must be 128 B, not %u", opt, c->line);
    const gms_index_ops *ix = gms_index_find(c->set_index);
    if (!ix) return gms_err(err, "%s: unknown set index function '%c'", opt, c->set_index);
    if (ix->pow2_sets && !is_pow2(c->nsets))
        return gms_err(err, "%s: set index function '%c' (%s) needs a power-of-two number of sets, not %u (PMOD 'M' accepts any)",
                       opt, c->set_index, ix->name, c->nsets);
    if (ix->check && ix->check(c, opt, err)) return -1;
    if ((uint64_t)c->nsets * c->assoc > (1u << 24))
        return gms_err(err, "%s: %u sets x %u ways is too many lines", opt, c->nsets, c->assoc);
    if (c->mshr_entries == 0) return gms_err(err, "%s: MSHR entries must be at least 1", opt);
    if (c->mshr_max_merge == 0) return gms_err(err, "%s: MSHR max merge must be at least 1 (it counts the primary miss)", opt);
    /* GPGPU-Sim: a read miss needs miss_queue_size > size + 1, naive write-allocate size + 2 */
    uint32_t need = c->write_alloc == 'W' ? 3 : 2;
    if (c->write_policy == 'R') need = 1;
    if (c->miss_queue < need)
        return gms_err(err, "%s: miss queue size %u is too small: GPGPU-Sim accepts a %s only while the queue has more than %u free entries, so it must be at least %u",
                       opt, c->miss_queue, need == 3 ? "write miss (write + fetch)" : need == 2 ? "read miss" : "miss", need - 1, need);
    if (c->data_port_width == 0 || c->line % c->data_port_width)
        return gms_err(err, "%s: data port width %u must divide the line size %u", opt, c->data_port_width, c->line);
    if ((c->alloc_policy == 'f' || c->alloc_policy == 's') && c->write_policy == 'B')
        return gms_err(err, "%s: a write-back cache (B) cannot allocate on fill (%c): GPGPU-Sim rejects it (write-back of a victim at fill time can deadlock)",
                       opt, c->alloc_policy);
    if ((c->alloc_policy == 'f' || c->alloc_policy == 's') && (c->write_alloc == 'F' || c->write_alloc == 'L'))
        return gms_err(err, "%s: write-allocate policy '%c' needs allocate-on-miss (m), not '%c' (GPGPU-Sim rejects it)",
                       opt, c->write_alloc, c->alloc_policy);
    if (c->write_policy == 'R' && c->write_alloc != 'N')
        return gms_err(err, "%s: a read-only cache (R) cannot write-allocate ('%c')", opt, c->write_alloc);
    if (!gms_mshr_find(c->mshr_design)) {
        char known[256];
        gms_reg_known(&gms_mshr_reg, known, sizeof known);
        return gms_err(err, "%s: unknown MSHR design '%s'; known: %s", opt, c->mshr_design, known);
    }
    return 0;
}

int gms_cache_config_parse(const char *str, const char *opt, gms_cache_config *c, gms_error *err)
{
    memset(c, 0, sizeof *c);
    snprintf(c->mshr_design, sizeof c->mshr_design, "conventional");
    if (!str) str = "";
    const char *b = str;
    while (isspace((unsigned char)*b)) b++;
    size_t len = strlen(b);
    while (len && isspace((unsigned char)b[len - 1])) len--;
    if (len == 4 && !strncmp(b, "none", 4)) {
        c->enabled = 0;
        return 0;
    }
    pctx x = { str, b, opt, 1, err };
    if (!*b) return gms_err(err, "%s: empty cache string (use 'none' to disable the cache)", opt);
    /* type letter, or the 3.x form starting with the number of sets */
    int form3 = isdigit((unsigned char)*x.p);
    if (form3) c->type = 'N';
    else {
        if (get_char(&x, &c->type)) return -1;
        if (c->type != 'N' && c->type != 'S') return bad_letter(&x, c->type, "N (normal), S (sector)");
        if (expect(&x, ':')) return -1;
    }
    x.field = 2; if (get_uint(&x, &c->nsets) || expect(&x, ':')) return -1;
    x.field = 3; if (get_uint(&x, &c->line) || expect(&x, ':')) return -1;
    x.field = 4; if (get_uint(&x, &c->assoc) || expect(&x, ',')) return -1;
    x.field = 5; if (get_char(&x, &c->repl) || expect(&x, ':')) return -1;
    char known[256];   /* the registries' letters, for errors */
    gms_reg_known(&gms_repl_reg, known, sizeof known);
    if (!gms_repl_find(c->repl)) return bad_letter(&x, c->repl, known);
    x.field = 6; if (get_char(&x, &c->write_policy) || expect(&x, ':')) return -1;
    if (!strchr("RBTEL", c->write_policy))
        return bad_letter(&x, c->write_policy, "R (read-only), B (write-back), T (write-through), E (write-evict), L (local write-back, global write-evict)");
    x.field = 7; if (get_char(&x, &c->alloc_policy) || expect(&x, ':')) return -1;
    if (!strchr("mfs", c->alloc_policy))
        return bad_letter(&x, c->alloc_policy, "m (on miss), f (on fill), s (streaming)");
    x.field = 8; if (get_char(&x, &c->write_alloc) || expect(&x, ':')) return -1;
    if (!strchr("NWFL", c->write_alloc))
        return bad_letter(&x, c->write_alloc, "N (none), W (write + fetch), F (fetch-on-write), L (lazy fetch-on-read)");
    x.field = 9; if (get_char(&x, &c->set_index) || expect(&x, ',')) return -1;
    /* The sound-baseline fork (3.x form: no type letter) reads 'P' as PMOD (PRIME_INDEX) and
     * 'I' as I-Poly; GPGPU-Sim 4.x (type letter required) reads 'P' as I-Poly and has no 'I'
     * (docs/cache.md, choice 3) */
    if (form3 && c->set_index == 'P') c->set_index = 'M';
    else if (c->set_index == 'I') c->set_index = 'P';
    gms_reg_known(&gms_index_reg, known, sizeof known);
    const gms_index_ops *ix = gms_index_find(c->set_index);
    if (!ix && c->set_index == 'C') {   /* GPGPU-Sim's letter, unless a member takes it */
        char what[400];
        snprintf(what, sizeof what, "'C' (custom set index) is not implemented (GPGPU-Sim maps every address to set 0); use %s", known);
        return perr(&x, what);
    }
    if (!ix) return bad_letter(&x, c->set_index, known);
    c->index_kind = ix->kind;
    x.field = 10; if (get_char(&x, &c->mshr_type) || expect(&x, ':')) return -1;
    if (c->mshr_type == 'F' || c->mshr_type == 'T')
        return perr(&x, "texture FIFO MSHRs (F, T) belong to texture caches, which are not modelled; use A (associative) or S (sector-associative)");
    if (c->mshr_type != 'A' && c->mshr_type != 'S') return bad_letter(&x, c->mshr_type, "A (associative), S (sector-associative)");
    x.field = 11; if (get_uint(&x, &c->mshr_entries) || expect(&x, ':')) return -1;
    x.field = 12; if (get_uint(&x, &c->mshr_max_merge) || expect(&x, ',')) return -1;
    x.field = 13; if (get_uint(&x, &c->miss_queue)) return -1;
    if (*x.p == ':') {
        x.p++;
        x.field = 14; if (get_uint(&x, &c->result_fifo)) return -1;
    }
    if (*x.p == ',') {
        x.p++;
        x.field = 15; if (get_uint(&x, &c->data_port_width)) return -1;
    }
    while (isspace((unsigned char)*x.p)) x.p++;
    if (*x.p) return gms_err(err, "%s: '%s': unexpected text '%s' after the last field", opt, str, x.p);
    if (c->data_port_width == 0) c->data_port_width = c->line;   /* GPGPU-Sim default */
    c->enabled = 1;
    return gms_cache_config_validate(c, opt, err);
}

uint64_t gms_cache_config_bytes(const gms_cache_config *c)
{
    return c->enabled ? (uint64_t)c->nsets * c->line * c->assoc : 0;
}

static void fmt_bytes(char *b, size_t n, uint64_t v)
{
    if (v && v % (1ull << 20) == 0) snprintf(b, n, "%llu MiB", (unsigned long long)(v >> 20));
    else if (v && v % 1024 == 0) snprintf(b, n, "%llu KiB", (unsigned long long)(v >> 10));
    else if (v >= 1024) snprintf(b, n, "%.1f KiB", (double)v / 1024.0);
    else snprintf(b, n, "%llu B", (unsigned long long)v);
}

void gms_cache_config_describe_parts(const gms_cache_config *c, char *size, size_t ns, char *rest, size_t nr)
{
    if (!c->enabled) {
        snprintf(size, ns, "disabled");
        snprintf(rest, nr, " (none)");
        return;
    }
    fmt_bytes(size, ns, gms_cache_config_bytes(c));
    const char *wp = "?", *ap = "?", *wa = "?";
    switch (c->write_policy) {
    case 'R': wp = "read-only"; break;
    case 'B': wp = "write-back"; break;
    case 'T': wp = "write-through"; break;
    case 'E': wp = "write-evict"; break;
    case 'L': wp = "local write-back, global write-evict"; break;
    }
    switch (c->alloc_policy) {
    case 'm': ap = "allocate-on-miss"; break;
    case 'f': ap = "allocate-on-fill"; break;
    case 's': ap = "streaming (allocate-on-fill)"; break;
    }
    switch (c->write_alloc) {
    case 'N': wa = "no write-allocate"; break;
    case 'W': wa = "write-allocate (write + fetch)"; break;
    case 'F': wa = "fetch-on-write write-allocate"; break;
    case 'L': wa = "lazy fetch-on-read write-allocate"; break;
    }
    const gms_index_ops *ix = gms_index_find(c->set_index);
    const gms_repl_ops *rp = gms_repl_find(c->repl);
    char idx[64];
    if (c->set_index == 'M' || c->set_index == 'A' || c->set_index == 'D')
        snprintf(idx, sizeof idx, "%s (p=%u)", ix->name, gms_pmod_default_prime(c));
    else if (c->set_index == 'X' && c->bxor_t_shift)
        snprintf(idx, sizeof idx, "%s (t = addr[%u:%u])", ix->name, c->bxor_t_shift + gms_ilog2(c->nsets) - 1, c->bxor_t_shift);
    else snprintf(idx, sizeof idx, "%s", ix ? ix->name : "?");
    char port[48] = "";
    if (c->data_port_width != c->line) snprintf(port, sizeof port, ", %u B data port", c->data_port_width);
    char mshr[96];
    snprintf(mshr, sizeof mshr, "%u %sMSHRs x %u merges", c->mshr_entries,
             c->mshr_type == 'S' ? "sector " : "", c->mshr_max_merge);
    if (strcmp(c->mshr_design, "conventional"))
        snprintf(mshr + strlen(mshr), sizeof mshr - strlen(mshr), " (%s)", c->mshr_design);
    snprintf(rest, nr, ", %s%u sets x %u ways x %u B, %s indexing, %s, %s, %s, %s, %s, miss queue %u%s",
             c->type == 'S' ? "sector (4 x 32 B), " : "", c->nsets, c->assoc, c->line, idx,
             rp ? rp->name : "?", wp, ap, wa, mshr, c->miss_queue, port);
}

void gms_cache_config_describe(const gms_cache_config *c, char *buf, size_t n)
{
    char size[32], rest[512];
    gms_cache_config_describe_parts(c, size, sizeof size, rest, sizeof rest);
    snprintf(buf, n, "%s%s", size, rest);
}
