/* A digest of a configuration: what a result was simulated with, so that a result can be
 * matched to its configuration (the stats JSON's config_digest; the sweep store keeps it). */
#ifndef GMS_CONFIG_CONFIG_DIGEST_H
#define GMS_CONFIG_CONFIG_DIGEST_H
#include <stddef.h>
#include <stdint.h>

struct gms_params;

/* FNV-1a 64 over every option's decoded value ("name=value\n", options sorted by name; how
 * and where a value was given does not enter: file order, -x 1 or --set x=1, 1 or true, a
 * value equal to the default or not); 16 lower-case hex digits into out (cap >= 17) */
void gms_config_digest(const struct gms_params *p, char *out, size_t cap);
/* the same, as a number */
uint64_t gms_config_digest_u64(const struct gms_params *p);

#endif
