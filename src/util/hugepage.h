/* Host speed only (see hugepage.c): call first thing in main, before the simulator allocates
 * anything, to have its heap backed by transparent huge pages. GMS_HOST_HUGEPAGES=0 in the
 * environment turns it off. Returns the number of ranges advised (0: off or unsupported).
 * Never changes results. */
#ifndef GMS_UTIL_HUGEPAGE_H
#define GMS_UTIL_HUGEPAGE_H
#include <stdint.h>
int gms_host_hugepages_begin(void);
#endif
