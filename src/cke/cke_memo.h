/* The memo of isolated and profile runs (host speed; GMS_CKE_MEMO=DIR). Every point of a
 * multiprogrammed sweep runs each application alone for the window (STP, ANTT) and, under
 * Warped-Slicer, once per block count for its scalability curve: the same runs, with the
 * same results, at every scheme of one pair. With a memo directory set, a run looks each of
 * them up by a key that says everything its result depends on (this executable's path, size
 * and modification time; the configuration's digest with the options an isolated run ignores
 * set to their defaults; the run's own arguments) and stores what it computed. The values are
 * written exactly (hexadecimal floating point), so results cannot depend on the memo. */
#ifndef GMS_CKE_MEMO_H
#define GMS_CKE_MEMO_H
#include "util/err.h"

struct gms_params;

/* GMS_CKE_MEMO, or NULL when unset or empty (no memo) */
const char *gms_cke_memo_dir(void);

/* The key of an isolated run with parameters p and workload arguments kv (NULL-terminated);
 * the caller frees it. NULL (one warning) when this executable cannot be identified: no memo. */
char *gms_cke_memo_key(const struct gms_params *p, const char *const *kv);

/* 1: found, v[0..n) filled; 0: not there (or another key's file of the same hash); -1 with
 * err: a damaged memo file (the message names it and says to delete it). */
int gms_cke_memo_get(const char *dir, const char *key, double *v, int n, gms_error *err);

/* Store v[0..n) under key (written to a temporary file and renamed into place, so a reader
 * never sees half a file). A directory that cannot be used warns once; the run goes on. */
void gms_cke_memo_put(const char *dir, const char *key, const double *v, int n);

#endif
