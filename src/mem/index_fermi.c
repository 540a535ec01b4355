/* Fermi hash 'H' (GPGPU-Sim FERMI_HASH_SET_FUNCTION, Nugteren et al. HPCA 2014), 32 or 64 sets:
 *   index = addr[b+4:b] ^ {addr[19], addr[17], addr[15:13]}   (b = log2(line); 128 B: addr[11:7])
 *   64 sets: bit 5 of the index = addr[12].
 * The upper bits are fixed addresses bits, as in GPGPU-Sim, whatever the line size. */
#include "mem/index.h"

static uint32_t fermi_index(const gms_index_state *s, uint64_t addr)
{
    uint32_t lower = (uint32_t)(addr >> s->line_log2) & 0x1F;
    uint32_t upper = (uint32_t)((addr & 0xE000) >> 13);   /* bits 13,14,15 -> 0,1,2 */
    upper |= (uint32_t)((addr & 0x20000) >> 14);          /* bit 17 -> 3 */
    upper |= (uint32_t)((addr & 0x80000) >> 15);          /* bit 19 -> 4 */
    uint32_t idx = lower ^ upper;
    if (s->nsets == 64) idx |= (uint32_t)((addr & 0x1000) >> 7);  /* bit 12 -> 5 */
    return idx;
}

static int check(const gms_cache_config *c, const char *optname, gms_error *err)
{
    if (c->nsets != 32 && c->nsets != 64)
        return gms_err(err, "%s: set index 'H' (Fermi hash) needs 32 or 64 sets, not %u", optname, c->nsets);
    return 0;
}

const gms_index_ops gms_index_fermi = { 'H', GMS_IDX_FERMI_HASH, "Fermi hash",
    "Fermi's hashed L1 index (GPGPU-Sim FERMI_HASH_SET_FUNCTION, 32 or 64 sets)", 1, check, NULL, fermi_index };
