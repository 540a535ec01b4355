/* The kernel header of a .traceg file: `-key = value` lines (as written by Accel-Sim's NVBit
 * tracer), ended by the "#traces format" comment line. Unknown keys are ignored, like
 * Accel-Sim does; a known key with a malformed value is an error naming line and key. */
#include "frontend/trace_parse.h"
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
    return s;
}

static int parse_u64(const char *s, int hex, uint64_t *out)
{
    uint64_t v = 0;
    int nd = 0;
    if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    for (; *s; s++, nd++) {
        int d;
        if (*s >= '0' && *s <= '9') d = *s - '0';
        else if (hex && *s >= 'a' && *s <= 'f') d = *s - 'a' + 10;
        else if (hex && *s >= 'A' && *s <= 'F') d = *s - 'A' + 10;
        else return -1;
        uint64_t base = hex ? 16u : 10u;
        if (v > (UINT64_MAX - (uint64_t)d) / base) {   /* too large: -2 once the rest is digits */
            for (s++; *s; s++)
                if (!(*s >= '0' && *s <= '9') && !(hex && isxdigit((unsigned char)*s))) return -1;
            return -2;
        }
        v = v * base + (uint64_t)d;
    }
    if (nd == 0) return -1;
    *out = v;
    return 0;
}

/* 0, -1 (not a number) or -2 (a number above max) */
static int parse_max(const char *s, uint64_t max, uint32_t *out)
{
    uint64_t v;
    int rc = parse_u64(s, 0, &v);
    if (rc) return rc;
    if (v > max) return -2;
    *out = (uint32_t)v;
    return 0;
}

static int parse_u32(const char *s, uint32_t *out) { return parse_max(s, UINT32_MAX, out); }

/* "(x,y,z)" with optional spaces */
static int parse_dim3(const char *s, gms_dim3 *d)
{
    char tmp[128];
    size_t n = strlen(s);
    if (n < 2 || n >= sizeof tmp || s[0] != '(' || s[n - 1] != ')') return -1;
    memcpy(tmp, s + 1, n - 2);
    tmp[n - 2] = 0;
    uint32_t v[3];
    char *p = tmp;
    int big = 0;
    for (int i = 0; i < 3; i++) {
        char *c = strchr(p, ',');
        if ((i < 2) != (c != NULL)) return -1;
        if (c) *c = 0;
        int rc = parse_u32(trim(p), &v[i]);
        if (rc == -1) return -1;
        big |= rc == -2;
        p = c ? c + 1 : p;
    }
    if (big) return -2;
    d->x = v[0];
    d->y = v[1];
    d->z = v[2];
    return 0;
}

#define HERR(...) gms_err_at(err, lr->path, gms_lr_line(lr), __VA_ARGS__)

/* a numeric header value that failed: malformed (-1) or too large (-2) */
static int num_err(gms_linereader *lr, const char *key, const char *val, int rc, uint64_t max, const char *want,
                   gms_error *err)
{
    if (rc == -2)
        return HERR("-%s: '%.60s%s' is out of range (at most %llu)", key, val, strlen(val) > 60 ? "..." : "",
                    (unsigned long long)max);
    return HERR("-%s: expected %s, got '%.60s%s'", key, want, val, strlen(val) > 60 ? "..." : "");
}

/* the keys this reader uses: each at most once in a header */
static const char *const KEYS[] = { "kernel name", "kernel id", "grid dim", "block dim", "shmem", "nregs",
                                    "binary version", "cuda stream id", "shmem base_addr", "local mem base_addr",
                                    "accelsim tracer version", "enable lineinfo" };
#define NKEYS (sizeof KEYS / sizeof KEYS[0])

static int set_key(gms_linereader *lr, gms_trace_hdr *h, const char *key, char *val,
                   unsigned *seen, int *first_line, gms_error *err)
{
    uint64_t v64;
    uint32_t v32;
    int rc;
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(key, KEYS[i])) {
            if (first_line[i])
                return HERR("-%s appears a second time (first on line %d)", key, first_line[i]);
            first_line[i] = gms_lr_line(lr);
        }
    if (!strcmp(key, "kernel name")) {
        snprintf(h->name, sizeof h->name, "%s", val);
    } else if (!strcmp(key, "kernel id")) {
        if ((rc = parse_max(val, 0x7fffffffu, &v32))) return num_err(lr, key, val, rc, 0x7fffffffu, "a number", err);
        h->kernel_id = (int)v32;
    } else if (!strcmp(key, "grid dim")) {
        if ((rc = parse_dim3(val, &h->grid))) return num_err(lr, key, val, rc, UINT32_MAX, "(x,y,z)", err);
        *seen |= 1;
    } else if (!strcmp(key, "block dim")) {
        if ((rc = parse_dim3(val, &h->block))) return num_err(lr, key, val, rc, UINT32_MAX, "(x,y,z)", err);
        *seen |= 2;
    } else if (!strcmp(key, "shmem")) {
        if ((rc = parse_u32(val, &h->shmem))) return num_err(lr, key, val, rc, UINT32_MAX, "a number", err);
    } else if (!strcmp(key, "nregs")) {
        if ((rc = parse_u32(val, &h->nregs))) return num_err(lr, key, val, rc, UINT32_MAX, "a number", err);
    } else if (!strcmp(key, "binary version")) {
        if ((rc = parse_max(val, 10000, &v32))) return num_err(lr, key, val, rc, 10000, "a number", err);
        h->binary_version = (int)v32;
        *seen |= 4;
    } else if (!strcmp(key, "cuda stream id")) {
        if ((rc = parse_u64(val, 0, &h->stream))) return num_err(lr, key, val, rc, UINT64_MAX, "a number", err);
    } else if (!strcmp(key, "shmem base_addr")) {
        if ((rc = parse_u64(val, 1, &h->shmem_base))) return num_err(lr, key, val, rc, UINT64_MAX, "a hex address", err);
    } else if (!strcmp(key, "local mem base_addr")) {
        if ((rc = parse_u64(val, 1, &h->local_base))) return num_err(lr, key, val, rc, UINT64_MAX, "a hex address", err);
    } else if (!strcmp(key, "accelsim tracer version")) {
        /* 1 and 2 (cta_x cta_y cta_z warp before each line), 3, 4, 5; Accel-Sim's tracer has written no other */
        if ((rc = parse_max(val, UINT32_MAX, &v32)) == -1) return num_err(lr, key, val, rc, 5, "a number", err);
        if (rc || v32 < 1 || v32 > 5)
            return HERR("-accelsim tracer version: '%.60s%s' is not a version this reader knows (1 to 5: 1 and 2 start "
                        "each instruction line with cta_x cta_y cta_z warp, 3, 4 and 5 do not)", val,
                        strlen(val) > 60 ? "..." : "");
        h->tracer_version = (int)v32;
    } else if (!strcmp(key, "enable lineinfo")) {
        if (parse_u64(val, 0, &v64) || v64 > 1) return HERR("-enable lineinfo: '%.60s' must be 0 or 1", val);
        h->lineinfo = (int)v64;
    }
    return 0;
}

int gms_trace_read_header(gms_linereader *lr, gms_trace_hdr *h, gms_error *err)
{
    memset(h, 0, sizeof *h);
    unsigned seen = 0;
    int first_line[NKEYS] = {0};
    char *line;
    size_t len;
    int r;
    while ((r = gms_lr_next(lr, &line, &len, err)) == 1) {
        char *s = trim(line);
        if (!*s) continue;
        if (s[0] == '#') {
            if (!strncmp(s, "#BEGIN_TB", 9)) gms_lr_unread(lr);
            break;
        }
        if (s[0] != '-')
            return HERR("expected a header line '-key = value' or '#traces format', got '%.60s'", s);
        char *eq = strchr(s, '=');
        if (!eq) return HERR("header line '%.60s' has no '='", s);
        *eq = 0;
        char *key = trim(s + 1);
        for (char *k = key; *k; k++)   /* collapse runs of blanks in the key */
            if (*k == '\t') *k = ' ';
        if (set_key(lr, h, key, trim(eq + 1), &seen, first_line, err)) return -1;
    }
    if (r < 0) return -1;
    int line_no = gms_lr_line(lr);
    if (!(seen & 1)) return gms_err_at(err, lr->path, line_no, "kernel header has no '-grid dim'");
    if (!(seen & 2)) return gms_err_at(err, lr->path, line_no, "kernel header has no '-block dim'");
    if (!(seen & 4)) return gms_err_at(err, lr->path, line_no, "kernel header has no '-binary version'");
    if (!h->grid.x || !h->grid.y || !h->grid.z)
        return gms_err_at(err, lr->path, line_no, "-grid dim (%u,%u,%u) has a zero dimension",
                          h->grid.x, h->grid.y, h->grid.z);
    uint64_t threads = gms_dim3_count(h->block);
    if (threads == 0 || threads > 1024)
        return gms_err_at(err, lr->path, line_no, "-block dim (%u,%u,%u): %llu threads per block, "
                          "must be 1 to 1024", h->block.x, h->block.y, h->block.z,
                          (unsigned long long)threads);
    if (gms_isa_from_binary_version(h->binary_version, &h->isa))
        return gms_err_at(err, lr->path, line_no, "-binary version = %d: no opcode table for it "
                          "(known: Kepler 30-37, Maxwell/Pascal 50-62, Volta 70-72, Turing 73-75, "
                          "Ampere 80-89)", h->binary_version);
    /* Accel-Sim (trace_kernel_info_t's constructor) knows these versions only; for any other
     * it prints "unsupported binary version" and exits. We read the neighbours with the
     * nearest table (a deliberate choice, docs/traces.md) and say so once a run. */
    static const int accelsim_bv[] = {35, 60, 61, 70, 75, 80, 86};
    int known = 0;
    for (size_t i = 0; i < sizeof accelsim_bv / sizeof accelsim_bv[0]; i++) known |= h->binary_version == accelsim_bv[i];
    static atomic_int warned;
    if (!known && !atomic_exchange(&warned, 1))
        fprintf(stderr, "gpumemsim: warning: %s: -binary version = %d is not one Accel-Sim runs (35, 60, 61, 70, 75, "
                "80, 86: it stops with 'unsupported binary version'); read here with the %s opcode table (said once "
                "a run)\n", lr->path, h->binary_version, gms_isa_name(h->isa));
    return 0;
}
