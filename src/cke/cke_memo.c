/* The memo of isolated and profile runs: see cke_memo.h. File DIR/<hash>.memo, text:
 *   the key (several lines), then "values N" and N lines of %a numbers, then "end". */
#include "cke/cke_memo.h"
#include "config/config_digest.h"
#include "config/params.h"
#include "util/err.h"
#include "util/fnv.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FORMAT "gpumemsim cke memo 1\n"
#define MAX_FILE 65536

static int warned;

const char *gms_cke_memo_dir(void)
{
    const char *d = getenv("GMS_CKE_MEMO");
    return d && *d ? d : NULL;
}

char *gms_cke_memo_key(const gms_params *p, const char *const *kv)
{
    /* the options an isolated run does not read (the schemes, their knobs, the shared and
     * profile windows: the run's own window is among kv) get one fixed value; everything
     * else, mshr_partition and the interval among it, stays in the digest */
    char exe[PATH_MAX];
    struct stat st;
    if (!realpath("/proc/self/exe", exe) || stat(exe, &st)) {
        if (!warned++)
            fprintf(stderr, "gpumemsim: warning: GMS_CKE_MEMO: this executable's path cannot be read (/proc/self/exe); "
                    "isolated runs are not memoised\n");
        return NULL;
    }
    gms_params *q = gms_xmalloc(sizeof *q);
    memcpy(q, p, sizeof *q);
    memset(q->cke.tb, 0, sizeof q->cke.tb);
    memset(q->cke.mi, 0, sizeof q->cke.mi);
    memset(q->cke.dmil_met, 0, sizeof q->cke.dmil_met);
    memset(q->cke.smkw_rate, 0, sizeof q->cke.smkw_rate);
    memset(q->cke.bmi_insts, 0, sizeof q->cke.bmi_insts);
    memset(q->cke.bmi_demand, 0, sizeof q->cke.bmi_demand);
    memset(q->cke.ucp_enforce, 0, sizeof q->cke.ucp_enforce);
    q->cke.smkw_profile = q->cke.bmi_lsu = q->cke.bmi_parked = q->cke.ucp_ways = 0;
    q->cke.rf_bits = q->cke.ucp_period = q->cke.wq_epoch = q->cke.smkw_idle = 0;
    q->cke.window = q->cke.profile_window = 0;
    q->cke.isolated = 0;
    uint64_t digest = gms_config_digest_u64(q);
    free(q);
    size_t cap = 512 + strlen(exe);
    for (const char *const *a = kv; *a; a++) cap += strlen(*a) + 8;
    char *key = gms_xmalloc(cap);
    size_t n = (size_t)snprintf(key, cap, FORMAT "exe %s %lld %lld.%09ld\nconfig %016llx\n", exe,
                                (long long)st.st_size, (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
                                (unsigned long long)digest);
    for (const char *const *a = kv; *a; a++) n += (size_t)snprintf(key + n, cap - n, "arg %s\n", *a);
    return key;
}

static char *file_of(const char *dir, const char *key, const char *suffix)
{
    size_t cap = strlen(dir) + 64;
    char *f = gms_xmalloc(cap);
    snprintf(f, cap, "%s/%016llx%s", dir, (unsigned long long)gms_fnv1a(GMS_FNV_OFFSET, key, strlen(key)), suffix);
    return f;
}

int gms_cke_memo_get(const char *dir, const char *key, double *v, int n, gms_error *err)
{
    char *path = file_of(dir, key, ".memo");
    FILE *f = fopen(path, "r");
    if (!f) { free(path); return 0; }
    char *buf = gms_xmalloc(MAX_FILE + 1);
    size_t len = fread(buf, 1, MAX_FILE, f);
    fclose(f);
    buf[len] = 0;
    size_t klen = strlen(key);
    int rc = 0;
    if (len < klen || memcmp(buf, key, klen)) goto out;   /* another key (or build): not ours */
    const char *s = buf + klen;
    int got;
    if (sscanf(s, "values %d", &got) != 1 || got != n || !(s = strchr(s, '\n'))) goto bad;
    s++;
    for (int i = 0; i < n; i++) {
        char *end;
        v[i] = strtod(s, &end);   /* %a text: exact, a subnormal too (ERANGE is no damage) */
        if (end == s || *end != '\n') goto bad;
        s = end + 1;
    }
    if (strcmp(s, "end\n")) goto bad;
    rc = 1;
    goto out;
bad:
    rc = gms_err(err, "%s: a damaged memo file of isolated runs (GMS_CKE_MEMO); delete it", path);
out:
    free(buf);
    free(path);
    return rc;
}

void gms_cke_memo_put(const char *dir, const char *key, const double *v, int n)
{
    if (mkdir(dir, 0777) && errno != EEXIST) {
        if (!warned++)
            fprintf(stderr, "gpumemsim: warning: GMS_CKE_MEMO %s: cannot create: %s; isolated runs are not memoised\n",
                    dir, strerror(errno));
        return;
    }
    char *path = file_of(dir, key, ".memo");
    char sfx[48];
    snprintf(sfx, sizeof sfx, ".%ld.tmp", (long)getpid());
    char *tmp = file_of(dir, key, sfx);
    FILE *f = fopen(tmp, "w");
    int ok = f != NULL;
    if (ok) {
        fputs(key, f);
        fprintf(f, "values %d\n", n);
        for (int i = 0; i < n; i++) fprintf(f, "%a\n", v[i]);
        fputs("end\n", f);
        ok = !ferror(f);
        ok = !fclose(f) && ok;
    }
    if (!ok || rename(tmp, path)) {
        if (!warned++)
            fprintf(stderr, "gpumemsim: warning: GMS_CKE_MEMO %s: cannot write %s: %s; isolated runs are not memoised\n",
                    dir, tmp, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    free(path);
}
