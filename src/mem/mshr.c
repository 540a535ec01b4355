/* MSHR design registry. */
#include "mem/mshr.h"
#include <string.h>

extern const gms_mshr_ops gms_mshr_conventional;

static const gms_mshr_ops *const registry[] = { &gms_mshr_conventional };

const gms_mshr_ops *gms_mshr_find(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (!strcmp(registry[i]->name, name)) return registry[i];
    return NULL;
}

const char *gms_mshr_names(void) { return "conventional"; }
