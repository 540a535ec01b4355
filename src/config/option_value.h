/* One option value from text: the type's number (or string), then nothing but a unit the
 * option declares (option.h, gms_opt_syntax), scaled into the option's own unit. */
#ifndef GMS_CONFIG_OPTION_VALUE_H
#define GMS_CONFIG_OPTION_VALUE_H
#include "config/option.h"
#include <stdint.h>

/* parses val into field (of o's type); on error returns -1 with err = "<where>-<name>: ..."
 * naming the value and, for a unit that is not accepted, the units that are */
int gms_option_parse(const gms_option *o, const char *val, void *field, const char *where, gms_error *err);
/* 1 when field holds the option's default value */
int gms_option_is_default(const gms_option *o, const void *field);
/* the units (or list syntax) the option accepts in words, "" when it takes a plain value */
const char *gms_option_units(const gms_option *o);

/* for modules decoding packed strings ("8:8:8:8", "0,8,16"): 1 to max unsigned decimal
 * integers, each at most 4294967295, separated by sep and nothing else (no sign, no blanks,
 * no empty item); returns 0 with *n items in out, or -1 */
int gms_parse_u32_list(const char *s, char sep, uint32_t *out, size_t max, size_t *n);

#endif
