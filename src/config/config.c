/* GPGPU-Sim option syntax: "-name value" tokens (several per line allowed), '#' comments,
 * double-quoted values, "-config other.config" includes. Later values override earlier ones.
 * Unknown options are an error naming the nearest known option, unless ignore_unknown. */
#include "config/params.h"
#include "config/gpgpusim_names.h"
#include "config/option_value.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static size_t total_options(void)
{
    size_t n = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) n += gms_config_modules[m]->noptions;
    return n;
}

static const gms_option *find_option(const char *name, size_t *index)
{
    size_t k = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++, k++)
            if (!strcmp(mod->options[i].name, name)) {
                if (index) *index = k;
                return &mod->options[i];
            }
    }
    return NULL;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 200 || lb > 200) return 1000;
    size_t prev[201], cur[201];
    for (size_t j = 0; j <= lb; j++) prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t c = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            if (prev[j] + 1 < c) c = prev[j] + 1;
            if (cur[j - 1] + 1 < c) c = cur[j - 1] + 1;
            cur[j] = c;
        }
        memcpy(prev, cur, (lb + 1) * sizeof *prev);
    }
    return prev[lb];
}

/* Word of an option name: the '_'- or ':'-separated parts ("enable", "dma"). */
static int has_word(const char *name, const char *w, size_t wl)
{
    for (const char *p = name; *p;) {
        size_t l = strcspn(p, "_:");
        if (l == wl && !strncasecmp(p, w, wl)) return 1;
        p += l;
        if (*p) p++;
    }
    return 0;
}

/* Words of `name` it shares with `opt`, counting only words that few options have: "gpgpu" or
 * "uvm" say nothing about which option was meant, "dma" or "threshold" do. */
static size_t shared_words(const char *name, const char *opt)
{
    size_t n = 0;
    for (const char *p = name; *p;) {
        size_t l = strcspn(p, "_:");
        if (l >= 3 && has_word(opt, p, l)) {
            size_t users = 0;
            for (size_t m = 0; m < gms_config_nmodules && users <= 8; m++)
                for (size_t i = 0; i < gms_config_modules[m]->noptions; i++)
                    users += (size_t)has_word(gms_config_modules[m]->options[i].name, p, l);
            if (users <= 8) n++;
        }
        p += l;
        if (*p) p++;
    }
    return n;
}

/* The option a misspelt name most likely meant, or NULL when none is close: the one sharing the
 * most distinctive words, then the fewest edits. Plain edit distance alone sent -enable_dma to
 * -gms_seed (short names are all a few edits apart), so an option sharing no word must also be
 * within a third of the name's length in edits. */
static const char *nearest_option(const char *name, int *peer)
{
    const char *best = NULL;
    size_t bd = (size_t)-1, bs = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++) {
            size_t d = edit_distance(name, mod->options[i].name);
            size_t sh = shared_words(name, mod->options[i].name);
            if (sh > bs || (sh == bs && d < bd)) { bs = sh; bd = d; best = mod->options[i].name; }
        }
    }
    size_t limit = strlen(name) / 3;
    if (limit < 2) limit = 2;
    /* a GPGPU-Sim option we do not model a couple of edits away beats a registered one
     * further off (-gpgpu_stack_size_limt meant -gpgpu_stack_size_limit) */
    *peer = 0;
    for (size_t i = 0, n = gms_gpgpusim_option_count(); i < n; i++) {
        const char *c = gms_gpgpusim_option_at(i);
        size_t d = edit_distance(name, c);
        if (d <= 2 && d < bd && !find_option(c, NULL)) { bd = d; best = c; bs = 1; *peer = 1; }
    }
    if (!bs && bd > limit) return NULL;
    return best;
}

static int set_option(gms_params *p, const char *name, const char *val, const char *where, gms_error *err)
{
    while (*name == '-') name++;
    size_t idx;
    const gms_option *o = find_option(name, &idx);
    if (!o) {
        int peer = gms_gpgpusim_option_known(name);
        if (peer || p->ignore_unknown) {
            /* a GPGPU-Sim / Accel-Sim / UVMSmart option we do not model: accepted and named in
             * the run's output; any other name only with --ignore-unknown, said to be unknown */
            char buf[512];
            snprintf(buf, sizeof buf, "%s-%s %s%s", where, name, val,
                     peer ? "" : "   (unknown: neither a gpumemsim nor a GPGPU-Sim option)");
            char nm[512];
            snprintf(nm, sizeof nm, "-%s", name);
            /* set again (a config may repeat a line): one entry, the value in effect (the last) */
            for (size_t i = 0; i < p->nignored; i++)
                if (!strcmp(p->ignored_names[i], nm)) {
                    free(p->ignored[i]);
                    p->ignored[i] = gms_xstrdup(buf);
                    return 0;
                }
            p->ignored = gms_xrealloc(p->ignored, (p->nignored + 1) * sizeof *p->ignored);
            p->ignored_names = gms_xrealloc(p->ignored_names, (p->nignored + 1) * sizeof *p->ignored_names);
            p->ignored[p->nignored] = gms_xstrdup(buf);
            p->ignored_names[p->nignored++] = gms_xstrdup(nm);
            return 0;
        }
        int near_peer;
        const char *near = nearest_option(name, &near_peer);
        if (near && near_peer)
            return gms_err(err, "%sunknown option -%s: neither a gpumemsim nor a GPGPU-Sim option (did you mean -%s, "
                           "a GPGPU-Sim option gpumemsim does not model? --ignore-unknown loads it anyway)", where, name, near);
        if (!near)
            return gms_err(err, "%sunknown option -%s: neither a gpumemsim nor a GPGPU-Sim option (no option has a "
                           "similar name: gpumemsim list options; --ignore-unknown loads it anyway)", where, name);
        return gms_err(err, "%sunknown option -%s: neither a gpumemsim nor a GPGPU-Sim option (did you mean -%s? "
                       "--ignore-unknown loads it anyway)", where, name, near);
    }
    if (gms_option_parse(o, val, (char *)p + o->offset, where, err)) return -1;
    p->is_set[idx] = 1;
    free(p->set_where[idx]);
    p->set_where[idx] = where && where[0] ? gms_xstrdup(where) : NULL;
    p->finalized = 0;
    return 0;
}

int gms_params_is_set(const gms_params *p, const char *name)
{
    size_t idx;
    return find_option(name, &idx) && p->is_set && p->is_set[idx];
}

gms_params *gms_params_new(void)
{
    gms_params *p = gms_xcalloc(1, sizeof *p);
    p->is_set = gms_xcalloc(total_options() + 1, 1);
    p->set_where = gms_xcalloc(total_options() + 1, sizeof *p->set_where);
    gms_error err = {0};
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++) {
            const gms_option *o = &mod->options[i];
            if (gms_option_parse(o, o->defval, (char *)p + o->offset, "default ", &err)) {
                fprintf(stderr, "gpumemsim: internal error: %s\n", err.msg);
                abort();
            }
        }
    }
    memset(p->is_set, 0, total_options() + 1);
    return p;
}

void gms_params_free(gms_params *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nignored; i++) { free(p->ignored[i]); free(p->ignored_names[i]); }
    free(p->ignored);
    free(p->ignored_names);
    for (size_t i = 0; i < p->nsources; i++) free(p->sources[i]);
    free(p->is_set);
    for (size_t i = 0; p->set_where && i < total_options() + 1; i++) free(p->set_where[i]);
    free(p->set_where);
    free(p);
}

void gms_params_set_ignore_unknown(gms_params *p, int on) { p->ignore_unknown = on; }
size_t gms_params_n_ignored(const gms_params *p) { return p->nignored; }
const char *gms_params_ignored(const gms_params *p, size_t i) { return i < p->nignored ? p->ignored[i] : NULL; }
const char *gms_params_ignored_name(const gms_params *p, size_t i) { return i < p->nignored ? p->ignored_names[i] : NULL; }

int gms_params_set(gms_params *p, const char *name, const char *value, gms_error *err)
{
    return set_option(p, name, value, "--set ", err);
}

/* tokenizer state over one file */
typedef struct tok { char *s; int line; } tok;

static int tokenize(const char *path, char *text, tok **out, size_t *nout, gms_error *err)
{
    size_t cap = 64, n = 0;
    tok *t = gms_xmalloc(cap * sizeof *t);
    int line = 1;
    char *c = text;
    while (*c) {
        if (*c == '\n') { line++; c++; continue; }
        if (isspace((unsigned char)*c)) { c++; continue; }
        if (*c == '#') { while (*c && *c != '\n') c++; continue; }
        char *start;
        if (*c == '"') {
            /* a quoted value may span lines (GPGPU-Sim's QV100 DRAM timing does); white space
             * inside it is dropped: "nbk=16:...:RC=40:\n   CL=12" reads as one string */
            int qline = line;
            start = ++c;
            char *o = c;
            while (*c && *c != '"') {
                if (*c == '\n') line++;
                if (!isspace((unsigned char)*c)) *o++ = *c;
                c++;
            }
            if (*c != '"') {
                free(t);
                return gms_err_at(err, path, qline, "unterminated quoted value");
            }
            *o = 0;
            c++;
            if (n == cap) { cap *= 2; t = gms_xrealloc(t, cap * sizeof *t); }
            t[n].s = start;
            t[n].line = qline;
            n++;
            continue;
        } else {
            start = c;
            while (*c && !isspace((unsigned char)*c)) c++;
            if (*c) {
                int nl = *c == '\n';
                *c++ = 0;
                if (nl) { if (n == cap) { cap *= 2; t = gms_xrealloc(t, cap * sizeof *t); }
                          t[n].s = start; t[n].line = line; n++; line++; continue; }
            }
        }
        if (n == cap) { cap *= 2; t = gms_xrealloc(t, cap * sizeof *t); }
        t[n].s = start;
        t[n].line = line;
        n++;
    }
    *out = t;
    *nout = n;
    return 0;
}

/* the whole file; a directory or anything larger than 64 MiB is an error, not an abort on a
 * huge allocation (ftell of a directory is LLONG_MAX on ext4); pipes work (read to EOF) */
static char *read_text(const char *path, size_t *len, gms_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) { gms_err(err, "%s: cannot open config file: %s", path, strerror(errno)); return NULL; }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        gms_err(err, "%s: is a directory, not a config file", path);
        return NULL;
    }
    size_t cap = 4096, n = 0, limit = (size_t)64 << 20;
    char *text = gms_xmalloc(cap + 1);
    size_t r;
    while ((r = fread(text + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n > limit) break;
        if (n == cap) { cap *= 2; text = gms_xrealloc(text, cap + 1); }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || n > limit) {
        free(text);
        gms_err(err, bad ? "%s: cannot read config file" : "%s: larger than 64 MiB, not a config file", path);
        return NULL;
    }
    text[n] = 0;
    *len = n;
    return text;
}

static int load_file(gms_params *p, const char *path, int depth, gms_error *err);

/* text: the file's bytes, NUL-terminated, modified in place (the tokens point into it) */
static int load_text(gms_params *p, const char *path, char *text, size_t rd, int depth, gms_error *err)
{
    if (memchr(text, 0, rd)) return gms_err(err, "%s: not a text file (NUL byte)", path);
    tok *t = NULL;
    size_t n = 0;
    if (tokenize(path, text, &t, &n, err)) return -1;
    if (p->nsources < GMS_MAX_SOURCES) p->sources[p->nsources++] = gms_xstrdup(path);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        char where[600];
        snprintf(where, sizeof where, "%s:%d: ", path, t[i].line);
        if (t[i].s[0] != '-') {
            rc = gms_err(err, "%sexpected an option starting with '-', found '%s'", where, t[i].s);
            break;
        }
        if (i + 1 >= n || (t[i + 1].s[0] == '-' && t[i + 1].line != t[i].line)) {
            rc = gms_err(err, "%s%s: missing value", where, t[i].s);
            break;
        }
        const char *name = t[i].s, *val = t[i + 1].s;
        i++;
        if (!strcmp(name, "-config")) {
            /* relative includes: as given, else next to the including file */
            char inc[1024];
            snprintf(inc, sizeof inc, "%s", val);
            FILE *g = fopen(inc, "rb");
            if (!g && val[0] != '/') {
                const char *slash = strrchr(path, '/');
                if (slash) snprintf(inc, sizeof inc, "%.*s/%s", (int)(slash - path), path, val);
            } else if (g) fclose(g);
            rc = load_file(p, inc, depth + 1, err);
            continue;
        }
        rc = set_option(p, name, val, where, err);
    }
    free(t);
    return rc;
}

static int load_file(gms_params *p, const char *path, int depth, gms_error *err)
{
    if (depth > 8) return gms_err(err, "%s: -config nesting deeper than 8 (an include loop?)", path);
    size_t len;
    char *text = read_text(path, &len, err);
    if (!text) return -1;
    int rc = load_text(p, path, text, len, depth, err);
    free(text);
    return rc;
}

int gms_params_load_file(gms_params *p, const char *path, gms_error *err)
{
    return load_file(p, path, 0, err);
}

int gms_params_load_text(gms_params *p, const char *path, const char *text, size_t len, gms_error *err)
{
    char *copy = gms_xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = 0;
    int rc = load_text(p, path, copy, len, 0, err);
    free(copy);
    return rc;
}

/* a finalize error about one option ("-NAME: ...", compound values such as -gpgpu_cache:dl1 are
 * decoded there) gets the file and line that set it, as errors while reading do */
static void locate(const gms_params *p, gms_error *err)
{
    const char *m = err->msg;
    if (m[0] != '-') return;
    const char *end = strstr(m, ": ");
    if (!end || (size_t)(end - m) > 200) return;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(end - m - 1), m + 1);
    size_t idx;
    if (!find_option(name, &idx) || !p->set_where || !p->set_where[idx]) return;
    size_t wl = strlen(p->set_where[idx]);
    if (wl < 3 || strcmp(p->set_where[idx] + wl - 2, ": ")) return;   /* "FILE:LINE: ", not "--set " */
    size_t ml = strlen(m);
    if (wl + ml + 1 > sizeof err->msg) return;   /* no room: the message as it is */
    memmove(err->msg + wl, err->msg, ml + 1);
    memcpy(err->msg, p->set_where[idx], wl);
}

int gms_params_finalize(gms_params *p, gms_error *err)
{
    for (size_t m = 0; m < gms_config_nmodules; m++)
        if (gms_config_modules[m]->finalize && gms_config_modules[m]->finalize(p, err)) { locate(p, err); return -1; }
    p->finalized = 1;
    return 0;
}

static void print_value(const gms_option *o, const gms_params *p, FILE *out)
{
    const char *f = (const char *)p + o->offset;
    switch (o->type) {
    case GMS_OPT_BOOL: case GMS_OPT_INT: fprintf(out, "%d", *(const int *)f); break;
    case GMS_OPT_U32: fprintf(out, "%u", *(const uint32_t *)f); break;
    case GMS_OPT_U64: fprintf(out, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case GMS_OPT_DOUBLE: fprintf(out, "%g", *(const double *)f); break;
    case GMS_OPT_STRING: fprintf(out, "%s", f[0] ? f : "\"\""); break;
    }
}

void gms_params_dump(const gms_params *p, FILE *out)
{
    fprintf(out, "# gpumemsim %s configuration", GPUMEMSIM_VERSION);
    for (size_t i = 0; i < p->nsources; i++) fprintf(out, "%s%s", i ? ", " : " from ", p->sources[i]);
    fprintf(out, "\n\n## Decoded\n");
    for (size_t m = 0; m < gms_config_nmodules; m++)
        if (gms_config_modules[m]->dump) gms_config_modules[m]->dump(p, out);
    fprintf(out, "\n## Every option (* = set explicitly)\n");
    size_t k = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        fprintf(out, "# [%s]\n", mod->name);
        for (size_t i = 0; i < mod->noptions; i++, k++) {
            const gms_option *o = &mod->options[i];
            fprintf(out, "%c-%-44s ", p->is_set[k] ? '*' : ' ', o->name);
            print_value(o, p, out);
            fprintf(out, "   # %s", o->help);
            if (o->unmodelled)
                fprintf(out, " [%s: %s]", o->unmodelled_in_use ? "partly modelled" : "not modelled", o->unmodelled);
            fputc('\n', out);
        }
    }
    if (p->nignored) {
        fprintf(out, "\n## Ignored (not modelled by gpumemsim)\n");
        for (size_t i = 0; i < p->nignored; i++) fprintf(out, "# %s\n", p->ignored[i]);
    }
}

int gms_params_has_option(const char *name)
{
    while (*name == '-') name++;
    return find_option(name, NULL) != NULL;
}

int gms_params_accepts_option(const char *name)
{
    return gms_params_has_option(name) || gms_gpgpusim_option_known(name);
}

/* for `gpumemsim list options` */
void gms_params_list_options(FILE *out)
{
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++)
            fprintf(out, "-%-44s %-10s default %-24s %s\n", mod->options[i].name, mod->name,
                    mod->options[i].defval[0] ? mod->options[i].defval : "\"\"", mod->options[i].help);
    }
}
