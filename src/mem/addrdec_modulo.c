/* Channel selection "modulo": chunk c = addr / chunk, channel = c mod N; the channel-local
 * address is (c / N) * chunk + addr mod chunk. GPGPU-Sim's default style of linear
 * interleaving; spec 001 §3.5 "(addr >> 8) mod 16" with the 256 B chunk configurable
 * (-gms_partition_chunk). Stride N x chunk puts every request on one channel (partition
 * camping). */
#include "mem/addrdec.h"

static void mod_map(const gms_addrdec_config *c, uint64_t addr, uint32_t *chan, uint64_t *local)
{
    unsigned cb = gms_log2u(c->chunk);
    uint64_t ch = addr >> cb;
    *chan = (uint32_t)(ch % c->n_channel);
    *local = ((ch / c->n_channel) << cb) | (addr & (c->chunk - 1));
}

static uint64_t mod_high(const gms_addrdec_config *c, uint64_t local) { return local >> gms_log2u(c->chunk); }

int gms_chanmap_check_chunk(const gms_addrdec_config *c, gms_error *err)
{
    if (c->chunk < 32 || (c->chunk & (c->chunk - 1)))
        return gms_err(err, "-gms_partition_chunk: must be a power of two of at least 32 bytes, got %u", c->chunk);
    return 0;
}

static int mod_split(const gms_addrdec_config *c, gms_chanmap_split *out)
{
    if (c->n_channel & (c->n_channel - 1)) return 0;   /* a true modulo: keep mod_map */
    out->cshift = gms_log2u(c->chunk);
    out->cbits = gms_log2u(c->n_channel);
    out->hshift = out->cshift;                          /* = mod_high */
    return out->cshift + out->cbits < 64;
}

const gms_chanmap_ops gms_chanmap_modulo = {
    .name = "modulo", .knobs = GMS_KNOBS("gms_partition_chunk"),
    .summary = "channel = (addr / chunk) mod N (spec 001 3.5 Modulo)",
    .map = mod_map, .high_bits = mod_high, .check = gms_chanmap_check_chunk, .split = mod_split,
};
