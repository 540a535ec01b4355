/* Channel selection "xor" (spec 001 §3.5 Xor): with c = addr / chunk, q = c / N, r = c mod N,
 *   N a power of two:  channel = r ^ ((c >> F) mod N),  F = max(8, log2 N)
 *                      (= addr[11:8] ^ addr[19:16] for N = 16 and 256 B chunks)
 *   otherwise:         channel = (r + (q >> (8 - floor(log2 N)))) mod N
 * (our generalisation: the same folded bits, added instead of xor-ed so every channel is
 * reachable; both are bijective in r for a fixed q, so the channel-local address
 * q * chunk + addr mod chunk, as for modulo, loses nothing). */
#include "mem/addrdec.h"


static void xor_map(const gms_addrdec_config *c, uint64_t addr, uint32_t *chan, uint64_t *local)
{
    unsigned cb = gms_log2u(c->chunk);
    uint64_t ch = addr >> cb, n = c->n_channel, q = ch / n, r = ch % n;
    unsigned lg = gms_log2u(n);
    if (!(n & (n - 1))) {
        unsigned f = lg > 8 ? lg : 8;
        *chan = (uint32_t)(r ^ ((ch >> f) & (n - 1)));
    } else {
        *chan = (uint32_t)((r + (q >> (8 - (lg > 8 ? 8 : lg)))) % n);
    }
    *local = (q << cb) | (addr & (c->chunk - 1));
}

static uint64_t xor_high(const gms_addrdec_config *c, uint64_t local) { return local >> gms_log2u(c->chunk); }

const gms_chanmap_ops gms_chanmap_xor = {
    .name = "xor", .knobs = GMS_KNOBS("gms_partition_chunk"),
    .summary = "channel = chunk index xor higher bits (spec 001 3.5 Xor: addr[11:8]^addr[19:16])",
    .map = xor_map, .high_bits = xor_high, .check = gms_chanmap_check_chunk,
};
