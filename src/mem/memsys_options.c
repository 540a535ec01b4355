/* Memory partition options (GPGPU-Sim names and defaults, plus ours prefixed gms_):
 * partition mapping, L2 slices, DRAM. Finalize decodes every packed string; dump prints them
 * in plain words (sizes per slice and in total, peak bandwidth). */
#include "config/params.h"
#include "config/option_value.h"
#include "mem/dram_sched.h"
#include "mem/index.h"
#include "mem/l2q.h"
#include "mem/mshr.h"
#include <stdio.h>
#include <string.h>

/* -gpgpu_memory_partition_indexing 4 and 6 are not GPGPU-Sim's exact functions (see the option) */
static int pidx_inexact(const struct gms_params *p, const void *field)
{
    (void)p;
    uint32_t v = *(const uint32_t *)field;
    return v == 4 || v == 6;
}

static const gms_option opts[] = {
    GMS_OPT("gpgpu_n_mem", GMS_OPT_U32, mem.n_mem, "8", "number of memory channels (partitions)"),
    GMS_OPT("gpgpu_n_sub_partition_per_mchannel", GMS_OPT_U32, mem.n_sub_partition_per_mchannel, "1",
            "L2 sub-partitions (slices) per channel (power of two)"),
    GMS_OPT("gpgpu_cache:dl2", GMS_OPT_STRING, mem.dl2_str, "N:64:128:8,L:B:m:N:L,A:16:4,4",
            "L2 slice config, GPGPU-Sim cache string; the size is PER SLICE (sub-partition); 'none' disables the L2"),
    GMS_OPT_X("gpgpu_cache:dl2_texture_only", GMS_OPT_BOOL, mem.dl2_texture_only, "0",
            "accepted for compatibility; there is no texture path, the L2 caches every access",
            GMS_SYN_PLAIN, "there is no texture path; the L2 caches every access"),
    GMS_OPT("gpgpu_l2_rop_latency", GMS_OPT_U32, mem.rop_latency, "85",
            "ROP queue latency before the L2 input queue (core cycles)"),
    GMS_OPT("rop_latency", GMS_OPT_U32, mem.rop_latency, "85", "GPGPU-Sim 3.x name of -gpgpu_l2_rop_latency"),
    GMS_OPT("gpgpu_dram_partition_queues", GMS_OPT_STRING, mem.partition_queues_str, "8:8:8:8",
            "queue sizes icnt->L2 : L2->DRAM : DRAM->L2 : L2->icnt (0 = unbounded)"),
    GMS_OPT("gms_l2_bxor_t_shift", GMS_OPT_U32, mem.l2_bxor_t_shift, "0",
            "as -gms_l1d_bxor_t_shift, for the X (BXOR) set index of -gpgpu_cache:dl2 (on the address the L2 indexes with)"),
    GMS_OPT("gms_l2_mshr", GMS_OPT_STRING, mem.l2_mshr_design, "conventional",
            "L2 slice MSHR design (gpumemsim list policies; the L1D's is -gms_l1d_mshr)"),
    GMS_OPT("gms_l2_dlmshr", GMS_OPT_STRING, mem.l2_dlmshr_str, GMS_DLMSHR_DEFAULT,
            "L2 DL-MSHR slots_per_set:reserved_percent:tail_pointer:heads_anywhere (docs/dlmshr.md)"),
    GMS_OPT("gms_l2_mshr_latency", GMS_OPT_U32, mem.l2_mshr_latency, "0",
            "L2 MSHR access cycles; 0 = the design's own (conventional 1, dlmshr 2): a primary miss leaves "
            "the miss queue latency-1 cycles later (docs/dlmshr.md)"),
    GMS_OPT("gms_l2_input_queue", GMS_OPT_STRING, mem.l2q, "fifo",
            "L2 input queue policy (the icnt->L2 queue); members: gpumemsim list policies"),
    GMS_OPT("gms_l2q_cart", GMS_OPT_STRING, mem.l2q_cart_str, GMS_L2Q_CART_DEFAULT,
            "CART sizes and drain nR:nC:nE[:rotate|longest|rr] (rows per bank, columns per row, entries per queue; docs/cart.md)"),
    GMS_OPT("gms_l2q_cart_age", GMS_OPT_U32, mem.l2q_cart_age, "0",
            "CART age cap: a leaf queue whose head waited longer (core cycles) is drained first in its bank; 0 = off (docs/cart.md)"),
    GMS_OPT("gms_l2q_p2", GMS_OPT_STRING, mem.l2q_p2_str, GMS_L2Q_P2_DEFAULT,
            "P2 bank-classified queues B:depth (queue = DRAM bank mod B; docs/cart.md)"),
    GMS_OPT("gms_energy", GMS_OPT_STRING, mem.energy_str, GMS_ENERGY_DEFAULT,
            "per-event energies of the gms_energy_* counters: L2 access, DRAM activate, DRAM burst, queue op (pJ), static (W) (docs/cart.md)"),
    GMS_OPT("gms_l2q_dram_gate", GMS_OPT_STRING, mem.l2q_dram_gate, "block",
            "while the L2->DRAM queue is full: block (no L2 access, GPGPU-Sim), miss (accesses go on, a miss "
            "needs room in the L2's own miss queue), auto (block for fifo, miss for p1, p2, cart; docs/cart.md)"),
    GMS_OPT("gms_racb", GMS_OPT_U32, mem.racb, "0",
            "RACB: a read the cache refuses (reservation fail) bypasses it instead of waiting: 0 off, 1 L1D, 2 L2, 3 both (docs/cart.md)"),
    GMS_OPT("gpgpu_perf_sim_memcpy", GMS_OPT_BOOL, mem.perf_sim_memcpy, "0",
            "a host-to-device copy fills the L2 with its sectors, as GPGPU-Sim's perf_memcpy_to_gpu (no time, "
            "no statistic; see -gms_perf_memcpy_addr; docs/memory-partitions.md)"),
    GMS_OPT("gms_perf_memcpy_addr", GMS_OPT_STRING, mem.perf_memcpy_addr, "gpgpusim",
            "with -gpgpu_perf_sim_memcpy 1, the addresses a copy fills: gpgpusim (each sector address cut to its "
            "low 32 bits, as GPGPU-Sim's `unsigned wr_addr`: a 64-bit device address fills other lines than the "
            "copied data's) | full (the copied data's own lines)"),
    GMS_OPT("gpgpu_mem_addr_mapping", GMS_OPT_STRING, mem.mapping_str, "",
            "address mapping dramid@<bit>;<64-char mask of D B R C S 0>, MSB first (empty: -gpgpu_mem_address_mask defaults)"),
    GMS_OPT("gpgpu_mem_address_mask", GMS_OPT_INT, mem.address_mask, "0",
            "built-in masks used without a mapping string: 0, 1, 2, 3 (GPGPU-Sim addrdec.cc)"),
    GMS_OPT_PARTLY("gpgpu_memory_partition_indexing", GMS_OPT_U32, mem.partition_indexing, "0",
            "sub-partition hashing: 0 none, 1 XOR, 2 IPOLY (16/32/64 sub-partitions), 4 random, 5 custom (= none, as "
            "GPGPU-Sim), 6 IPOLY-Modulo (total = m x 2^k sub-partitions, 2^k 16/32/64)",
            "4 (random) draws each unit's sub-partition by a fixed hash, not GPGPU-Sim's rand() at first touch "
            "(the same distribution, other draws); 6 (IPOLY-Modulo) is inferred, GPGPU-Sim's function not being "
            "public: IPOLY within groups of the power-of-two factor (docs/memory-partitions.md)", pidx_inexact),
    GMS_OPT("gms_partition_mapping", GMS_OPT_STRING, mem.partition_mapping, "gpgpusim",
            "channel selection: gpgpusim (the mapping string) | modulo | xor (spec 001 3.5)"),
    GMS_OPT("gms_partition_chunk", GMS_OPT_U32, mem.partition_chunk, "256",
            "interleave granularity of the modulo and xor mappings (bytes, power of two)"),
    GMS_OPT("gms_partition_prime", GMS_OPT_U32, mem.partition_prime, "0",
            "p of the prime, aprime and dprime mappings, polynomial bit pattern of ipoly (19 = x^4+x+1); 0 = default (13, 31, 11, 19 for 16 channels)"),
    GMS_OPT("gpgpu_dram_timing_opt", GMS_OPT_STRING, mem.timing_str, "4:2:8:12:21:13:34:9:4:5:13:1:0:0",
            "DRAM timing nbk=:CCD=:RRD=:RCD=:RAS=:RP=:RC=:CL=:WL=:CDLR=:WR=[:nbkgrp=:CCDL=:RTPL=] (command cycles)"),
    GMS_OPT("gpgpu_dram_buswidth", GMS_OPT_U32, mem.buswidth, "4", "DRAM bus width per chip (bytes)"),
    GMS_OPT("gpgpu_dram_burst_length", GMS_OPT_U32, mem.burst_length, "4", "DRAM burst length (beats)"),
    GMS_OPT("gpgpu_n_mem_per_ctrlr", GMS_OPT_U32, mem.n_mem_per_ctrlr, "1", "DRAM chips per channel"),
    GMS_OPT("dram_data_command_freq_ratio", GMS_OPT_U32, mem.data_command_freq_ratio, "2",
            "data:command clock ratio (2 DDR, 4 QDR)"),
    GMS_OPT("dram_latency", GMS_OPT_U32, mem.dram_latency, "30",
            "fixed delay from the L2->DRAM queue to the scheduler queue (core cycles)"),
    GMS_OPT("gpgpu_dram_scheduler", GMS_OPT_U32, mem.dram_scheduler, "1", "DRAM scheduler: 0 FIFO, 1 FR-FCFS"),
    GMS_OPT("gms_dram_scheduler", GMS_OPT_STRING, mem.dram_sched_name, "",
            "DRAM scheduler by name (gpumemsim list policies); overrides -gpgpu_dram_scheduler"),
    GMS_OPT("gpgpu_frfcfs_dram_sched_queue_size", GMS_OPT_U32, mem.frfcfs_queue, "0",
            "DRAM scheduler queue entries per channel (0 = unlimited)"),
    GMS_OPT("gpgpu_dram_return_queue_size", GMS_OPT_U32, mem.return_queue, "0",
            "DRAM return queue entries per channel (0 = 1024)"),
    GMS_OPT("dram_bnk_indexing_policy", GMS_OPT_U32, mem.bnk_indexing, "0",
            "DRAM bank index: 0 linear, 1 XOR with row bits, 2 IPOLY"),
    GMS_OPT("dram_bnkgrp_indexing_policy", GMS_OPT_U32, mem.bnkgrp_indexing, "0",
            "bank group of a bank: 0 higher bank bits, 1 lower bank bits"),
    GMS_OPT("dram_dual_bus_interface", GMS_OPT_BOOL, mem.dual_bus, "0",
            "separate row and column command buses (HBM): a row and a column command per cycle"),
    GMS_OPT("dram_elimnate_rw_turnaround", GMS_OPT_BOOL, mem.elim_rw_turnaround, "0",
            "ignore read-write turnaround (tRTW = tWTR = 0)"),
    GMS_OPT("dram_seperate_write_queue_enable", GMS_OPT_BOOL, mem.sep_write_queue, "0",
            "FR-FCFS keeps writes in their own queue, drained between watermarks"),
    GMS_OPT("dram_write_queue_size", GMS_OPT_STRING, mem.write_queue_str, "32:28:16",
            "write queue size:high watermark:low watermark"),
    GMS_OPT("gms_dram_tfaw", GMS_OPT_U32, mem.tfaw, "0", "four-activate window (command cycles; 0 = off, as GPGPU-Sim)"),
    GMS_OPT("gms_dram_trefi", GMS_OPT_U32, mem.trefi, "0", "all-bank refresh interval (command cycles; 0 = off, as GPGPU-Sim)"),
    GMS_OPT("gms_dram_trfc", GMS_OPT_U32, mem.trfc, "0", "refresh cycle time (command cycles)"),
};

static int parse_queues(gms_memsys_params *m, gms_error *err)
{
    uint32_t v[4];
    size_t n;
    if (gms_parse_u32_list(m->partition_queues_str, ':', v, 4, &n) || n != 4)
        return gms_err(err, "-gpgpu_dram_partition_queues: expected four sizes icnt->L2:L2->DRAM:DRAM->L2:L2->icnt, "
                       "got \"%s\"", m->partition_queues_str);
    m->q_icnt_l2 = v[0]; m->q_l2_dram = v[1]; m->q_dram_l2 = v[2]; m->q_l2_icnt = v[3];
    return 0;
}

static int parse_write_queue(gms_memsys_params *m, gms_error *err)
{
    uint32_t v[3];
    size_t n;
    if (gms_parse_u32_list(m->write_queue_str, ':', v, 3, &n) || n != 3)
        return gms_err(err, "-dram_write_queue_size: expected size:high:low, got \"%s\"", m->write_queue_str);
    uint32_t a = v[0], b = v[1], c = v[2];
    if (m->sep_write_queue && (!a || b > a || c > b))
        return gms_err(err, "-dram_write_queue_size: need 0 < low <= high <= size, got %u:%u:%u", a, b, c);
    m->wq_size = a; m->wq_high = b; m->wq_low = c;
    return 0;
}

static int fin(gms_params *p, gms_error *err)
{
    gms_memsys_params *m = &p->mem;
    if (m->n_mem == 0) return gms_err(err, "-gpgpu_n_mem: must be at least 1");
    if (gms_param_wait_at_most(m->l2_mshr_latency, "gms_l2_mshr_latency", err) ||
        gms_param_wait_at_most(m->tfaw, "gms_dram_tfaw", err) ||
        gms_param_at_most(m->burst_length, 1024, "gpgpu_dram_burst_length", "beats per DRAM access", err))
        return -1;
    if (m->n_sub_partition_per_mchannel == 0)
        return gms_err(err, "-gpgpu_n_sub_partition_per_mchannel: must be at least 1");
    /* a request carries its sub-partition and channel in 16 bits (mreq.h) */
    if ((uint64_t)m->n_mem * m->n_sub_partition_per_mchannel > UINT16_MAX)
        return gms_err(err, "-gpgpu_n_mem %u x -gpgpu_n_sub_partition_per_mchannel %u: more than %u memory sub-partitions",
                       m->n_mem, m->n_sub_partition_per_mchannel, UINT16_MAX);
    /* L2 */
    if (gms_cache_config_parse(m->dl2_str, "-gpgpu_cache:dl2", &m->dl2, err)) return -1;
    if (!gms_mshr_find(m->l2_mshr_design)) {
        char known[256];
        gms_reg_known(&gms_mshr_reg, known, sizeof known);
        return gms_err(err, "-gms_l2_mshr: unknown MSHR design '%s'; known: %s", m->l2_mshr_design, known);
    }
    snprintf(m->dl2.mshr_design, sizeof m->dl2.mshr_design, "%s", m->l2_mshr_design);
    if (gms_mshr_params_parse(m->l2_dlmshr_str, "-gms_l2_dlmshr", &m->dl2.mshr_params, err)) return -1;
    m->dl2.mshr_params.latency = m->l2_mshr_latency;
    m->dl2.bxor_t_shift = m->l2_bxor_t_shift;
    if (m->l2_bxor_t_shift && (!m->dl2.enabled || m->dl2.set_index != 'X'))
        return gms_err(err, "-gms_l2_bxor_t_shift %u: the L2 set index is not BXOR (X in -gpgpu_cache:dl2)", m->l2_bxor_t_shift);
    if (m->dl2.enabled && gms_index_bxor_shift_check(&m->dl2, "-gms_l2_bxor_t_shift", err)) return -1;
    if (m->dl2.enabled && gms_cache_config_validate(&m->dl2, "-gpgpu_cache:dl2", err)) return -1;
    if (m->dl2.enabled && !strcmp(m->l2_mshr_design, "dlmshr") &&
        gms_dlmshr_geometry_check(&m->dl2, "-gpgpu_cache:dl2", "-gms_l2_dlmshr", m->l2_dlmshr_str, err))
        return -1;
    static const char *const l2_mshr_knobs[] = { "gms_l2_mshr", "gms_l2_dlmshr", NULL };
    if (gms_params_require(p, l2_mshr_knobs, m->dl2.enabled, "the L2 exists (-gpgpu_cache:dl2 is not none)", err))
        return -1;
    if (parse_queues(m, err)) return -1;
    if (!gms_l2q_find(m->l2q)) return gms_reg_unknown(&gms_l2q_reg, m->l2q, err);
    if (gms_l2q_params_parse(m->l2q_cart_str, m->l2q_p2_str, &m->l2qp, err)) return -1;
    m->l2qp.cart_age_cap = m->l2q_cart_age;
    if (gms_energy_params_parse(m->energy_str, &m->energy, err)) return -1;
    if (m->racb > 3) return gms_err(err, "-gms_racb: must be 0 (off), 1 (L1D), 2 (L2) or 3 (both), got %u", m->racb);
    if (!strcmp(m->perf_memcpy_addr, "gpgpusim") || !strcmp(m->perf_memcpy_addr, "full"))
        m->perf_memcpy_low32 = m->perf_memcpy_addr[0] == 'g';
    else
        return gms_err(err, "-gms_perf_memcpy_addr: '%s' is not gpgpusim or full", m->perf_memcpy_addr);
    if (!strcmp(m->l2q_dram_gate, "auto"))
        m->l2_gate_block = !gms_l2q_find(m->l2q)->reorders;
    else if (!strcmp(m->l2q_dram_gate, "block") || !strcmp(m->l2q_dram_gate, "miss"))
        m->l2_gate_block = m->l2q_dram_gate[0] == 'b';
    else
        return gms_err(err, "-gms_l2q_dram_gate: '%s' is not one of auto, block, miss", m->l2q_dram_gate);
    /* Without an L2 a slice only forwards to DRAM and must wait for room: there is no hit to let
     * through, so "miss" would be accepted and never used. */
    if (!m->dl2.enabled) {
        if (!strcmp(m->l2q_dram_gate, "miss"))
            return gms_err(err, "-gms_l2q_dram_gate miss: has no effect with the L2 disabled (-gpgpu_cache:dl2 none)");
        m->l2_gate_block = 1;
    }
    /* DRAM */
    gms_dram_timing *t = &m->timing;
    memset(t, 0, sizeof *t);
    if (gms_dram_timing_parse(m->timing_str, "-gpgpu_dram_timing_opt", t, err)) return -1;
    t->BL = m->burst_length;
    t->busW = m->buswidth;
    t->n_per_ctrlr = m->n_mem_per_ctrlr;
    t->ratio = m->data_command_freq_ratio;
    t->tFAW = m->tfaw;
    t->tREFI = m->trefi;
    t->tRFC = m->trfc;
    t->elim_rw_turnaround = m->elim_rw_turnaround;
    t->dual_bus = m->dual_bus;
    if (m->bnkgrp_indexing > 1)
        return gms_err(err, "-dram_bnkgrp_indexing_policy: %u is not supported (0 higher bits, 1 lower bits)",
                       m->bnkgrp_indexing);
    t->bnkgrp_lower_bits = m->bnkgrp_indexing == 1;
    if (gms_dram_timing_derive(t, err)) return -1;
    if (m->dram_sched_name[0]) {
        if (!gms_dram_sched_find(m->dram_sched_name)) return gms_reg_unknown(&gms_dram_sched_reg, m->dram_sched_name, err);
    } else if (m->dram_scheduler >= gms_dram_sched_nregistry) {
        char known[256];   /* the number is the member's place in the registry */
        gms_reg_known(&gms_dram_sched_reg, known, sizeof known);
        return gms_err(err, "-gpgpu_dram_scheduler: %u is not supported; known, from 0: %s", m->dram_scheduler, known);
    }
    if (parse_write_queue(m, err)) return -1;
    /* mapping */
    gms_addrdec_config *a = &m->addrdec;
    memset(a, 0, sizeof *a);
    if (m->mapping_str[0]) {
        if (gms_addrdec_parse_mapping(m->mapping_str, "-gpgpu_mem_addr_mapping", a, err)) return -1;
    } else if (gms_addrdec_default_masks(m->address_mask, a, err)) {
        return -1;
    }
    snprintf(a->member, sizeof a->member, "%s", m->partition_mapping);
    a->n_channel = m->n_mem;
    a->n_sub = m->n_sub_partition_per_mchannel;
    a->chunk = m->partition_chunk;
    a->prime = m->partition_prime;
    a->pindex = m->partition_indexing;
    a->bk_index = m->bnk_indexing;
    a->nbk = t->nbk;
    if (gms_addrdec_finalize(a, err)) return -1;
    return 0;
}

static const char *size_words(uint64_t b, char *buf, size_t n)
{
    if (b >= (1ull << 20) && !(b % (1ull << 20))) snprintf(buf, n, "%llu MiB", (unsigned long long)(b >> 20));
    else if (b >= 1024 && !(b % 1024)) snprintf(buf, n, "%llu KiB", (unsigned long long)(b >> 10));
    else snprintf(buf, n, "%llu B", (unsigned long long)b);
    return buf;
}

static const char *sched_name(const gms_memsys_params *m)
{
    if (m->dram_sched_name[0]) return m->dram_sched_name;
    return m->dram_scheduler < gms_dram_sched_nregistry ? gms_dram_sched_registry[m->dram_scheduler]->name : "?";
}

static void dump(const gms_params *p, FILE *out)
{
    const gms_memsys_params *m = &p->mem;
    const gms_dram_timing *t = &m->timing;
    uint32_t nsub = m->n_mem * m->n_sub_partition_per_mchannel;
    char a[32], b[32], size[32], rest[512];
    fprintf(out, "Memory partitions: %u channel%s x %u sub-partition%s = %u L2 slice%s\n", m->n_mem,
            m->n_mem == 1 ? "" : "s", m->n_sub_partition_per_mchannel, m->n_sub_partition_per_mchannel == 1 ? "" : "s",
            nsub, nsub == 1 ? "" : "s");
    if (m->dl2.enabled) {
        gms_cache_config_describe_parts(&m->dl2, size, sizeof size, rest, sizeof rest);
        fprintf(out, "L2: %s per slice x %u slices = %s%s\n", size, nsub,
                size_words(gms_cache_config_bytes(&m->dl2) * nsub, a, sizeof a), rest);
        fprintf(out, "L2 MSHR design: %s\n", gms_mshr_describe(&m->dl2, m->l2_mshr_design));
    } else {
        fprintf(out, "L2: disabled (none): requests go straight to DRAM\n");
    }
    fprintf(out, "L2 path: ROP latency %u core cycles, input queue %s; queues icnt->L2 %u, L2->DRAM %u, DRAM->L2 %u, "
            "L2->icnt %u (0 = unbounded)\n", m->rop_latency, m->l2q, m->q_icnt_l2, m->q_l2_dram, m->q_dram_l2,
            m->q_l2_icnt);
    if (m->dl2.enabled)
        fprintf(out, "L2 while L2->DRAM is full: %s\n",
                m->l2_gate_block ? "no access (GPGPU-Sim)" : "accesses go on; a miss needs room in the L2's miss queue");
    if (!strcmp(m->l2q, "cart"))
        fprintf(out, "CART: %uR/%uC/%uE per bank (%u entries per bank), drain %s\n", m->l2qp.cart_rows,
                m->l2qp.cart_cols, m->l2qp.cart_entries, m->l2qp.cart_rows * m->l2qp.cart_cols * m->l2qp.cart_entries,
                gms_cart_drain_name[m->l2qp.cart_drain]);
    if (!strcmp(m->l2q, "cart") && m->l2qp.cart_age_cap)
        fprintf(out, "CART age cap: a queue head older than %u core cycles drains first in its bank\n", m->l2qp.cart_age_cap);
    if (m->racb)
        fprintf(out, "RACB: reads refused by the %s bypass it\n", m->racb == 3 ? "L1D and the L2" : m->racb == 1 ? "L1D" : "L2");
    if (!strcmp(m->l2q, "p2"))
        fprintf(out, "P2: %u bank-classified queues of %u entries (queue = DRAM bank mod %u)\n", m->l2qp.p2_queues,
                m->l2qp.p2_depth, m->l2qp.p2_queues);
    const gms_addrdec_config *ad = &m->addrdec;
    const gms_chanmap_ops *cm = gms_chanmap_find(ad->member);
    if (cm && cm->describe) {
        char words[1024];
        cm->describe(ad, words, sizeof words);
        fprintf(out, "Partition mapping: %s\n", words);
    } else {
        fprintf(out, "Partition mapping: %s over %u-byte chunks\n", ad->member, ad->chunk);
    }
    static const char *const pidx[] = { "none", "XOR", "IPOLY", "none", "random (a fixed hash per address unit, "
                                        "not GPGPU-Sim's rand() draw)", "custom (none, as GPGPU-Sim)",
                                        "IPOLY-Modulo (inferred: IPOLY within groups of the power-of-two factor)" };
    static const char *const bkidx[] = { "linear", "XOR with row", "IPOLY" };
    if (m->n_sub_partition_per_mchannel > 1)
        fprintf(out, "Partition hashing: %s; sub-partition = channel x %u + lowest %u bank bit%s; DRAM bank index %s\n",
                pidx[ad->pindex < 7 ? ad->pindex : 0], m->n_sub_partition_per_mchannel,
                gms_log2u(m->n_sub_partition_per_mchannel), m->n_sub_partition_per_mchannel > 2 ? "s" : "",
                bkidx[ad->bk_index < 3 ? ad->bk_index : 0]);
    else
        fprintf(out, "Partition hashing: %s; one sub-partition per channel; DRAM bank index %s\n",
                pidx[ad->pindex < 7 ? ad->pindex : 0], bkidx[ad->bk_index < 3 ? ad->bk_index : 0]);
    double mhz = p->core.mhz_dram;
    double per_chan = (double)t->atom / t->burst_cycles * mhz * 1e6;   /* bytes/s */
    fprintf(out, "DRAM: %u channels x %u banks", m->n_mem, t->nbk);
    if (t->nbkgrp > 1) fprintf(out, " (%u groups, %s bank bits)", t->nbkgrp, t->bnkgrp_lower_bits ? "lower" : "higher");
    fprintf(out, ", %.0f MHz command clock, %u B per column command (%u beats x %u B x %u chip%s), "
            "peak %.1f GB/s per channel, %.1f GB/s total\n", mhz, t->atom, t->BL, t->busW, t->n_per_ctrlr,
            t->n_per_ctrlr == 1 ? "" : "s", per_chan / 1e9, per_chan * m->n_mem / 1e9);
    fprintf(out, "DRAM timing (command cycles): tCCD %u, tRRD %u, tRCD %u (write %u), tRAS %u, tRP %u, tRC %u, CL %u, "
            "WL %u, tCDLR %u, tWR %u, tCCDL %u, tRTPL %u; derived tRTW %u, tWTR %u, tWTP %u, burst %u\n",
            t->tCCD, t->tRRD, t->tRCD, t->tRCDWR, t->tRAS, t->tRP, t->tRC, t->CL, t->WL, t->tCDLR, t->tWR, t->tCCDL,
            t->tRTPL, t->tRTW, t->tWTR, t->tWTP, t->burst_cycles);
    fprintf(out, "DRAM extras: tFAW %s, refresh %s, %s command bus%s\n", t->tFAW ? "on" : "off",
            t->tREFI ? "on" : "off", t->dual_bus ? "dual (row + column)" : "single",
            t->elim_rw_turnaround ? ", no read/write turnaround" : "");
    if (t->tFAW || t->tREFI)
        fprintf(out, "DRAM extras detail: tFAW %u cycles, tREFI %u, tRFC %u\n", t->tFAW, t->tREFI, t->tRFC);
    snprintf(b, sizeof b, "%u", m->frfcfs_queue);
    fprintf(out, "DRAM scheduler: %s, queue %s per channel, return queue %u, %u core cycles before the queue%s\n",
            sched_name(m), m->frfcfs_queue ? b : "unlimited", m->return_queue ? m->return_queue : 1024, m->dram_latency,
            m->sep_write_queue ? ", separate write queue" : "");
    if (m->sep_write_queue)
        fprintf(out, "DRAM write queue: %u entries, drain from %u down to %u\n", m->wq_size, m->wq_high, m->wq_low);
}

const gms_config_module gms_config_module_memsys = { "memsys", opts, sizeof opts / sizeof opts[0], fin, dump };
