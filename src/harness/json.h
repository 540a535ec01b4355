/* A minimal JSON reader (RFC 8259: objects, arrays, strings with escapes including
 * surrogate pairs, numbers, true/false/null) into a tree, and a string writer. Enough for
 * the run's --stats-json output and the sweep's per-point result files. Nesting is limited
 * to 64 levels; errors give line and column. */
#ifndef GMS_HARNESS_JSON_H
#define GMS_HARNESS_JSON_H
#include <stddef.h>
#include <stdio.h>
#include "util/err.h"
#include "harness/util.h"

typedef enum { GMS_JSON_NULL, GMS_JSON_BOOL, GMS_JSON_NUM, GMS_JSON_STR, GMS_JSON_ARR, GMS_JSON_OBJ } gms_json_type;

typedef struct gms_json {
    gms_json_type type;
    int b;                    /* BOOL */
    double num;               /* NUM */
    char *str;                /* STR (NUL-terminated; embedded NULs are rejected) */
    size_t n;                 /* ARR, OBJ: number of items */
    struct gms_json *items;   /* ARR, OBJ: values */
    char **keys;              /* OBJ: keys, parallel to items */
} gms_json;

/* parses text[0..len); what names the source in errors. Returns NULL with err set. */
gms_json *gms_json_parse(const char *text, size_t len, const char *what, gms_error *err);
void gms_json_free(gms_json *j);

/* object member by key (the last one if repeated), or NULL; j may be NULL */
const gms_json *gms_json_get(const gms_json *j, const char *key);
/* typed member access with a fallback */
const char *gms_json_get_str(const gms_json *j, const char *key, const char *dflt);
double gms_json_get_num(const gms_json *j, const char *key, double dflt);

/* writes s as a JSON string literal */
void gms_json_quote(gms_sbuf *b, const char *s);
/* writes j compactly (numbers with 17 significant digits, so they read back the same);
 * keep(key, depth), when given, decides for each object member (depth 0 = the root's members)
 * whether it is written */
void gms_json_write(gms_sbuf *b, const gms_json *j, int (*keep)(const char *key, int depth));

#endif
