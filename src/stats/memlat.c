/* GPGPU-Sim's windowed memory latency average (memlat.h) */
#include "stats/memlat.h"
#include <ctype.h>
#include <stdlib.h>

uint64_t gms_memlat_parse_freq(const char *runtime_stat)
{
    /* strict, where GPGPU-Sim's sscanf keeps 10000 for text it cannot read: a decimal period,
     * then optionally ':' and the hex flags (only GPGPU-Sim's periodic printouts read them) */
    const char *p = runtime_stat;
    if (!p || *p < '0' || *p > '9') return 0;
    char *e;
    unsigned long long freq = strtoull(p, &e, 10);
    if (*e == ':') {
        const char *f = e + 1;
        if (f[0] == '0' && (f[1] | 0x20) == 'x') f += 2;
        if (!isxdigit((unsigned char)*f)) return 0;
        while (isxdigit((unsigned char)*f)) f++;
        e = (char *)f;
    }
    if (*e || freq < 1 || freq > INT32_MAX) return 0;   /* GPGPU-Sim's int */
    return (uint64_t)freq;
}

void gms_memlat_init(gms_memlat *m, uint64_t freq)
{
    m->freq = freq ? freq : 1;
    m->next = m->freq;
    m->lat_sum = m->n = 0;
}

static void fold(gms_memlat *m, uint64_t lat_sum, uint64_t n)
{
    m->lat_sum = lat_sum;
    m->n = n;
}

int gms_memlat_cycle(gms_memlat *m, uint64_t gsc, uint64_t lat_sum, uint64_t n)
{
    if (gsc < m->next) return 0;
    fold(m, lat_sum, n);
    m->next = (gsc / m->freq + 1) * m->freq;
    return 1;
}

void gms_memlat_update(gms_memlat *m, uint64_t lat_sum, uint64_t n)
{
    fold(m, lat_sum, n);
    m->next = m->freq;
}

void gms_memlat_report(const gms_memlat *m, uint64_t icnt2mem_sum, gms_stats *out)
{
    if (!m->n) return;   /* memlatstat_print: "if (num_mfs)" */
    gms_stat_u64(out, "averagemflatency", m->lat_sum / m->n);
    gms_stat_u64(out, "avg_icnt2mem_latency", icnt2mem_sum / m->n);
}
