# The memory partition against GPGPU-Sim's (docs/validation.md, "Audits against GPGPU-Sim's
# source"; tests/unit/test_mem_partition_fidelity.c checks each rule cycle by cycle).

MPF_G="--workload transpose --set N=512 --config configs/gtx1080ti.config --quiet"
mpf_stats() { grep -v -e wall -e per_second -e _rate -e simulation_time -e slowdown -e '^gms_engine_' -e '^gms_host_' "$1"; }

# 1. With the interconnect at twice the L2 clock (gtx1080ti) the L2->icnt queues are popped for
# every interconnect edge, partly by a component ticking after the interconnect (memsys.c): the
# statistics do not depend on whether idle or blocked components are skipped. (Popping at the
# edge itself, before an interconnect that was idle, moved the reply an edge later, and only
# when the interconnect had gone idle: -gms_sleep_blocked 0 and 1 differed.) The first run
# pipelines the memory side on a second host thread wherever it can.
GMS_HOST_THREADS_ALWAYS=1 $BIN run $MPF_G -gms_sleep_blocked 1 >"$T/mpf1" 2>/dev/null   # pipelined even with 28 SMs
$BIN run $MPF_G -gms_sleep_blocked 0 >"$T/mpf0" 2>/dev/null
$BIN run $MPF_G -gms_skip_idle 0 -gms_host_pipeline 0 >"$T/mpfs" 2>/dev/null
if grep -q '^gpu_tot_sim_cycle = [1-9]' "$T/mpf1" && mpf_stats "$T/mpf1" >"$T/mpf1.s" &&
   mpf_stats "$T/mpf0" | cmp -s - "$T/mpf1.s" && mpf_stats "$T/mpfs" | cmp -s - "$T/mpf1.s"; then
    ok mpf_icnt_faster_than_l2_pops_independent_of_skipping
else bad mpf_icnt_faster_than_l2_pops_independent_of_skipping; fi

# 2. a fetch-on-write L2 (no preset has one) through the whole simulator: eight one-lane stores
# to eight lines miss, each fetching its sector with an allocate read (n_rd_L2_A); the stores are
# acknowledged on the turns that hand the reads out, and the run ends
mkdir -p "$T/mpf"
{ printf -- '-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n'
  printf -- '-accelsim tracer version = 4\n\n#traces format = x\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\n'
  printf 'warp = 0\ninsts = 9\n'
  for i in 0 1 2 3 4 5 6 7; do printf '%04x 00000001 0 STG.E 2 R8 R9 4 1 0x7f00%08x 0\n' $((i * 16)) $((i * 4096)); done
  printf '0080 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/mpf/kernel-1.traceg"
echo kernel-1.traceg > "$T/mpf/kernelslist.g"
$BIN run --trace "$T/mpf/kernelslist.g" --config configs/qv100.config -gpgpu_cache:dl2 'S:32:128:24,L:B:m:F:P,A:192:4,32:0,32' \
    >"$T/mpf.out" 2>"$T/mpf.err"; rc=$?
w=$(sed -n 's/^gpgpu_n_mem_write_global = //p' "$T/mpf.out" | tail -1)
ar=$(sed -n 's/^n_rd_L2_A = //p' "$T/mpf.out" | tail -1)
if [ $rc -eq 0 ] && [ "$w" = 8 ] && [ "$ar" = 8 ]; then ok mpf_l2_fetch_on_write_runs_through
else bad "mpf_l2_fetch_on_write_runs_through (rc=$rc, $w global writes, want 8; $ar allocate reads, want 8)"; fi
