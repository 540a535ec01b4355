/* -gpgpu_dram_timing_opt parsing and derived timing values (GPGPU-Sim memory_config::init).
 * Named form: "key=value" pairs separated by ':' (also ';', spaces and newlines, since
 * configs split the quoted string over two lines). Required: nbk CCD RRD RCD RAS RP RC CL
 * WL CDLR WR; optional: nbkgrp (1), CCDL (0), RTPL (0). Legacy positional form: at least the
 * first 11 of nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR[:nbkgrp:CCDL:RTPL]. */
#include "mem/dram_timing.h"
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *key; size_t off; int required; uint32_t def; } tfield;
#define TF(k, f, r, d) { k, offsetof(gms_dram_timing, f), r, d }
static const tfield fields[] = {
    TF("nbk", nbk, 1, 0), TF("CCD", tCCD, 1, 0), TF("RRD", tRRD, 1, 0), TF("RCD", tRCD, 1, 0),
    TF("RAS", tRAS, 1, 0), TF("RP", tRP, 1, 0), TF("RC", tRC, 1, 0), TF("CL", CL, 1, 0),
    TF("WL", WL, 1, 0), TF("CDLR", tCDLR, 1, 0), TF("WR", tWR, 1, 0), TF("nbkgrp", nbkgrp, 0, 1),
    TF("CCDL", tCCDL, 0, 0), TF("RTPL", tRTPL, 0, 0),
};
#undef TF
#define NFIELDS (sizeof fields / sizeof fields[0])

static uint32_t *fld(gms_dram_timing *t, size_t i) { return (uint32_t *)((char *)t + fields[i].off); }

static int is_sep(char c) { return c == ':' || c == ';' || isspace((unsigned char)c) || c == '"'; }

static int parse_u32(const char *s, size_t n, uint32_t *out)
{
    char buf[32];
    if (!n || n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    for (size_t i = 0; i < n; i++) if (!isdigit((unsigned char)buf[i])) return -1;
    errno = 0;
    unsigned long v = strtoul(buf, NULL, 10);
    if (errno || v > 0xFFFFFFFFul) return -1;
    *out = (uint32_t)v;
    return 0;
}

int gms_dram_timing_parse(const char *str, const char *optname, gms_dram_timing *t, gms_error *err)
{
    int given[NFIELDS] = { 0 };
    memset(t, 0, sizeof *t);   /* fields the string does not carry (bus, tFAW, refresh) start at 0 */
    for (size_t i = 0; i < NFIELDS; i++) *fld(t, i) = fields[i].def;
    const char *p = str;
    if (!strchr(str, '=')) {                       /* legacy positional */
        size_t k = 0;
        while (*p) {
            while (*p && is_sep(*p)) p++;
            if (!*p) break;
            const char *b = p;
            while (*p && !is_sep(*p)) p++;
            if (k >= NFIELDS)
                return gms_err(err, "%s: too many values (at most %zu: nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR:"
                               "nbkgrp:CCDL:RTPL)", optname, NFIELDS);
            if (parse_u32(b, (size_t)(p - b), fld(t, k)))
                return gms_err(err, "%s: field %s: \"%.*s\" is not a non-negative integer", optname,
                               fields[k].key, (int)(p - b), b);
            given[k++] = 1;
        }
        if (k < 11)
            return gms_err(err, "%s: missing field %s (positional form needs at least nbk:CCD:RRD:RCD:RAS:RP:RC:"
                           "CL:WL:CDLR:WR)", optname, fields[k].key);
        return 0;
    }
    while (*p) {
        while (*p && is_sep(*p)) p++;
        if (!*p) break;
        const char *k = p;
        while (*p && *p != '=' && !is_sep(*p)) p++;
        size_t kl = (size_t)(p - k);
        if (*p != '=')
            return gms_err(err, "%s: expected key=value, got \"%.*s\"", optname, (int)kl, k);
        p++;
        const char *v = p;
        while (*p && !is_sep(*p)) p++;
        size_t i;
        for (i = 0; i < NFIELDS; i++)
            if (strlen(fields[i].key) == kl && !strncmp(fields[i].key, k, kl)) break;
        if (i == NFIELDS)
            return gms_err(err, "%s: unknown field \"%.*s\" (known: nbk CCD RRD RCD RAS RP RC CL WL CDLR WR "
                           "nbkgrp CCDL RTPL)", optname, (int)kl, k);
        if (given[i]) return gms_err(err, "%s: field %s given twice", optname, fields[i].key);
        if (parse_u32(v, (size_t)(p - v), fld(t, i)))
            return gms_err(err, "%s: field %s: \"%.*s\" is not a non-negative integer", optname, fields[i].key,
                           (int)(p - v), v);
        given[i] = 1;
    }
    for (size_t i = 0; i < NFIELDS; i++)
        if (fields[i].required && !given[i])
            return gms_err(err, "%s: missing required field %s", optname, fields[i].key);
    return 0;
}

int gms_dram_timing_derive(gms_dram_timing *t, gms_error *err)
{
    if (!t->nbk) return gms_err(err, "-gpgpu_dram_timing_opt: field nbk: a channel needs at least 1 bank");
    if (!t->nbkgrp) return gms_err(err, "-gpgpu_dram_timing_opt: field nbkgrp: must be at least 1");
    if (t->nbkgrp & (t->nbkgrp - 1))
        return gms_err(err, "-gpgpu_dram_timing_opt: field nbkgrp: must be a power of two, got %u", t->nbkgrp);
    if (t->nbk % t->nbkgrp)
        return gms_err(err, "-gpgpu_dram_timing_opt: field nbkgrp: %u groups do not divide nbk=%u banks",
                       t->nbkgrp, t->nbk);
    if (!t->BL) return gms_err(err, "-gpgpu_dram_burst_length: must be at least 1");
    if (!t->busW) return gms_err(err, "-gpgpu_dram_buswidth: must be at least 1 byte");
    if (!t->n_per_ctrlr) return gms_err(err, "-gpgpu_n_mem_per_ctrlr: must be at least 1");
    if (!t->ratio) return gms_err(err, "-dram_data_command_freq_ratio: must be at least 1");
    if (t->BL < t->ratio)
        return gms_err(err, "-gpgpu_dram_burst_length: a burst of %u beats is shorter than one command cycle "
                       "at -dram_data_command_freq_ratio %u", t->BL, t->ratio);
    if (t->tREFI && !t->tRFC)
        return gms_err(err, "-gms_dram_trfc: refresh is on (-gms_dram_trefi %u) but tRFC is 0", t->tREFI);
    t->burst_cycles = t->BL / t->ratio;
    t->tRCDWR = t->tRCD > t->WL + 1 ? t->tRCD - (t->WL + 1) : 0;
    if (t->elim_rw_turnaround) {
        t->tRTW = 0;
        t->tWTR = 0;
    } else {
        long rtw = (long)t->CL + t->burst_cycles + 2 - (long)t->WL;
        t->tRTW = rtw > 0 ? (uint32_t)rtw : 0;
        t->tWTR = t->WL + t->burst_cycles + t->tCDLR;
    }
    t->tWTP = t->WL + t->burst_cycles + t->tWR;
    t->atom = t->BL * t->busW * t->n_per_ctrlr;
    uint32_t per = t->nbk / t->nbkgrp, l = 0;
    while ((1u << (l + 1)) <= per) l++;
    t->bk_tag_length = l;
    return 0;
}
