/* Lookups, names and messages over a gms_registry (registry.h). Config time only. */
#include "util/registry.h"
#include <string.h>

static const char *field(const gms_registry *r, size_t i, size_t off)
{
    const void *m = gms_reg_at(r, i);
    return m ? *(const char *const *)(const void *)((const char *)m + off) : NULL;
}

const char *gms_reg_name(const gms_registry *r, size_t i) { return field(r, i, r->name_off); }
const char *gms_reg_help(const gms_registry *r, size_t i) { return field(r, i, r->help_off); }

char gms_reg_letter(const gms_registry *r, size_t i)
{
    const void *m = gms_reg_at(r, i);
    if (!m || r->letter_off == GMS_REG_NO_LETTER) return 0;
    return *((const char *)m + r->letter_off);
}

const char *const *gms_reg_knobs(const gms_registry *r, size_t i)
{
    const void *m = gms_reg_at(r, i);
    if (!m || r->knobs_off == GMS_REG_NO_KNOBS) return NULL;
    return *(const char *const *const *)(const void *)((const char *)m + r->knobs_off);
}

long gms_reg_index_n(const gms_registry *r, const char *name, size_t len)
{
    if (!name) return -1;
    if (r->letter_off != GMS_REG_NO_LETTER) {
        for (size_t i = 0; len == 1 && i < r->n; i++)
            if (gms_reg_letter(r, i) == name[0]) return (long)i;
        return -1;
    }
    for (const gms_reg_alias *a = r->aliases; a && a->alias; a++)
        if (strlen(a->alias) == len && !strncmp(a->alias, name, len)) { name = a->name; len = strlen(name); break; }
    for (size_t i = 0; i < r->n; i++) {
        const char *m = gms_reg_name(r, i);
        if (strlen(m) == len && !strncmp(m, name, len)) return (long)i;
    }
    return -1;
}

long gms_reg_index(const gms_registry *r, const char *name)
{
    return name ? gms_reg_index_n(r, name, strlen(name)) : -1;
}

const void *gms_reg_find(const gms_registry *r, const char *name)
{
    long i = gms_reg_index(r, name);
    return i < 0 ? NULL : gms_reg_at(r, (size_t)i);
}

void gms_reg_known(const gms_registry *r, char *buf, size_t n)
{
    size_t used = 0;
    if (n) buf[0] = 0;
    for (size_t i = 0; i < r->n && used + 1 < n; i++) {
        int w = r->letter_off != GMS_REG_NO_LETTER
                    ? snprintf(buf + used, n - used, "%s%c (%s)", i ? ", " : "", gms_reg_letter(r, i), gms_reg_name(r, i))
                    : snprintf(buf + used, n - used, "%s%s", i ? ", " : "", gms_reg_name(r, i));
        if (w < 0) break;
        used += (size_t)w;
    }
}

int gms_reg_unknown(const gms_registry *r, const char *name, gms_error *err)
{
    char known[512];
    gms_reg_known(r, known, sizeof known);
    return gms_err(err, "-%s: unknown %s '%s'; known: %s", r->option, r->family, name, known);
}

void gms_reg_print_chosen(const gms_registry *r, const struct gms_params *p, FILE *out)
{
    long i = r->chosen ? r->chosen(p) : -1;
    if (i < 0) return;
    fprintf(out, "%s (-%s): %s - %s\n", r->family, r->option, gms_reg_name(r, (size_t)i), gms_reg_help(r, (size_t)i));
}

void gms_reg_print(const gms_registry *r, FILE *out)
{
    fprintf(out, "%s (-%s):\n", r->family, r->option);
    for (size_t i = 0; i < r->n; i++) {
        if (r->letter_off != GMS_REG_NO_LETTER)
            fprintf(out, "  %c %-18s %s\n", gms_reg_letter(r, i), gms_reg_name(r, i), gms_reg_help(r, i));
        else fprintf(out, "  %-20s %s\n", gms_reg_name(r, i), gms_reg_help(r, i));
    }
}
