/* The configuration digest (config_digest.h). Every option is hashed by its field's value
 * after parsing (a number as the number, so 0x20 and 32 or true and 1 are the same), in the
 * order of the names, so neither the order the files gave them in nor the order of the
 * registry's tables changes it. A string option is hashed as its text: two spellings that a
 * module decodes to the same thing give two digests (a false "different", never a false
 * "same"). Options given but not modelled (--ignore-unknown) are not options: not hashed. */
#include "config/config_digest.h"
#include "config/params.h"
#include "util/fnv.h"
#include "util/err.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int by_name(const void *a, const void *b)
{
    const gms_option *x = *(const gms_option *const *)a, *y = *(const gms_option *const *)b;
    return strcmp(x->name, y->name);
}

/* the value of option o in p as canonical text */
static void value_text(const gms_option *o, const gms_params *p, char *buf, size_t cap)
{
    const char *f = (const char *)p + o->offset;
    switch (o->type) {
    case GMS_OPT_BOOL: snprintf(buf, cap, "%d", *(const int *)f != 0); break;
    case GMS_OPT_INT: snprintf(buf, cap, "%d", *(const int *)f); break;
    case GMS_OPT_U32: snprintf(buf, cap, "%u", *(const uint32_t *)f); break;
    case GMS_OPT_U64: snprintf(buf, cap, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case GMS_OPT_DOUBLE: snprintf(buf, cap, "%.17g", *(const double *)f); break;
    case GMS_OPT_STRING: snprintf(buf, cap, "%.*s", GMS_OPT_STRLEN, f); break;
    }
}

uint64_t gms_config_digest_u64(const gms_params *p)
{
    size_t n = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) n += gms_config_modules[m]->noptions;
    const gms_option **v = gms_xmalloc((n ? n : 1) * sizeof *v);
    n = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++)
        for (size_t i = 0; i < gms_config_modules[m]->noptions; i++) v[n++] = &gms_config_modules[m]->options[i];
    qsort(v, n, sizeof *v, by_name);
    uint64_t h = GMS_FNV_OFFSET;
    char val[GMS_OPT_STRLEN + 32];
    for (size_t i = 0; i < n; i++) {
        value_text(v[i], p, val, sizeof val);
        h = gms_fnv1a(h, v[i]->name, strlen(v[i]->name));
        h = gms_fnv1a(h, "=", 1);
        h = gms_fnv1a(h, val, strlen(val));
        h = gms_fnv1a(h, "\n", 1);
    }
    free(v);
    return h;
}

void gms_config_digest(const gms_params *p, char *out, size_t cap)
{
    snprintf(out, cap, "%016llx", (unsigned long long)gms_config_digest_u64(p));
}
