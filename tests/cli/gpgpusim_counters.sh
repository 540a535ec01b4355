# GPGPU-Sim-named counters with GPGPU-Sim's bookkeeping (docs/counters.md): gpu_sim_cycle and
# gpu_sim_insn from the previous kernel's end, averagemflatency over -gpgpu_runtime_stat's
# windows, the text log's total dram reads with the L2's write-allocate reads.

# gc_get FILE BLOCK NAME: NAME's value in the BLOCK-th kernel block of a text output (1-based)
gc_get() {
    awk -v blk="$2" -v name="$3" '/^kernel_name = /{b++} /^----- totals/{b = -1}
        b == blk && index($0, name " = ") == 1 { sub(/^[^=]*= */, ""); print; exit }' "$1"
}
# gc_tot FILE NAME: NAME's value in the totals block
gc_tot() {
    awk -v name="$2" '/^----- totals/{t = 1} /^----- host/{t = 0}
        t && index($0, name " = ") == 1 { sub(/^[^=]*= */, ""); print; exit }' "$1"
}

# 1. Two traced kernels in Accel-Sim's window (-gpgpu_concurrent_kernel_sm 1), launched in the
# same cycle: A (200 instructions) on stream 0, B (50) on stream 1, one warp each; B ends first.
# GPGPU-Sim's update_stats after B's statistics resets gpu_sim_cycle and gpu_sim_insn, so A's
# count from B's end: A's gpu_sim_cycle = its own cycles (gms_kernel_cycles) less B's, the two
# add up to gpu_tot_sim_cycle, and the two gpu_sim_insn to 32 x (201 + 51) = 8,064
mkdir -p "$T/gsc"
gen_k "$T/gsc/kernel-a.traceg" 1 32 0 0 alu 200; gen_k "$T/gsc/kernel-b.traceg" 1 32 0 1 alu 50
printf 'kernel-a.traceg\nkernel-b.traceg\n' > "$T/gsc/ab.g"
$BIN run --trace "$T/gsc/ab.g" --config configs/qv100.config -gpgpu_concurrent_kernel_sm 1 > "$T/gsc/ab.txt" 2>"$T/err"
b_uid=$(gc_get "$T/gsc/ab.txt" 1 kernel_launch_uid); b_c=$(gc_get "$T/gsc/ab.txt" 1 gpu_sim_cycle)
b_k=$(gc_get "$T/gsc/ab.txt" 1 gms_kernel_cycles); b_i=$(gc_get "$T/gsc/ab.txt" 1 gpu_sim_insn)
a_c=$(gc_get "$T/gsc/ab.txt" 2 gpu_sim_cycle); a_k=$(gc_get "$T/gsc/ab.txt" 2 gms_kernel_cycles)
a_i=$(gc_get "$T/gsc/ab.txt" 2 gpu_sim_insn); a_t=$(gc_get "$T/gsc/ab.txt" 2 gpu_tot_sim_cycle)
if [ "$b_uid" = 2 ] && [ -n "$b_c" ] && [ "$b_c" = "$b_k" ] && [ -n "$a_c" ] && [ "$a_c" -eq $((a_k - b_k)) ] &&
   [ $((a_c + b_c)) -eq "$a_t" ] && [ $((a_i + b_i)) -eq 8064 ] && [ "$b_i" -gt 1632 ]; then
    ok gpu_sim_cycle_from_the_previous_kernels_end
else bad "gpu_sim_cycle_from_the_previous_kernels_end (B uid $b_uid: $b_c of $b_k cycles, $b_i insn; A: $a_c of $a_k, $a_i insn; total $a_t)"; fi

# 2. averagemflatency and avg_icnt2mem_latency are GPGPU-Sim's num_mfs averages: a kernel shorter
# than the default period (10,000 cycles) has none folded when its statistics are written, so
# its block has neither line; the run's totals (after the last update_stats) have both. With a
# period of 1 every reply of the kernel is folded: its block has the line, equal to the total's.
# The kernel: one warp loads 8 lines (32 lanes x 4 B, 4 sectors each): 32 L1 misses, 32 replies
gen_k "$T/gsc/kernel-l.traceg" 1 32 0 0 ld 8; echo kernel-l.traceg > "$T/gsc/l.g"
$BIN run --trace "$T/gsc/l.g" --config configs/qv100.config > "$T/gsc/l.txt" 2>"$T/err"
$BIN run --trace "$T/gsc/l.g" --config configs/qv100.config -gpgpu_runtime_stat 1 > "$T/gsc/l1.txt" 2>"$T/err"
l_k=$(gc_get "$T/gsc/l.txt" 1 averagemflatency); l_i=$(gc_get "$T/gsc/l.txt" 1 avg_icnt2mem_latency)
l_n=$(gc_get "$T/gsc/l.txt" 1 gms_averagemflatency_replies); l_r=$(gc_get "$T/gsc/l.txt" 1 gms_mem_latency_replies)
l_t=$(gc_tot "$T/gsc/l.txt" averagemflatency); l1_k=$(gc_get "$T/gsc/l1.txt" 1 averagemflatency)
l_c=$(gc_get "$T/gsc/l.txt" 1 gpu_sim_cycle); l1_c=$(gc_get "$T/gsc/l1.txt" 1 gpu_sim_cycle)
if [ -z "$l_k" ] && [ -z "$l_i" ] && [ "$l_n" = 0 ] && [ "$l_r" = 32 ] && [ -n "$l_t" ] && [ "$l1_k" = "$l_t" ] &&
   [ -n "$l_c" ] && [ "$l_c" = "$l1_c" ] && [ "$l_c" -lt 10000 ]; then
    ok averagemflatency_only_once_a_window_is_folded
else bad "averagemflatency_only_once_a_window_is_folded (kernel: '$l_k' '$l_i', $l_n of $l_r replies folded; total $l_t; period 1: $l1_k; cycles $l_c / $l1_c)"; fi
# a period below 1 (GPGPU-Sim divides by it) is refused
expect_fail runtime_stat_period_zero_refused '^gpumemsim: .*-gpgpu_runtime_stat 0: the sampling period (the first field) must be at least 1' \
    $BIN run --trace "$T/gsc/l.g" --config configs/qv100.config -gpgpu_runtime_stat 0
# text that is not CYCLES[:FLAGS] is refused, not read as GPGPU-Sim's default 10000
expect_fail runtime_stat_garbage_refused '^gpumemsim: .*-gpgpu_runtime_stat 500x: the sampling period' \
    $BIN run --trace "$T/gsc/l.g" --config configs/qv100.config -gpgpu_runtime_stat 500x

# 3. total dram reads is GPGPU-Sim's totalbankreads, the L2's write-allocate reads among the reads
# (memlatstat_dram_access counts every read entering the DRAM); dram_reads (n_rd) leaves them out.
# gtx480's L2 fetches a line on a write miss: stream's stores make such reads. It counts a
# request when the DRAM takes it (data size / atom: 128 B lines on 64 B atoms, two column
# commands each), so the kernel's block is compared with the column commands of the whole run
# (an allocate read taken before the kernel's end issues after it; tests/cli/dram_and_frontend.sh)
$BIN run --config configs/gtx480.config --workload stream --set n=4096 --quiet > "$T/gsc/s.txt" 2>"$T/err"
s_rd=$(gc_tot "$T/gsc/s.txt" n_rd); s_a=$(gc_tot "$T/gsc/s.txt" n_rd_L2_A); s_tr=$(gc_get "$T/gsc/s.txt" 1 "total dram reads")
s_w=$(gc_tot "$T/gsc/s.txt" n_write); s_wb=$(gc_tot "$T/gsc/s.txt" n_wr_bk); s_tw=$(gc_get "$T/gsc/s.txt" 1 "total dram writes")
if [ -n "$s_a" ] && [ "$s_a" -gt 0 ] && [ -n "$s_tr" ] && [ "$s_tr" -eq $((s_rd + s_a)) ] && [ -n "$s_tw" ] &&
   [ "$s_tw" -eq $((s_w + s_wb)) ]; then
    ok total_dram_reads_with_write_allocate_reads
else bad "total_dram_reads_with_write_allocate_reads (n_rd $s_rd + n_rd_L2_A $s_a: $s_tr; n_write $s_w + n_wr_bk $s_wb: $s_tw)"; fi
