# The text log's total dram reads / writes as GPGPU-Sim's totalbankreads / totalbankwrites, and
# the trace front end's LDGSTS .STRONG.GPU (docs/counters.md, docs/traces.md, docs/validation.md).

# df_get FILE NAME: NAME's value in the first kernel block; df_tot FILE NAME: in the totals block
df_get() { awk -v name="$2" 'index($0, name " = ") == 1 { sub(/^[^=]*= */, ""); print; exit }' "$1"; }
df_tot() {
    awk -v name="$2" '/^----- totals/{t = 1} /^----- host/{t = 0}
        t && index($0, name " = ") == 1 { sub(/^[^=]*= */, ""); print; exit }' "$1"
}

# 1. memlatstat_dram_access (from dram_t::push) adds data size / dram_atom_size, unsigned, for
# every request a DRAM channel takes. GTX480: atom = BL 8 x 4 B x 2 chips = 64 B, 128 B L2 lines
# written with 'W' (write + fetch: each write miss sends the write and a read of the line). One
# warp: a 4-byte unit-stride load (a 128 B line), two one-lane stores (32 B segments) and a
# full-warp store (128 B) to four lines. By hand:
#  - as configured: reads 2 (the load's line) + 3 x 2 (the stores' line reads) = 8; writes 0 + 0
#    (32 B < 64 B) + 2 = 2;
#  - with a sectored L2 every DRAM request is a 32 B sector: 0 and 0, though the column commands
#    (n_rd, n_rd_L2_A, n_write) still issue, one a request;
#  - with no write-allocate ('N') the writes go to the DRAM alone: reads 2, writes 2, and the
#    channel serves 1 + 1 + 2 column commands (n_write 4).
mkdir -p "$T/dfd"
{ one_block_head 32
  tb_warp 0 5
  printf '0000 ffffffff 1 R1 LDG.E 1 R8 4 1 0x7f0000001000 4\n'
  printf '0010 00000001 0 STG.E 2 R8 R9 4 1 0x7f0000002000 4\n'
  printf '0020 00000001 0 STG.E 2 R8 R9 4 1 0x7f0000003000 4\n'
  printf '0030 ffffffff 0 STG.E 2 R8 R9 4 1 0x7f0000004000 4\n'
  printf '0040 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/dfd/kernel-1.traceg"
echo kernel-1.traceg > "$T/dfd/k.g"
df_run() { $BIN run --trace "$T/dfd/k.g" --config configs/gtx480.config "$@" > "$T/dfd/out.txt" 2>"$T/err"; }
df_run
r1=$(df_get "$T/dfd/out.txt" "total dram reads"); w1=$(df_get "$T/dfd/out.txt" "total dram writes")
rc1=$(( $(df_tot "$T/dfd/out.txt" n_rd) + $(df_tot "$T/dfd/out.txt" n_rd_L2_A) ))
g1=$(df_get "$T/dfd/out.txt" gms_dram_bank_reads)
df_run -gpgpu_cache:dl2 S:64:128:8,L:B:m:W:X,A:32:4,4:0,32
r2=$(df_get "$T/dfd/out.txt" "total dram reads"); w2=$(df_get "$T/dfd/out.txt" "total dram writes")
n2=$(df_tot "$T/dfd/out.txt" n_rd)
df_run -gpgpu_cache:dl2 N:64:128:8,L:B:m:N:X,A:32:4,4:0,32
r3=$(df_get "$T/dfd/out.txt" "total dram reads"); w3=$(df_get "$T/dfd/out.txt" "total dram writes")
n3=$(df_tot "$T/dfd/out.txt" n_write)
if [ "$r1" = 8 ] && [ "$w1" = 2 ] && [ "$rc1" = 8 ] && [ "$g1" = 8 ] && [ "$r2" = 0 ] && [ "$w2" = 0 ] &&
   [ "${n2:-0}" -gt 0 ] && [ "$r3" = 2 ] && [ "$w3" = 2 ] && [ "$n3" = 4 ]; then
    ok total_dram_reads_writes_in_atoms_at_push
else bad "total_dram_reads_writes_in_atoms_at_push (W: $r1/$w1, want 8/2, column reads $rc1, gms_dram_bank_reads $g1;" \
         "sectored: $r2/$w2, want 0/0, n_rd $n2; no write-allocate: $r3/$w3, want 2/2, n_write $n3, want 4)"; fi

# 2. Accel-Sim's parse_from_trace_struct (e5653f0) handles OP_LDG, OP_LDGSTS and OP_LDL in one
# case: .STRONG.GPU sets CACHE_GLOBAL, around the L1D. A 4-byte unit-stride LDGSTS.E and an
# LDGSTS.E.STRONG.GPU (Ampere table): on the QV100 4 L1D accesses (the first's sectors; 8 when
# both went through the L1D), on the GTX480 (arch 20) 1 + 4 requests (a 128 B segment through
# the L1D, four 32 B sectors around it; 2 segments before)
mkdir -p "$T/dfg"
{ one_block_head 32 80
  tb_warp 0 3
  printf '0000 ffffffff 0 LDGSTS.E 2 R5 R8 4 1 0x7f0000001000 4\n'
  printf '0010 ffffffff 0 LDGSTS.E.STRONG.GPU 2 R6 R8 4 1 0x7f0000002000 4\n'
  printf '0020 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/dfg/kernel-1.traceg"
echo kernel-1.traceg > "$T/dfg/k.g"
$BIN run --trace "$T/dfg/k.g" --config configs/qv100.config > "$T/dfg/v.txt" 2>"$T/err"
$BIN run --trace "$T/dfg/k.g" --config configs/gtx480.config > "$T/dfg/f.txt" 2>"$T/err"
gv=$(df_get "$T/dfg/v.txt" L1D_total_cache_accesses); bv=$(df_get "$T/dfg/v.txt" gms_bypassed_reads)
gf=$(df_get "$T/dfg/f.txt" gpgpu_n_mem_read_global); lf=$(df_get "$T/dfg/f.txt" L1D_total_cache_accesses)
if [ "$gv" = 4 ] && [ "$bv" = 4 ] && [ "$gf" = 5 ] && [ "$lf" = 1 ]; then ok ldgsts_strong_gpu_bypasses_l1
else bad "ldgsts_strong_gpu_bypasses_l1 (qv100: $gv L1D accesses, $bv bypassed, want 4, 4; gtx480: $gf requests, $lf L1D accesses, want 5, 1)"; fi
# -gpgpu_gmem_skip_L1D: GPGPU-Sim's memory_cycle sends every global-space access around the
# L1D, LDGSTS's global read among them: both LDGSTS go around it (8 bypassed sectors, no access)
$BIN run --trace "$T/dfg/k.g" --config configs/qv100.config -gpgpu_gmem_skip_L1D 1 > "$T/dfg/s.txt" 2>"$T/err"
gs=$(df_get "$T/dfg/s.txt" L1D_total_cache_accesses); bs=$(df_get "$T/dfg/s.txt" gms_bypassed_reads)
if [ "$gs" = 0 ] && [ "$bs" = 8 ]; then ok ldgsts_gmem_skip_l1d_bypasses_l1
else bad "ldgsts_gmem_skip_l1d_bypasses_l1 (qv100: $gs L1D accesses, $bs bypassed, want 0, 8)"; fi

# 3. The energy model's dram_rw event is one per column burst (spec 000a 2.8): the L2's
# write-allocate reads (n_rd_L2_A) are read bursts as n_rd's are. The write-allocate run of case
# 1 with 1000 pJ a burst and nothing else charged: gms_energy_dram_nj = bursts x 1 nJ, and the
# run has write-allocate reads (3 stores' lines), so leaving them out would show
df_run -gms_energy l2=0,dram_act=0,dram_rw=1000,queue=0,static_w=0
en=$(df_tot "$T/dfd/out.txt" gms_energy_dram_nj)
bu=$(( $(df_tot "$T/dfd/out.txt" n_rd) + $(df_tot "$T/dfd/out.txt" n_rd_L2_A) + \
       $(df_tot "$T/dfd/out.txt" n_write) + $(df_tot "$T/dfd/out.txt" n_wr_bk) ))
wa=$(df_tot "$T/dfd/out.txt" n_rd_L2_A)
if [ "${wa:-0}" -gt 0 ] && awk -v e="$en" -v b="$bu" 'BEGIN { exit !(e + 0 == b + 0) }'; then
    ok energy_dram_rw_counts_write_allocate_reads
else bad "energy_dram_rw_counts_write_allocate_reads (gms_energy_dram_nj $en, want bursts $bu; n_rd_L2_A $wa, want > 0)"; fi
