/* Thread-block bodies of a .traceg file and their instruction lines:
 *   [cta_x cta_y cta_z warp (tracer version < 3)] [line (lineinfo)] PC mask ndst [Rd..]
 *   OPCODE nsrc [Rs..] mem_width [fmt addresses...] [imm]
 * Hand-written tokenizer (no sscanf): this is the hot path of trace-driven runs. */
#include "frontend/trace_parse.h"
#include <string.h>

#define PERR(...) gms_err_at(err, lr->path, gms_lr_line(lr), __VA_ARGS__)
#define MAX_DST_FIELD 4
#define MAX_SRC_FIELD 8
#define INSTS_RESERVE_MAX 65536u

typedef struct { const char *s, *e; } tok_t;

/* host speed: one table load per character instead of three compares */
static const uint8_t DELIM[256] = { [0] = 1, [' '] = 1, ['\t'] = 1 };
/* hex digit value + 1; 0 = not a hex digit */
static const uint8_t HEXV1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static inline const char *next_tok(const char *p, tok_t *t)
{
    while (*p == ' ' || *p == '\t') p++;
    t->s = p;
    while (!DELIM[(unsigned char)*p]) p++;
    t->e = p;
    return p;
}

static inline int hex_u64(const tok_t *t, uint64_t *out)
{
    const char *p = t->s;
    if (t->e - p > 2 && p[0] == '0' && (p[1] | 0x20) == 'x') p += 2;
    size_t n = (size_t)(t->e - p);
    if (n == 0 || n > 16) return -1;
    uint64_t v = 0;
    for (; p < t->e; p++) {
        unsigned c = (unsigned char)*p, d;
        if (c - '0' < 10u) d = c - '0';
        else if ((c | 0x20u) - 'a' < 6u) d = (c | 0x20u) - 'a' + 10u;
        else return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

/* next_tok then hex_u64 in one pass over the characters (host speed: the addresses of memory
 * lines are most of a trace's text); on anything but a valid hex token the two are redone
 * as they were, so *t and the result (errors included) are theirs */
static inline const char *next_hex(const char *p, tok_t *t, uint64_t *out, int *bad)
{
    while (*p == ' ' || *p == '\t') p++;
    const char *s = p;
    if (p[0] == '0' && (p[1] | 0x20) == 'x' && HEXV1[(unsigned char)p[2]]) p += 2;
    const char *d0 = p;
    uint64_t v = 0;
    unsigned d;
    while ((d = HEXV1[(unsigned char)*p]) != 0) {
        v = v << 4 | (d - 1);
        p++;
    }
    if (p == d0 || p - d0 > 16 || !DELIM[(unsigned char)*p]) {
        p = next_tok(s, t);
        *bad = hex_u64(t, out);
        return p;
    }
    t->s = s;
    t->e = p;
    *out = v;
    *bad = 0;
    return p;
}

static inline uint64_t load8(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* next_hex, then the field's memo of the token (below): out of line, the rare path */
static __attribute__((noinline)) const char *next_hex_remember(const char *p, uint64_t c0, uint64_t c1,
                                                              gms_hex_memo *m, tok_t *t, uint64_t *out,
                                                              int *bad)
{
    const char *q = next_hex(p, t, out, bad);
    m->hs = GMS_HEX_MEMO_NONE;
    if (*bad) return q;
    unsigned n = (unsigned)(q - p), ws = (unsigned)(t->s - p);
    if (n >= 16) return q;   /* the token and its delimiter not in the 16 bytes */
    m->len = (uint8_t)n;
    m->ws = (uint8_t)ws;
    /* a valid token: "0x", then a digit */
    m->hs = (uint8_t)(ws + (t->s[0] == '0' && (t->s[1] | 0x20) == 'x' ? 2 : 0));
    m->txt[0] = c0;
    m->txt[1] = c1;
    m->v = *out;
    return q;
}

/* next_hex knowing the field's previous token (m): a trace's consecutive addresses (and PCs,
 * masks) share most of their text, so the 16 bytes from p (the blank before the token
 * included: no skip of it) are compared with the previous token's at once and only the
 * digits after the common prefix are read (host speed: a lane's address is 12 to 14
 * characters, most of a trace's text). The bytes compared lie inside the line (end: its
 * NUL), and a token the previous one cannot vouch for (other blanks before it, another "0x"
 * or first digit) goes through next_hex, so *t, the value and the errors are next_hex's. */
__attribute__((always_inline)) static inline const char *next_hex_memo(const char *p, const char *end,
                                                                       gms_hex_memo *m, tok_t *t,
                                                                       uint64_t *out, int *bad)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (__builtin_expect(end - p < 15, 0)) return next_hex(p, t, out, bad);
    uint64_t c0 = load8(p), c1 = load8(p + 8), x0 = c0 ^ m->txt[0], x1 = c1 ^ m->txt[1];
    /* k: the first character that differs from the previous token's text */
    /* (15 when all 16 agree: the same answer, as len <= 15; one branch fewer) */
    unsigned k = x0 ? (unsigned)__builtin_ctzll(x0) >> 3 : 8 + ((unsigned)__builtin_ctzll(x1 | 1ULL << 63) >> 3);
    unsigned len = m->len, hs = m->hs;
    const char *q;
    uint64_t v;
    /* the blanks, "0x" (if any) and at least one digit as the previous token's (never true
     * with hs GMS_HEX_MEMO_NONE) */
    if (__builtin_expect(k <= hs, 0)) return next_hex_remember(p, c0, c1, m, t, out, bad);
    if (k > len) {   /* the same token, and a delimiter after it */
        q = p + len;
        v = m->v;
    } else {         /* the previous token's digits up to k, then this one's own */
        uint64_t suf = 0;
        unsigned dv;
        q = p + k;
        while ((dv = HEXV1[(unsigned char)*q]) != 0) {
            suf = suf << 4 | (dv - 1);
            q++;
        }
        unsigned nsuf = (unsigned)(q - (p + k)), n = (unsigned)(q - p);
        if (__builtin_expect(k - hs + nsuf > 16 || !DELIM[(unsigned char)*q], 0))
            return next_hex_remember(p, c0, c1, m, t, out, bad);
        /* shifts below 64: at most 16 digits, k - hs >= 1 of them shared */
        v = (m->v >> 4 * (len - k)) << 4 * nsuf | suf;
        m->len = (uint8_t)n;
        if (__builtin_expect(n >= 16, 0)) m->hs = GMS_HEX_MEMO_NONE;
        m->txt[0] = c0;
        m->txt[1] = c1;
        m->v = v;
    }
    t->s = p + m->ws;   /* the blanks before the token: the previous token's (k > hs) */
    t->e = q;
    *out = v;
    *bad = 0;
    return q;
#else
    (void)end;
    (void)m;
    return next_hex(p, t, out, bad);
#endif
}

static inline int dec_u64(const tok_t *t, uint64_t *out)
{
    size_t n = (size_t)(t->e - t->s);
    if (n == 0 || n > 19) return -1;
    uint64_t v = 0;
    for (const char *p = t->s; p < t->e; p++) {
        unsigned d = (unsigned)(unsigned char)*p - '0';
        if (d > 9) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static inline int dec_s64(const tok_t *t, int64_t *out)
{
    tok_t u = *t;
    int neg = 0;
    if (u.s < u.e && (*u.s == '-' || *u.s == '+')) { neg = *u.s == '-'; u.s++; }
    uint64_t v;
    if (dec_u64(&u, &v)) return -1;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

static inline int parse_reg(const tok_t *t, uint8_t *r)
{
    if (t->e - t->s < 2 || t->s[0] != 'R') return -1;
    if (t->e - t->s == 2 && t->s[1] == 'Z') { *r = GMS_REG_NONE; return 0; }
    tok_t d = {t->s + 1, t->e};
    uint64_t v;
    if (t->e - t->s > 4 || dec_u64(&d, &v) || v > 255) return -1;
    *r = (uint8_t)v;   /* R255 (RZ) == GMS_REG_NONE */
    return 0;
}

/* next_tok then dec_u64, for fields that are nearly always one digit (register counts, the
 * access width, the address format): that case in one step (host speed: a few such fields on
 * every line); anything else through the two, so the token and errors are theirs. Forced
 * inline, as next_reg: called out of line (GCC's choice at -O2), the call cost a third of
 * their work (reuse: 90 M host instructions) */
__attribute__((always_inline)) static inline const char *next_dec(const char *p, tok_t *t, uint64_t *out,
                                                                  int *bad)
{
    while (*p == ' ' || *p == '\t') p++;
    unsigned d = (unsigned)(unsigned char)p[0] - '0';
    if (d < 10 && DELIM[(unsigned char)p[1]]) {
        t->s = p;
        t->e = p + 1;
        *out = d;
        *bad = 0;
        return p + 1;
    }
    p = next_tok(p, t);
    *bad = dec_u64(t, out);
    return p;
}

/* next_tok then parse_reg, R0 to R99 in one step (as next_dec) */
__attribute__((always_inline)) static inline const char *next_reg(const char *p, tok_t *t, uint8_t *r, int *bad)
{
    while (*p == ' ' || *p == '\t') p++;
    unsigned d1 = (unsigned)(unsigned char)p[1] - '0';
    if (p[0] == 'R' && d1 < 10) {
        unsigned d2 = (unsigned)(unsigned char)p[2] - '0';
        const char *e = DELIM[(unsigned char)p[2]] ? p + 2 : d2 < 10 && DELIM[(unsigned char)p[3]] ? p + 3 : NULL;
        if (e) {
            t->s = p;
            t->e = e;
            *r = (uint8_t)(e == p + 2 ? d1 : d1 * 10 + d2);
            *bad = 0;
            return e;
        }
    }
    p = next_tok(p, t);
    *bad = parse_reg(t, r);
    return p;
}

/* the quoted text of an error: at most `max` characters, cut at a token's end when one ends
 * near the limit, and "..." after a cut */
#define QUOTE_MAX 40
typedef struct { int n; const char *dots; } quote_t;
static quote_t quote(const char *s, const char *e, int max)
{
    int n = (int)(e - s);
    if (n <= max) return (quote_t){ n, "" };
    int k = max;
    while (k > max / 2 && !DELIM[(unsigned char)s[k]]) k--;   /* back to a token's end */
    if (k <= max / 2) k = max;                                 /* one long token: cut inside it */
    while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t')) k--;
    return (quote_t){ k, "..." };
}

static int field_err(gms_linereader *lr, const tok_t *t, const char *field, const char *want,
                     gms_error *err)
{
    if (t->s == t->e) return PERR("line ends before field '%s' (too few fields)", field);
    quote_t q = quote(t->s, t->e, QUOTE_MAX);
    return PERR("field '%s': expected %s, got '%.*s%s'", field, want, q.n, t->s, q.dots);
}

/* an immediate (tracer version 4 and 5; Accel-Sim's parser stops before it and the tracer
 * writes a number): decimal with an optional sign, or 0x hex, 64 bits at most */
static int imm_ok(const tok_t *t)
{
    const char *p = t->s;
    if (t->e - p == 1) return *p >= '0' && *p <= '9';   /* host speed: "0", the tracer's usual */
    if (p < t->e && (*p == '-' || *p == '+')) p++;
    if (t->e - p > 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
        tok_t h = { p, t->e };
        uint64_t v;
        return hex_u64(&h, &v) == 0;
    }
    size_t n = (size_t)(t->e - p);
    if (n == 0 || n > 20) return 0;
    uint64_t v = 0;
    for (; p < t->e; p++) {
        unsigned d = (unsigned)(unsigned char)*p - '0';
        if (d > 9 || v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    return 1;
}

/* addresses of a memory line; sets in->addr_mode/base/stride (or NONE) */
static const char *parse_addrs(gms_linereader *lr, const char *p, const char *end, gms_hex_memo *m,
                               gms_inst *in, int keep, gms_warp_trace *w, int *fmt_out, uint64_t *first,
                               gms_error *err)
{
    tok_t t;
    uint64_t fmt, a[32];
    int pop = __builtin_popcount(in->mask);
    int bad;
    p = next_dec(p, &t, &fmt, &bad);
    if (bad) { field_err(lr, &t, "address format", "0, 1 or 2", err); return NULL; }
    *fmt_out = (int)(fmt > 3 ? 3 : fmt);
    if (fmt == 0) {
        gms_hex_memo mm = *m;   /* in registers through the loop */
        for (int i = 0; i < pop; i++) {
            p = next_hex_memo(p, end, &mm, &t, &a[i], &bad);
            if (bad) { field_err(lr, &t, "address", "a hex address (one per active lane)", err); return NULL; }
        }
        *m = mm;
    } else if (fmt == 1) {
        int64_t stride;
        p = next_hex_memo(p, end, m, &t, &a[0], &bad);
        if (bad) { field_err(lr, &t, "base address", "a hex address", err); return NULL; }
        p = next_tok(p, &t);
        if (dec_s64(&t, &stride)) { field_err(lr, &t, "stride", "a decimal number", err); return NULL; }
        if (keep && pop > 0) {
            in->addr_mode = GMS_ADDR_STRIDE;
            in->base = a[0];
            in->stride = stride;
            *first = a[0];
        }
        return p;
    } else if (fmt == 2) {
        p = next_hex_memo(p, end, m, &t, &a[0], &bad);
        if (bad) { field_err(lr, &t, "base address", "a hex address", err); return NULL; }
        for (int i = 1; i < pop; i++) {   /* the tracer writes popcount-1 deltas */
            int64_t d;
            p = next_tok(p, &t);
            if (dec_s64(&t, &d)) { field_err(lr, &t, "delta", "a decimal delta (popcount-1 of them)", err); return NULL; }
            a[i] = a[i - 1] + (uint64_t)d;
        }
    } else {
        PERR("field 'address format': %llu does not exist (0 = list, 1 = base+stride, 2 = base+delta)",
             (unsigned long long)fmt);
        return NULL;
    }
    if (keep && pop > 0) {
        in->addr_mode = GMS_ADDR_LIST;
        in->base = gms_warp_push_addrs(w, a, (uint32_t)pop);
        *first = a[0];
    }
    return p;
}

static uint8_t resolve_generic(const gms_trace_hdr *h, uint64_t a, int store)
{
    const uint64_t local_max = 1u << 14;   /* GPGPU-Sim LOCAL_MEM_SIZE_MAX */
    if (!h->shmem_base || !h->local_base) return store ? GMS_MEM_ST_SHARED : GMS_MEM_LD_SHARED;
    if (a >= h->shmem_base && a < h->local_base) return store ? GMS_MEM_ST_SHARED : GMS_MEM_LD_SHARED;
    if (a >= h->local_base && a < h->local_base + local_max) return store ? GMS_MEM_ST_LOCAL : GMS_MEM_LD_LOCAL;
    return store ? GMS_MEM_ST_GLOBAL : GMS_MEM_LD_GLOBAL;
}

static int parse_inst(gms_linereader *lr, gms_trace_dec *d, const char *p, const char *end,
                      gms_warp_trace *w, gms_error *err)
{
    tok_t t;
    uint64_t v;
    if (d->hdr.tracer_version < 3) {
        static const char *const names[4] = {"cta x", "cta y", "cta z", "warp id"};
        for (int i = 0; i < 4; i++) {
            p = next_tok(p, &t);
            if (dec_u64(&t, &v)) return field_err(lr, &t, names[i], "a decimal number", err);
        }
    }
    if (d->hdr.lineinfo) {
        p = next_tok(p, &t);
        if (dec_u64(&t, &v)) return field_err(lr, &t, "line number", "a decimal number", err);
    }
    /* gms_warp_push's record, without its call (host speed: every instruction line) */
    gms_inst *in = gms_warp_append(w);
    *in = (gms_inst){ .dst = { GMS_REG_NONE, GMS_REG_NONE },
                      .src = { GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE } };
    _Static_assert(GMS_MAX_DST == 2 && GMS_MAX_SRC == 4, "the initialiser above");
    int bad;
    p = next_hex_memo(p, end, &d->pc, &t, &v, &bad);
    if (bad || v > UINT32_MAX) return field_err(lr, &t, "pc", "a hex PC", err);
    in->pc = (uint32_t)v;
    p = next_hex_memo(p, end, &d->mask, &t, &v, &bad);
    if (bad || v > UINT32_MAX) return field_err(lr, &t, "mask", "a 32-bit hex mask", err);
    in->mask = (uint32_t)v;
    p = next_dec(p, &t, &v, &bad);
    if (bad || v > MAX_DST_FIELD) return field_err(lr, &t, "dst count", "0 to 4", err);
    for (unsigned i = 0, n = (unsigned)v; i < n; i++) {
        uint8_t r;
        p = next_reg(p, &t, &r, &bad);
        if (bad) return field_err(lr, &t, "dst register", "a register R0..R255", err);
        if (i < GMS_MAX_DST) in->dst[i] = r;
    }
    p = next_tok(p, &t);
    if (t.s == t.e) return field_err(lr, &t, "opcode", "an opcode", err);
    const gms_opc_entry *oe = gms_opcache_get_near(&d->oc, d->hdr.isa, t.s, (size_t)(t.e - t.s), end);
    if (!oe)
        return PERR("field 'opcode': '%.*s' is not in the %s opcode table (-binary version = %d)",
                    (int)(t.e - t.s > 60 ? 60 : t.e - t.s), t.s, gms_isa_name(d->hdr.isa),
                    d->hdr.binary_version);
    p = next_dec(p, &t, &v, &bad);
    if (bad || v > MAX_SRC_FIELD) return field_err(lr, &t, "src count", "0 to 8", err);
    int src_rz = 0;   /* GMS_INST_SRC_RZ */
    for (unsigned i = 0, n = (unsigned)v; i < n; i++) {
        uint8_t r;
        p = next_reg(p, &t, &r, &bad);
        if (bad) return field_err(lr, &t, "src register", "a register R0..R255", err);
        if (i < GMS_MAX_SRC) in->src[i] = r;
        if (r == GMS_REG_NONE) src_rz = 1;
    }
    p = next_dec(p, &t, &v, &bad);
    if (bad) return field_err(lr, &t, "mem_width", "a decimal byte count", err);
    const gms_opinfo *oi = &oe->info;
    in->opcode_id = oe->id;
    if (oi->no_space && in->mask)
        return PERR("field 'opcode': '%s' with an active lane (mask %08x): Accel-Sim's %s table makes it a %s "
                    "instruction but gives it no memory space, and Accel-Sim aborts on it "
                    "(warp_inst_t::generate_mem_accesses asserts on the undefined space)", oe->text, in->mask,
                    gms_isa_name(d->hdr.isa), oi->mem == GMS_MEM_LD_GLOBAL ? "LOAD_OP" : "STORE_OP");
    int fmt = -1;
    if (v > 0) {
        int is_mem = oi->op == GMS_OP_MEM;
        if (is_mem && oi->bad_width && !oi->no_space && oi->mem != GMS_MEM_NONE)
            return PERR("field 'opcode': '%s' gives an access width of %u bytes (expected 1, 2, 4, 8 or 16)",
                        oe->text, (unsigned)oi->width);
        uint64_t first = 0;
        p = parse_addrs(lr, p, end, &d->addr, in, is_mem, w, &fmt, &first, err);
        if (!p) return -1;
        in->op = oi->op;
        in->spec_unit = oi->spec_unit;
        if (is_mem) {
            in->mem = oi->mem;
            in->width = oi->no_space && oi->bad_width ? 4 : oi->width;
            in->flags = oi->flags;
            if (oi->generic && in->addr_mode != GMS_ADDR_NONE)
                in->mem = resolve_generic(&d->hdr, first, oi->is_store);
        }
    } else {
        if (oi->need_addr)
            return PERR("field 'mem_width': '%s' is a memory instruction but mem_width is 0 (no addresses)",
                        oe->text);
        in->op = oi->nomem_op;
        in->spec_unit = oi->nomem_spec;
        if (oi->no_space) {   /* no lane active (above): through the LDST unit without an access */
            in->mem = oi->mem;
            in->width = oi->bad_width ? 4 : oi->width;
        }
    }
    if (in->op != GMS_OP_MEM || in->mem == GMS_MEM_NONE) in->flags = oi->flags & (GMS_INST_HALF_II | GMS_INST_MEMBAR);
    if (src_rz) in->flags |= GMS_INST_SRC_RZ;
    /* the immediate; base+delta lines may carry one extra delta (Accel-Sim reads popcount) */
    int extra = 0;
    for (;;) {
        p = next_tok(p, &t);
        if (t.s == t.e) break;
        if (++extra > (fmt == 2 ? 2 : 1)) {
            quote_t q = quote(t.s, end, QUOTE_MAX);
            return PERR("unexpected field '%.*s%s' after the immediate (too many fields)", q.n, t.s, q.dots);
        }
        if (!imm_ok(&t))
            return field_err(lr, &t, fmt == 2 ? "delta or immediate" : "immediate",
                             "a decimal or 0x hex number of at most 64 bits", err);
    }
    return 0;
}

/* host speed: inline (strncmp was a call for every structural line, most failing at once) */
static inline int starts(const char *s, const char *word)
{
    for (; *word; s++, word++)
        if (*s != *word) return 0;
    return 1;
}

/* "key = value" after a fixed key word; returns the value text or NULL */
static const char *after_eq(const char *s, size_t keylen)
{
    s += keylen;
    while (*s == ' ' || *s == '\t') s++;
    if (*s != '=') return NULL;
    s++;
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

static int dec_word(const char *s, uint64_t max, uint64_t *out)
{
    tok_t t;
    const char *p = next_tok(s, &t);
    if (dec_u64(&t, out) || *out > max) return -1;
    next_tok(p, &t);
    return t.s == t.e ? 0 : -1;
}

static int parse_tb_id(const char *s, uint32_t v[3])
{
    for (int i = 0; i < 3; i++) {
        while (*s == ' ' || *s == '\t') s++;
        uint64_t x = 0;
        int nd = 0;
        for (; *s >= '0' && *s <= '9' && nd < 11; s++, nd++) x = x * 10 + (uint64_t)(*s - '0');
        if (!nd || x > UINT32_MAX) return -1;
        v[i] = (uint32_t)x;
        while (*s == ' ' || *s == '\t') s++;
        if (i < 2 && *s++ != ',') return -1;
    }
    return *s ? -1 : 0;
}

static int is_hex_start(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int gms_trace_read_block(gms_linereader *lr, gms_trace_dec *d, gms_block_trace *out, gms_error *err)
{
    char *line;
    size_t len;
    int r;
    gms_block_trace_reset(out, d->nwarps);
    if (!d->memo_set) {   /* no token yet (a zeroed memo would vouch for one) */
        d->pc.hs = d->mask.hs = d->addr.hs = GMS_HEX_MEMO_NONE;
        d->memo_set = 1;
    }
    for (;;) {   /* #BEGIN_TB */
        r = gms_lr_next(lr, &line, &len, err);
        if (r <= 0) return r;
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) continue;
        if (starts(s, "#BEGIN_TB")) break;
        return PERR("expected '#BEGIN_TB', got '%.60s'", s);
    }
    int have_id = 0, warp = -1;
    uint64_t remaining = 0, count = 0, declared = 0;
    uint32_t seen = 0;
    for (;;) {
        r = gms_lr_next(lr, &line, &len, err);
        if (r < 0) return -1;
        if (r == 0) {
            if (remaining)
                return PERR("file ends inside warp %d: insts = %llu but only %llu instruction lines "
                            "(truncated file?)", warp, (unsigned long long)declared,
                            (unsigned long long)count);
            return PERR("file ends inside a thread block (no #END_TB; truncated file?)");
        }
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) continue;
        if (remaining) {
            /* a line of the block's structure: fewer instruction lines than declared (anything
             * else is taken as an instruction line, and a bad field in it is named) */
            if (!is_hex_start(*s) &&   /* host speed: an instruction line's PC is the common case */
                (*s == '#' || starts(s, "warp") || starts(s, "insts") || starts(s, "thread block"))) {
                quote_t q = quote(s, line + len, QUOTE_MAX);
                return PERR("warp %d: insts = %llu but only %llu instruction lines before '%.*s%s'", warp,
                            (unsigned long long)declared, (unsigned long long)count, q.n, s, q.dots);
            }
            if (parse_inst(lr, d, s, line + len, &out->warps[warp], err)) return -1;
            remaining--;
            count++;
            continue;
        }
        if (starts(s, "#END_TB")) break;
        if (starts(s, "thread block")) {
            const char *v = after_eq(s, 12);
            uint32_t id[3];
            if (!v || parse_tb_id(v, id)) return PERR("expected 'thread block = x,y,z', got '%.60s'", s);
            if (id[0] >= d->hdr.grid.x || id[1] >= d->hdr.grid.y || id[2] >= d->hdr.grid.z)
                return PERR("thread block (%u,%u,%u) is outside the grid (%u,%u,%u)", id[0], id[1], id[2],
                            d->hdr.grid.x, d->hdr.grid.y, d->hdr.grid.z);
            /* each of the grid's blocks once (a repeated one would run twice and another never) */
            /* (a bitmap of the grid, at most 16 MB: a grid of more than 2^27 blocks, which no
             * trace file of this world holds, is not checked; it fails as truncated instead) */
            uint64_t lin = ((uint64_t)id[2] * d->hdr.grid.y + id[1]) * d->hdr.grid.x + id[0];
            uint64_t nb = (uint64_t)d->hdr.grid.x * d->hdr.grid.y * d->hdr.grid.z;
            if (!d->seen && nb <= (1ULL << 27)) d->seen = gms_xcalloc((size_t)((nb + 63) / 64), sizeof *d->seen);
            if (d->seen) {
                if (d->seen[lin >> 6] >> (lin & 63) & 1)
                    return PERR("thread block (%u,%u,%u) appears a second time", id[0], id[1], id[2]);
                d->seen[lin >> 6] |= 1ULL << (lin & 63);
            }
            out->x = id[0];
            out->y = id[1];
            out->z = id[2];
            have_id = 1;
        } else if (starts(s, "warp")) {
            const char *v = after_eq(s, 4);
            uint64_t wv;
            if (!v || dec_word(v, UINT32_MAX, &wv)) return PERR("expected 'warp = N', got '%.60s'", s);
            if (wv >= d->nwarps)
                return PERR("warp %llu does not exist: the block has %u threads, so warps 0 to %u",
                            (unsigned long long)wv, (unsigned)gms_dim3_count(d->hdr.block), d->nwarps - 1);
            if (seen >> wv & 1u) return PERR("warp %llu appears twice in this thread block", (unsigned long long)wv);
            seen |= 1u << wv;
            warp = (int)wv;
            declared = 0;
        } else if (starts(s, "insts")) {
            const char *v = after_eq(s, 5);
            uint64_t n;
            if (warp < 0) return PERR("'insts = ' before any 'warp = ' line");
            if (!v || dec_word(v, UINT64_MAX, &n)) return PERR("expected 'insts = N', got '%.60s'", s);
            if (n > UINT32_MAX)
                return PERR("'insts = %llu' is out of range (at most %u)", (unsigned long long)n, UINT32_MAX);
            if (declared || out->warps[warp].n) return PERR("warp %d has a second 'insts = ' line", warp);
            gms_warp_trace *wt = &out->warps[warp];
            uint32_t want = n > INSTS_RESERVE_MAX ? INSTS_RESERVE_MAX : (uint32_t)n;
            if (want > wt->cap) {
                wt->insts = gms_xrealloc(wt->insts, want * sizeof *wt->insts);
                wt->cap = want;
            }
            declared = remaining = n;
            count = 0;
        } else if (starts(s, "#BEGIN_TB")) {
            return PERR("'#BEGIN_TB' inside a thread block (the previous one has no #END_TB)");
        } else if (is_hex_start(*s)) {
            return PERR("instruction line outside a warp's 'insts = N' lines (more lines than N?)");
        } else {
            return PERR("unexpected line in a thread block: '%.60s'", s);
        }
    }
    if (!have_id) return PERR("thread block has no 'thread block = x,y,z' line");
    return 1;
}
