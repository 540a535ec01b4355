/* The option names GPGPU-Sim 4.x (Accel-Sim's copy and upstream), Accel-Sim's trace front end
 * and UVMSmart register with their option parser, as data (gpgpusim_names.inc, one quoted
 * name per line, sorted in strcmp order; the unit test config_gpgpusim_catalogue checks it).
 * A name gpumemsim does not register but finds here is a genuine option of the peer
 * simulators: a config that sets it loads without --ignore-unknown and the run names it as
 * not modelled (config.c, set_option); a name in neither list is a typo, an error. */
#include "config/gpgpusim_names.h"
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
#include "config/gpgpusim_names.inc"
};

static int cmp(const void *key, const void *ent) { return strcmp(key, *(const char *const *)ent); }

int gms_gpgpusim_option_known(const char *name)
{
    while (*name == '-') name++;
    return bsearch(name, names, sizeof names / sizeof names[0], sizeof names[0], cmp) != NULL;
}

size_t gms_gpgpusim_option_count(void) { return sizeof names / sizeof names[0]; }

const char *gms_gpgpusim_option_at(size_t i) { return i < sizeof names / sizeof names[0] ? names[i] : NULL; }
