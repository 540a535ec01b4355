/* Per-kernel cache of opcode texts: one hash lookup per instruction line instead of a
 * table decode. Ids: canonical texts keep their fixed id, others get GMS_OPCODE_DYN_BASE+k. */
#include "frontend/trace_parse.h"
#include <stdlib.h>
#include <string.h>

static uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* append a dynamic id's text; own = 1 when dyn[] alone holds it (gms_opcache_push_dyn),
 * 0 when it is a slot's text, freed with the slots */
static void dyn_append(gms_opcache *c, char *text, uint8_t own)
{
    if (c->ndyn == c->dyn_cap) {
        c->dyn_cap = c->dyn_cap ? c->dyn_cap * 2 : 32;
        c->dyn = gms_xrealloc(c->dyn, c->dyn_cap * sizeof *c->dyn);
        c->dyn_own = gms_xrealloc(c->dyn_own, c->dyn_cap * sizeof *c->dyn_own);
    }
    c->dyn_own[c->ndyn] = own;
    c->dyn[c->ndyn++] = text;
}

void gms_opcache_free(gms_opcache *c)
{
    for (uint32_t i = 0; i < c->ndyn; i++)
        if (c->dyn_own[i]) free(c->dyn[i]);
    for (uint32_t i = 0; i < c->cap; i++) free(c->slots[i].text);
    free(c->slots);
    free(c->dyn);
    free(c->dyn_own);
    memset(c, 0, sizeof *c);
}

const char *gms_opcache_text(const gms_opcache *c, uint16_t id)
{
    if (id < GMS_OPCODE_DYN_BASE) return gms_opcode_canon_text(id);
    uint32_t k = id - GMS_OPCODE_DYN_BASE;
    return k < c->ndyn ? c->dyn[k] : NULL;
}

static void grow(gms_opcache *c)
{
    uint32_t ncap = c->cap ? c->cap * 2 : 64;
    gms_opc_entry *ns = gms_xcalloc(ncap, sizeof *ns);
    for (uint32_t i = 0; i < c->cap; i++) {
        gms_opc_entry *e = &c->slots[i];
        if (!e->text) continue;
        uint32_t j = e->hash & (ncap - 1);
        while (ns[j].text) j = (j + 1) & (ncap - 1);
        ns[j] = *e;
    }
    /* dyn[] pointers stay valid: the texts themselves did not move */
    free(c->slots);
    c->slots = ns;
    c->cap = ncap;
}

const gms_opc_entry *gms_opcache_get(gms_opcache *c, gms_isa isa, const char *text, size_t len)
{
    uint32_t h = fnv1a(text, len);
    if (c->cap) {
        uint32_t j = h & (c->cap - 1);
        while (c->slots[j].text) {
            gms_opc_entry *e = &c->slots[j];
            if (e->hash == h && e->len == len && !memcmp(e->text, text, len)) return e;
            j = (j + 1) & (c->cap - 1);
        }
    }
    gms_opinfo info;
    if (gms_opcode_decode(isa, text, len, &info)) return NULL;
    uint16_t id = gms_opcode_canon_find(text, len);
    if (!id) {
        if (c->ndyn >= 65535u - GMS_OPCODE_DYN_BASE) id = 0;   /* absurdly many: no id */
        else id = (uint16_t)(GMS_OPCODE_DYN_BASE + c->ndyn);
    }
    if ((c->n + 1) * 2 > c->cap) grow(c);
    uint32_t j = h & (c->cap - 1);
    while (c->slots[j].text) j = (j + 1) & (c->cap - 1);
    gms_opc_entry *e = &c->slots[j];
    e->text = gms_xmalloc(len + 1);
    memcpy(e->text, text, len);
    e->text[len] = 0;
    memset(e->w, 0, sizeof e->w);
    memcpy(e->w, text, len < sizeof e->w ? len : sizeof e->w);
    e->len = (uint32_t)len;
    e->hash = h;
    e->id = id;
    e->info = info;
    c->n++;
    if (id >= GMS_OPCODE_DYN_BASE) dyn_append(c, e->text, 0);
    return e;
}

const gms_opc_entry *gms_opcache_get_near_miss(gms_opcache *c, gms_isa isa, const char *text, size_t len,
                                               uint32_t k)
{
    const gms_opc_entry *e = gms_opcache_get(c, isa, text, len);
    if (e) c->near[k] = (uint32_t)(e - c->slots);
    return e;
}

void gms_opcache_push_dyn(gms_opcache *c, const char *text)
{
    dyn_append(c, gms_xstrdup(text), 1);
}
