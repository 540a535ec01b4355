/* One option value from text: the type's number (or string), then nothing but a unit the
 * option declares (option.h, gms_opt_syntax), scaled into the option's own unit. */
#ifndef GMS_CONFIG_OPTION_VALUE_H
#define GMS_CONFIG_OPTION_VALUE_H
#include "config/option.h"

/* parses val into field (of o's type); on error returns -1 with err = "<where>-<name>: ..."
 * naming the value and, for a unit that is not accepted, the units that are */
int gms_option_parse(const gms_option *o, const char *val, void *field, const char *where, gms_error *err);
/* 1 when field holds the option's default value */
int gms_option_is_default(const gms_option *o, const void *field);
/* the units (or list syntax) the option accepts in words, "" when it takes a plain value */
const char *gms_option_units(const gms_option *o);

#endif
