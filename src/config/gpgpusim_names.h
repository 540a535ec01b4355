/* The catalogue of GPGPU-Sim / Accel-Sim / UVMSmart option names (gpgpusim_names.c). */
#ifndef GMS_CONFIG_GPGPUSIM_NAMES_H
#define GMS_CONFIG_GPGPUSIM_NAMES_H
#include <stddef.h>

/* 1 if `name` (with or without leading '-') is an option one of the peer simulators registers */
int gms_gpgpusim_option_known(const char *name);
size_t gms_gpgpusim_option_count(void);
const char *gms_gpgpusim_option_at(size_t i);   /* in strcmp order; NULL past the end */
#endif
