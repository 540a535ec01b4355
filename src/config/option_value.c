/* Option values. Every numeric value is scanned exactly: the number, then (only where the
 * option declares units) one unit word; anything else after the number is an error. strtod and
 * friends stop at the first character they cannot use, which used to make "16MB/s" read as
 * 16 GB/s; here the number's extent is found first and the rest must be a declared unit. */
#include "config/option_value.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct unit { const char *name; double scale; } unit;

/* sizes as GPGPU-Sim / UVMSmart write them ("4KB", "1GB"), 1024-based */
static const unit bytes_units[] = {
    { "B", 1 }, { "K", 1024.0 }, { "KB", 1024.0 }, { "KiB", 1024.0 },
    { "M", 1048576.0 }, { "MB", 1048576.0 }, { "MiB", 1048576.0 },
    { "G", 1073741824.0 }, { "GB", 1073741824.0 }, { "GiB", 1073741824.0 }, { NULL, 0 },
};
/* link bandwidths are decimal: 16 GB/s = 16000 MB/s */
static const unit gbps_units[] = { { "GB/s", 1 }, { "MB/s", 1e-3 }, { "KB/s", 1e-6 }, { NULL, 0 } };
static const unit usec_units[] = { { "us", 1 }, { "ns", 1e-3 }, { "ms", 1e3 }, { NULL, 0 } };

static const unit *units_of(gms_opt_syntax s)
{
    switch (s) {
    case GMS_SYN_BYTES: return bytes_units;
    case GMS_SYN_GBPS: return gbps_units;
    case GMS_SYN_USEC: return usec_units;
    default: return NULL;
    }
}

const char *gms_option_units(const gms_option *o)
{
    switch (o->syntax) {
    case GMS_SYN_BYTES: return "B, KB, MB, GB (also K, M, G, KiB, MiB, GiB; 1024-based); a bare number is bytes";
    case GMS_SYN_GBPS: return "GB/s, MB/s, KB/s (1000-based); a bare number is GB/s";
    case GMS_SYN_USEC: return "us, ns, ms; a bare number is us";
    case GMS_SYN_INT_LIST: return "a comma-separated list of integers";
    default: return "";
    }
}

/* extent of the number at s: [-]digits[.digits][(e|E)[+-]digits], or 0x<hex> when !frac.
 * Returns 0 when there is no number. */
static size_t number_span(const char *s, int sign, int frac, int *hex)
{
    size_t i = 0;
    *hex = 0;
    if (sign && s[i] == '-') i++;
    if (!frac && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') && isxdigit((unsigned char)s[i + 2])) {
        i += 2;
        while (isxdigit((unsigned char)s[i])) i++;
        *hex = 1;
        return i;
    }
    size_t d0 = i;
    while (isdigit((unsigned char)s[i])) i++;
    size_t nd = i - d0;
    if (frac && s[i] == '.') {
        size_t f0 = ++i;
        while (isdigit((unsigned char)s[i])) i++;
        nd += i - f0;
    }
    if (!nd) return 0;
    if (frac && (s[i] == 'e' || s[i] == 'E')) {
        size_t e = i + 1;
        if (s[e] == '+' || s[e] == '-') e++;
        if (isdigit((unsigned char)s[e])) {
            while (isdigit((unsigned char)s[e])) e++;
            i = e;
        }
    }
    return i;
}

static const char *type_words(gms_opt_type t)
{
    switch (t) {
    case GMS_OPT_INT: return "an integer";
    case GMS_OPT_U32: return "an unsigned 32-bit integer";
    case GMS_OPT_U64: return "an unsigned 64-bit integer";
    default: return "a number";
    }
}

/* the unit after the number: 0 with *scale set, -1 (with err) when it is not one of o's */
static int take_unit(const gms_option *o, const char *val, const char *rest, double *scale, const char *where,
                     gms_error *err)
{
    while (*rest == ' ' || *rest == '\t') rest++;
    *scale = 1;
    if (!*rest) return 0;
    const unit *u = units_of(o->syntax);
    for (; u && u->name; u++)
        if (!strcmp(rest, u->name)) { *scale = u->scale; return 0; }
    if (units_of(o->syntax))
        return gms_err(err, "%s-%s: '%s': unit '%s' is not accepted; accepted units: %s", where, o->name, val, rest,
                       gms_option_units(o));
    return gms_err(err, "%s-%s: '%s' is not %s: '%s' follows the number and -%s takes no unit", where, o->name,
                   val, type_words(o->type), rest, o->name);
}

/* integers: exact, no silent wrap or clamp */
static int parse_integer(const gms_option *o, const char *val, void *field, const char *where, gms_error *err)
{
    int is_signed = o->type == GMS_OPT_INT;
    if (!is_signed && val[0] == '-') return gms_err(err, "%s-%s: '%s' must not be negative", where, o->name, val);
    int hex;
    /* a size may have a fraction before its unit ("1.5GB") */
    int frac = o->syntax == GMS_SYN_BYTES;
    size_t n = number_span(val, is_signed, frac, &hex);
    if (!n) return gms_err(err, "%s-%s: '%s' is not %s", where, o->name, val, type_words(o->type));
    double scale;
    if (take_unit(o, val, val + n, &scale, where, err)) return -1;
    char num[128];
    if (n >= sizeof num) return gms_err(err, "%s-%s: '%s' is out of range", where, o->name, val);
    memcpy(num, val, n);
    num[n] = 0;
    uint64_t max = o->type == GMS_OPT_U32 ? UINT32_MAX : o->type == GMS_OPT_U64 ? UINT64_MAX : (uint64_t)INT_MAX;
    errno = 0;
    if (is_signed) {
        long long v = strtoll(num, NULL, hex ? 16 : 10);
        if (errno || v < INT_MIN || v > INT_MAX)
            return gms_err(err, "%s-%s: '%s' is out of range (%d to %d)", where, o->name, val, INT_MIN, INT_MAX);
        *(int *)field = (int)v;
        return 0;
    }
    uint64_t v;
    if (strpbrk(num, ".eE") && !hex) {
        /* a fractional size: the product must be a whole number of bytes */
        double d = strtod(num, NULL) * scale;
        if (errno || !(d <= 18446744073709549568.0))
            return gms_err(err, "%s-%s: '%s' is out of range (at most %llu)", where, o->name, val, (unsigned long long)max);
        if (d != floor(d)) return gms_err(err, "%s-%s: '%s' is not a whole number of bytes", where, o->name, val);
        v = (uint64_t)d;
    } else {
        unsigned long long u = strtoull(num, NULL, hex ? 16 : 10);
        uint64_t mul = (uint64_t)scale;
        if (errno || (mul > 1 && u > UINT64_MAX / mul))
            return gms_err(err, "%s-%s: '%s' is out of range (at most %llu)", where, o->name, val, (unsigned long long)max);
        v = (uint64_t)u * mul;
    }
    if (v > max)
        return gms_err(err, "%s-%s: '%s' is out of range (at most %llu)", where, o->name, val, (unsigned long long)max);
    if (o->type == GMS_OPT_U32) *(uint32_t *)field = (uint32_t)v;
    else *(uint64_t *)field = v;
    return 0;
}

static int parse_double(const gms_option *o, const char *val, double *field, const char *where, gms_error *err)
{
    int hex;
    size_t n = number_span(val, 1, 1, &hex);
    if (!n) return gms_err(err, "%s-%s: '%s' is not a number", where, o->name, val);
    double scale;
    if (take_unit(o, val, val + n, &scale, where, err)) return -1;
    char num[128];
    if (n >= sizeof num) return gms_err(err, "%s-%s: '%s' is out of range", where, o->name, val);
    memcpy(num, val, n);
    num[n] = 0;
    errno = 0;
    double v = strtod(num, NULL) * scale;
    if (errno == ERANGE || !isfinite(v)) return gms_err(err, "%s-%s: '%s' is out of range", where, o->name, val);
    *field = v;
    return 0;
}

/* GPGPU-Sim reads such lists with strtok(",") and sscanf("%d"); here every item must be one */
static int check_int_list(const gms_option *o, const char *val, const char *where, gms_error *err)
{
    const char *p = val;
    for (;;) {
        int hex;
        size_t n = number_span(p, 1, 0, &hex);
        if (!n || hex || (p[n] && p[n] != ','))
            return gms_err(err, "%s-%s: '%s' is not a comma-separated list of integers", where, o->name, val);
        char num[32];
        if (n >= sizeof num) return gms_err(err, "%s-%s: '%s': an item is out of range", where, o->name, val);
        memcpy(num, p, n);
        num[n] = 0;
        errno = 0;
        long long v = strtoll(num, NULL, 10);
        if (errno || v < INT_MIN || v > INT_MAX)
            return gms_err(err, "%s-%s: '%s': an item is out of range", where, o->name, val);
        if (!p[n]) return 0;
        p += n + 1;
    }
}

int gms_option_parse(const gms_option *o, const char *val, void *field, const char *where, gms_error *err)
{
    switch (o->type) {
    case GMS_OPT_BOOL: {
        int v;
        if (!strcmp(val, "1") || !strcasecmp(val, "true")) v = 1;
        else if (!strcmp(val, "0") || !strcasecmp(val, "false")) v = 0;
        else return gms_err(err, "%s-%s: '%s' is not a boolean (0 or 1)", where, o->name, val);
        *(int *)field = v;
        return 0;
    }
    case GMS_OPT_INT: case GMS_OPT_U32: case GMS_OPT_U64:
        return parse_integer(o, val, field, where, err);
    case GMS_OPT_DOUBLE:
        return parse_double(o, val, field, where, err);
    case GMS_OPT_STRING: {
        /* the field's own size: some string fields (e.g. -gms_l1d_mshr's) are shorter than
         * GMS_OPT_STRLEN, and a longer value must be refused, not written past them */
        size_t cap = o->size && o->size < GMS_OPT_STRLEN ? o->size : GMS_OPT_STRLEN;
        if (strlen(val) >= cap)
            return gms_err(err, "%s-%s: value is longer than %zu characters", where, o->name, cap - 1);
        if (o->syntax == GMS_SYN_INT_LIST && check_int_list(o, val, where, err)) return -1;
        snprintf((char *)field, cap, "%s", val);
        return 0;
    }
    }
    return gms_err(err, "%s-%s: internal: bad option type", where, o->name);
}

int gms_option_is_default(const gms_option *o, const void *field)
{
    union { int i; uint32_t u32; uint64_t u64; double d; char s[GMS_OPT_STRLEN]; } def;
    gms_error err = {0};
    memset(&def, 0, sizeof def);
    if (gms_option_parse(o, o->defval, &def, "default ", &err)) return 0;
    switch (o->type) {
    case GMS_OPT_BOOL: case GMS_OPT_INT: return *(const int *)field == def.i;
    case GMS_OPT_U32: return *(const uint32_t *)field == def.u32;
    case GMS_OPT_U64: return *(const uint64_t *)field == def.u64;
    case GMS_OPT_DOUBLE: return *(const double *)field == def.d;
    case GMS_OPT_STRING: return !strcmp((const char *)field, def.s);
    }
    return 0;
}

int gms_parse_u32_list(const char *s, char sep, uint32_t *out, size_t max, size_t *n)
{
    *n = 0;
    for (const char *p = s;;) {
        const char *q = p;
        uint64_t v = 0;
        while (isdigit((unsigned char)*q)) {
            v = v * 10 + (uint64_t)(*q - '0');
            if (v > UINT32_MAX) return -1;
            q++;
        }
        if (q == p || *n == max) return -1;
        out[(*n)++] = (uint32_t)v;
        if (!*q) return 0;
        if (*q != sep) return -1;
        p = q + 1;
    }
}
