#!/bin/sh
# Command-line behaviour: good runs produce stats; bad input gives one clear error and a
# non-zero exit, never a crash. Ends with "N passed, N failed".
BIN=${GMS_BIN:-build/gpumemsim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$T/err" ] && sed 's/^/    /' "$T/err" | head -5; }

# expect_fail NAME PATTERN CMD...: exit status 1 or 2 (not a signal) and stderr matching PATTERN
expect_fail() {
    name=$1; pat=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q -- "$pat" "$T/err"; then ok "$name"; else bad "$name (rc=$rc)"; fi
}
expect_ok() {
    name=$1; shift
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ]; then ok "$name"; else bad "$name (rc=$rc)"; fi
}

SMALL="--config configs/qv100.config --set n=8192 --quiet"
expect_ok  run_stream_small          $BIN run $SMALL --workload stream --stats-json "$T/s.json"
if grep -q '"gpgpu_n_tot_w_icount": 3840' "$T/s.json" && grep -q '"kernels": \[' "$T/s.json"; then
    ok json_has_counts; else bad json_has_counts; fi
# -dram_seperate_write_queue_enable: the last L2 write-backs stay below the write queue's
# high watermark (the DRAM never serves them, as in GPGPU-Sim); the run ends without them
# (it ran into the watchdog before) and counts them
expect_ok  sep_write_queue_ends      $BIN run --config configs/qv100.config --workload gather --set n=131072 \
    --set dram_seperate_write_queue_enable=1 --quiet --stats-json "$T/w.json"
if grep -q '"gms_dram_writes_stranded": [1-9]' "$T/w.json" && grep -q '"gms_workload_verified": 1' "$T/w.json"; then
    ok sep_write_queue_counts_stranded; else bad sep_write_queue_counts_stranded; fi
expect_ok  run_csv_and_text          $BIN run $SMALL --workload stream --stats-csv "$T/s.csv" --stats-text "$T/s.txt"
# a stats path that is not a regular file is written in place, never replaced: a symlink stays
# a link (its target gets the stats), a FIFO stays a FIFO (renaming over /dev/null as root
# once turned it into a regular file)
: > "$T/target.txt"; ln -s "$T/target.txt" "$T/link.txt"; mkfifo "$T/fifo"
cat "$T/fifo" > "$T/fifo.out" 2>/dev/null < /dev/null &
catpid=$!
$BIN run $SMALL --workload stream --stats-text "$T/link.txt" --stats-json "$T/fifo" > /dev/null 2>&1
sleep 0.2
if [ -L "$T/link.txt" ] && grep -q '^gpu_tot_sim_cycle = ' "$T/target.txt" && [ -p "$T/fifo" ] \
   && grep -q '"gpgpu_n_tot_w_icount"' "$T/fifo.out"; then
    ok stats_to_link_and_fifo_in_place; else bad stats_to_link_and_fifo_in_place; fi
kill $catpid 2>/dev/null; wait $catpid 2>/dev/null
if head -1 "$T/s.csv" | grep -q '^scope,kernel_uid,kernel_name,stat,value$' && grep -q '^gpu_tot_sim_cycle = ' "$T/s.txt"; then
    ok csv_and_text_written; else bad csv_and_text_written; fi
# the text output carries the GPGPU-Sim log lines Accel-Sim's stats scripts parse (the regexes
# of its util/job_launching/stats/example_stats.yml, in POSIX form), with our counters' values
expect_ok  run_text_accelsim_lines    $BIN run $SMALL --workload stream --stats-text "$T/g.txt"
S='[[:space:]]'
nmiss=0
for re in "gpu_tot_sim_insn$S*=$S*[0-9]" "gpgpu_simulation_time$S*=.*\\(([0-9]+) sec\\)" "gpu_tot_sim_cycle$S*=$S*[0-9]" \
    "$S+L2_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[HIT\\]$S*=$S*[0-9]" "$S+L2_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[TOTAL_ACCESS\\]$S*=$S*[0-9]" \
    "$S+L2_cache_stats_breakdown\\[GLOBAL_ACC_W\\]\\[HIT\\]$S*=$S*[0-9]" "$S+L2_cache_stats_breakdown\\[GLOBAL_ACC_W\\]\\[TOTAL_ACCESS\\]$S*=$S*[0-9]" \
    "$S+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[TOTAL_ACCESS\\]$S*=$S*[0-9]" "$S+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[HIT\\]$S*=$S*[0-9]" \
    "$S+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_W\\]\\[HIT\\]$S*=$S*[0-9]" "$S+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_W\\]\\[TOTAL_ACCESS\\]$S*=$S*[0-9]" \
    "gpgpu_n_tot_w_icount$S*=$S*[0-9]" "total dram reads$S*=$S*[0-9]" "total dram writes$S*=$S*[0-9]" "gpu_ipc$S*=$S*[0-9]" \
    "L2_BW$S*=$S*[0-9.]+ GB/Sec" "gpgpu_simulation_rate$S+=$S+[0-9]+$S+\\(inst/sec\\)" "gpu_tot_ipc$S*=$S*[0-9]"; do
    grep -Eq "$re" "$T/g.txt" || { nmiss=$((nmiss + 1)); echo "    no line matches $re"; }
done
if [ $nmiss -eq 0 ]; then ok accelsim_stats_regexes_match; else bad accelsim_stats_regexes_match; fi
v1=$(sed -n 's/^L1D_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\] = //p' "$T/g.txt" | head -1)
v2=$(sed -n 's/^	Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\] = //p' "$T/g.txt" | head -1)
d1=$(sed -n 's/^dram_reads = //p' "$T/g.txt" | head -1); d2=$(sed -n 's/^total dram reads = //p' "$T/g.txt" | head -1)
if [ -n "$v1" ] && [ "$v1" = "$v2" ] && [ -n "$d1" ] && [ "$d1" = "$d2" ]; then ok accelsim_lines_are_our_counters; else bad accelsim_lines_are_our_counters; fi
# with managed memory, UVMSmart's end-of-run lines in its formats, read as its plotting scripts
# read them (benchmarks/Results/*/scripts: the number between ', ' and '(us)', split()[3], ...)
expect_ok  run_text_uvmsmart_lines    $BIN run --config configs/gtx1080ti.config --workload 2dconv --set uvm=1 \
    --set scale=0.1 --quiet --stats-text "$T/u.txt"
kc=$(sed -n 's/^Tot_kernel_exec_time_and_fault_time = //p' "$T/u.txt" | head -1)
ku=$(grep '^Tot_kernel_exec_time_and_fault_time:' "$T/u.txt" | sed 's/^[^:]*: \([0-9]*\)(cycle), \([0-9.]*\)(us)$/\1 \2/')
pv=$(grep '^Page_validate:.*Page_evict_dirty.*Page_evict_not_dirty' "$T/u.txt" | awk '{ print $2, $4, $6 }')
pf=$(grep '^Total_memory_access_page_fault:' "$T/u.txt" | sed 's/^[^:]*: \([0-9]*\), .*/\1/')
if [ -n "$kc" ] && [ -n "$pv" ] && [ -n "$pf" ] && [ "${ku%% *}" = "$kc" ] && awk -v c="$kc" -v u="${ku#* }" 'BEGIN { exit !(u > 0 && c / u > 1480 && c / u < 1482) }' &&
    [ "$(echo $pv | cut -d' ' -f1)" = "$(sed -n 's/^Page_validate = //p' "$T/u.txt" | head -1)" ] &&
    [ "$pf" = "$(sed -n 's/^Total_memory_access_page_fault = //p' "$T/u.txt" | head -1)" ] && grep -q '^Pcie_read_utilization: [0-9.]*$' "$T/u.txt"; then
    ok uvmsmart_lines_parse_as_its_scripts; else bad uvmsmart_lines_parse_as_its_scripts; fi
expect_ok  accel_style_args          $BIN run -config configs/gtx480.config -gpgpu_n_clusters 4 --set n=4096 --workload stream
# the GPGPU-Sim-style option took effect: 4096 threads of 15 warp instructions each, verified
if grep -q '^gpgpu_n_tot_w_icount = 1920$' "$T/out" && grep -q '^gms_workload_verified = 1$' "$T/out" &&
    $BIN config -config configs/gtx480.config -gpgpu_n_clusters 4 --dump 2>/dev/null | grep -q '^GPU: 4 SMs (4 clusters x 1)'; then
    ok accel_style_args_take_effect; else bad accel_style_args_take_effect; fi
expect_ok  config_dump               $BIN config --config configs/qv100.config --dump
if grep -q '^L1D' "$T/out" && grep -q 'gpgpu_n_clusters' "$T/out"; then ok dump_decodes_l1d; else bad dump_decodes_l1d; fi
# the LDST unit's write-back model is said in words, either way
if grep -q '^LDST write-back: one slot a cycle, round robin among the 20-stage shared-memory pipeline' "$T/out"; then
    ok dump_says_lsu_writeback; else bad dump_says_lsu_writeback; fi
expect_ok  config_dump_lsu_wb_none  $BIN config --config configs/qv100.config --set gms_lsu_writeback=none --dump
if grep -q '^LDST write-back: shared-memory loads after a fixed 20 cycles' "$T/out"; then
    ok dump_says_lsu_writeback_none; else bad dump_says_lsu_writeback_none; fi
expect_ok  list_workloads            $BIN list workloads
if grep -q '^stream' "$T/out"; then ok list_has_stream; else bad list_has_stream; fi
expect_ok  list_presets              $BIN list presets
# one line per preset file, in the order ls gives
if [ "$(awk '{ print $1 }' "$T/out")" = "$(ls configs/*.config)" ]; then ok list_presets_are_the_files; else bad list_presets_are_the_files; fi
expect_ok  list_options              $BIN list options
if grep -q '^-gpgpu_n_clusters ' "$T/out" && grep -q '^-gms_l2_input_queue ' "$T/out"; then ok list_options_has_options; else bad list_options_has_options; fi

expect_fail unknown_option     'did you mean -gpgpu_n_clusters'  $BIN run --config configs/qv100.config --set gpgpu_n_clustres=3 --quiet
expect_fail malformed_value    'not an unsigned'                 $BIN run --config configs/qv100.config --set gpgpu_n_clusters=x --quiet
expect_fail icnt_islip_bad     '-gms_icnt_islip: must be multi or once' $BIN run --config configs/qv100.config --set gms_icnt_islip=twice --quiet
expect_fail zero_mshrs         'gpgpu_cache:dl1'                 $BIN run --config configs/qv100.config --set gpgpu_cache:dl1=S:4:128:64,L:T:m:L:L,A:0:8,16:0,32 --quiet
# concurrent kernels (docs/cke.md): two applications for a short window; bad schemes and apps
expect_ok  cke_pair_qbmi_dmil        $BIN run --config configs/maxwell-sound-baseline.config --workload cke --set apps=bp+ks \
           --set scale=0.1 --set gms_cke_window=5000 --set gms_cke_tb=smk --set gms_cke_mi=qbmi+dmil
# the window ends the run, before either application finishes, and QBMI's gate held some
# requests of one application or the other back
if grep -q '^gms_elapsed_core_cycles = 5000$' "$T/out" && grep -q '^gms_completed = 0$' "$T/out" &&
    awk '/^gms_cke_app[01]_gate_denied = / { n += $3 } END { exit !(n > 0) }' "$T/out"; then
    ok cke_pair_window_and_gate; else bad cke_pair_window_and_gate; fi
expect_fail cke_refuses_block_limits 'gpgpu_max_cta is set, but it has no effect unless the run is one application' $BIN run --config configs/maxwell-sound-baseline.config --workload cke --set apps=bp+ks --set gpgpu_max_cta=10 --quiet
expect_fail cke_unknown_scheme 'unknown CKE memory-issue scheme'  $BIN run --config configs/maxwell-sound-baseline.config --workload cke --set gms_cke_mi=bmi --quiet
# the cke options on one application: accepted and never used, so refused (any non-default value)
expect_fail cke_option_single_app 'gms_cke_tb is set, but it has no effect unless the run is multiprogrammed' \
           $BIN run --config configs/qv100.config --workload stream --set n=4096 --set gms_cke_tb=ws --quiet
expect_fail cke_option_no_timing 'gms_cke_window is set' $BIN run --config configs/qv100.config --workload stream \
           --set n=4096 --set gms_cke_window=5 --no-timing
expect_ok  cke_option_default_single_app $BIN run --config configs/qv100.config --workload stream --set n=4096 \
           --set gms_cke_tb=greedy --quiet
# a Belady knob under another policy runs, and says it is unused
out=$($BIN run --config configs/qv100.config --workload stream --set n=4096 --set gms_uvm_belady_progress=0 --quiet 2>&1)
if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q 'warning: -gms_uvm_belady_progress is set, but it has no effect unless -uvm_eviction is belady (this run: lru2m)'; then
    pass=$((pass + 1)); echo "ok   belady_knob_other_policy"
else fail=$((fail + 1)); echo "FAIL belady_knob_other_policy: $(printf '%s\n' "$out" | head -2)"; fi
expect_fail cke_unknown_app    "'xx' is no built-in workload"     $BIN run --config configs/maxwell-sound-baseline.config --workload cke --set apps=bp+xx --quiet
expect_fail cke_apps_comma     "separated by '+' (e.g. apps=bp+ks), not ','" $BIN run --config configs/maxwell-sound-baseline.config --workload cke --set apps=bp,ks --quiet
# SWL and CCWS together: CCWS ranks only the warps SWL lets issue, so one of them may always
# load (ranked over all warps, its choice could fall outside the K oldest: nothing loaded,
# the scores never decayed, and bfs ran into the watchdog at a barrier)
expect_ok  swl_with_ccws_completes $BIN run --config configs/maxwell-sound-baseline.config --workload bfs --set scale=0.0005 \
           --set gms_ccws=1 --set gms_swl=2 --quiet --stats-json "$T/sc.json"
if grep -q '"gms_completed": 1' "$T/sc.json" && grep -q '"gms_workload_verified": 1' "$T/sc.json"; then
    ok swl_with_ccws_verified; else bad swl_with_ccws_verified; fi
# thread oversubscription with SWL: a swapped warp gives its SWL place up and a woken one takes
# one (the limit was computed before the swap; with K = 1 the one warp allowed was swapped out
# and the block's last warp waited for ever)
expect_ok  to_with_swl1_completes $BIN run --config configs/gtx1080ti.config --workload sssp-twc --set scale=0.01 \
           --set uvm=1 --set gpgpu_n_clusters=8 --set gms_uvm_to=1 --set gms_swl=1 --quiet --stats-json "$T/tos.json"
if grep -q '"gms_completed": 1' "$T/tos.json"; then ok to_with_swl1_verified; else bad to_with_swl1_verified; fi
# values a combination test found accepted and misused (2026-11-29): each is now one error, or
# (a 2 MB page with the default prefetch block) a documented default
G10="--config configs/gtx1080ti.config --quiet"
expect_fail prefetch_id_minus_one  'unknown prefetcher -1'  $BIN config $G10 --set hardware_prefetch=-1 --dump
expect_fail cke_uvm_refused        'uvm=1 is not supported in multiprogrammed runs' \
           $BIN run --config configs/gtx480.config --workload stream --workload gather --set scale=0.05 --set uvm=1 --quiet
expect_fail mdb_monitor_range      'gms_mdb_monitor: SM 99, but the GPU has 15 SMs' \
           $BIN run --config configs/gtx480.config --workload stream --set n=4096 --set gms_l1d_bypass=mdb-global --set gms_mdb_monitor=99 --quiet
expect_fail cke_window_under_launch 'is not longer than -gpgpu_kernel_launch_latency' \
           $BIN run $G10 --workload stream --workload gather --set scale=0.1 --set gms_cke_window=20000
expect_ok  page_2mb_default_block  $BIN run $G10 --workload stream --set n=65536 --set uvm=1 --set page_size=2MB
if ! grep -q 'uvm_prefetch_size' "$T/err"; then ok page_2mb_no_warning; else bad page_2mb_no_warning; fi
expect_fail page_2mb_given_block   'uvm_prefetch_size: 65536 bytes is not a multiple of the page size' \
           $BIN run $G10 --workload stream --set n=65536 --set uvm=1 --set page_size=2MB --set uvm_prefetch_size=64KB
expect_fail fault_handling_too_long 'uvm_fault_handling_us: 1e+10 us is more than 1e6' \
           $BIN run $G10 --workload stream --set n=65536 --set uvm=1 --set uvm_runtime=batch --set uvm_fault_handling_us=1e10
# a one-block hand-written trace's header: one_block_head BLOCK_THREADS [BINARY_VERSION]; then
# the block's warps follow (tb_warp N INSTS starts warp N)
one_block_head() {
    printf -- '-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (%s,1,1)\n-binary version = %s\n-accelsim tracer version = 4\n\n' "$1" "${2:-70}"
    printf '#traces format = x\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\n'
}
tb_warp() { printf 'warp = %s\ninsts = %s\n' "$1" "$2"; }
# the cycles of a trace on a config: sim_cycles LIST CONFIG
sim_cycles() { $BIN run --trace "$1" --config "$2" 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1; }
# GPGPU-Sim 4.x's coalescing rule (memory_coalescing_arch): a 4-byte unit-stride warp load is one
# 128 B segment on arch 20 through the L1 (LDG.E), four 32 B sectors around it (LDG.E.STRONG.GPU,
# CACHE_GLOBAL), and four sectors on arch 61 even through a non-sectored L1 (gtx1080ti-pascal
# with -gpgpu_gmem_skip_L1D 0)
mkdir -p "$T/trs"
{ one_block_head 32
  tb_warp 0 3
  printf '0000 ffffffff 1 R1 LDG.E 1 R8 4 1 0x7f0000001000 4\n'
  printf '0010 ffffffff 1 R2 LDG.E.STRONG.GPU 1 R8 4 1 0x7f0000002000 4\n'
  printf '0020 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trs/kernel-1.traceg"
echo kernel-1.traceg > "$T/trs/kernelslist.g"
n20=$($BIN run --trace "$T/trs/kernelslist.g" --config configs/gtx480.config 2>/dev/null | sed -n 's/^gpgpu_n_mem_read_global = //p' | head -1)
n61=$($BIN run --trace "$T/trs/kernelslist.g" --config configs/gtx1080ti-pascal.config --set gpgpu_gmem_skip_L1D=0 2>/dev/null |
      sed -n 's/^L1D_total_cache_accesses = //p' | head -1)
if [ "$n20" = 5 ] && [ "$n61" = 4 ]; then ok coalesce_sectors_by_arch; else bad "coalesce_sectors_by_arch (arch 20: $n20 requests, want 1 + 4; arch 61: $n61 L1D accesses, want 4)"; fi
# local memory is placed as GPGPU-Sim's translate_local_memaddr: an LDL.64 of 32 lanes at one
# local address is 64 words, the warp's threads side by side, word 5 one GPU-full of threads
# above word 4: 8 sectors on the QV100 (two 128 B lines), two 128 B segments on the GTX480
# (arch 20 through the L1); the raw addresses made one request
mkdir -p "$T/trl"
{ one_block_head 32
  tb_warp 0 2
  printf '0000 ffffffff 2 R2 R3 LDL.64 1 R1 8 1 0x10 0\n'
  printf '0010 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trl/kernel-1.traceg"
echo kernel-1.traceg > "$T/trl/kernelslist.g"
l70=$($BIN run --trace "$T/trl/kernelslist.g" --config configs/qv100.config 2>/dev/null | sed -n 's/^gpgpu_n_mem_read_local = //p' | head -1)
l20=$($BIN run --trace "$T/trl/kernelslist.g" --config configs/gtx480.config 2>/dev/null | sed -n 's/^gpgpu_n_mem_read_local = //p' | head -1)
if [ "$l70" = 8 ] && [ "$l20" = 2 ]; then ok local_memory_translated; else bad "local_memory_translated (qv100: $l70 local reads, want 8; gtx480: $l20, want 2)"; fi
# GPGPU-Sim's Issue_Prio counts the SM's active cycles, not the GPU's: a kernel's own cycles do
# not depend on the launch latency's phase (four warps, one per scheduler, race for the
# shared-memory pipe with tails of different length; fixed-latency memory so that no other
# clock domain has a phase); with the rotation tied to the global cycle they were 180-183
mkdir -p "$T/trp"
{ printf -- '-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (128,1,1)\n-shmem = 4096\n-binary version = 70\n'
  printf -- '-accelsim tracer version = 4\n\n#traces format = x\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\n'
  for w in 0 1 2 3; do n=$((2 + w * 7)); tb_warp $w $((n + 1))
    printf '0000 ffffffff 1 R1 LDS 1 R8 4 1 0x%x 4\n' $((w * 128))
    i=1; while [ $i -lt $n ]; do printf '%04x ffffffff 1 R1 IADD3 1 R1 0\n' $((i * 16)); i=$((i + 1)); done
    printf '%04x ffffffff 0 EXIT 0 0\n\n' $((n * 16)); done
  printf '#END_TB\n'; } > "$T/trp/kernel-1.traceg"
echo kernel-1.traceg > "$T/trp/kernelslist.g"
prio_seen=""
for L in 1000 1001 1002 1003; do
  c=$($BIN run --trace "$T/trp/kernelslist.g" --config configs/qv100.config -gpgpu_perfect_mem 1 \
      -gpgpu_kernel_launch_latency $L 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
  prio_seen="$prio_seen $((c - L))"
done
if [ "$prio_seen" = " 183 183 183 183" ]; then ok issue_prio_counts_active_cycles
else bad "issue_prio_counts_active_cycles (kernel cycles at launch latency 1000-1003:$prio_seen, want 183 each)"; fi
# LRR's first scan starts at the scheduler's first slot (GPGPU-Sim's done_adding_supervised_warps
# sets m_last_supervised_issued to end()): scheduler 0 holds warps 0 and 4, warp 0 a chain of
# 100 dependent IADD3s, warp 4 one; warp 0 issues first as under GTO (it started at slot 1:
# 704 cycles against GTO's 702). Without the front end: with it warp 0 is fetched last (the
# fetch's round robin starts after m_last_warp_fetched, 0), after warp 4, and LRR and GTO differ
# by that (706 and 707)
mkdir -p "$T/trlrr"
{ printf -- '-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (256,1,1)\n-binary version = 70\n'
  printf -- '-accelsim tracer version = 4\n\n#traces format = x\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\n'
  for w in 0 1 2 3 4 5 6 7; do
    n=0; [ $w = 0 ] && n=100; [ $w = 4 ] && n=1
    tb_warp $w $((n + 1)); i=0
    while [ $i -lt $n ]; do printf '%04x ffffffff 1 R1 IADD3 1 R1 0\n' $((i * 16)); i=$((i + 1)); done
    printf '%04x ffffffff 0 EXIT 0 0\n\n' $((n * 16)); done
  printf '#END_TB\n'; } > "$T/trlrr/kernel-1.traceg"
echo kernel-1.traceg > "$T/trlrr/k.g"
lrr_c() { $BIN run --trace "$T/trlrr/k.g" --config configs/qv100.config -gpgpu_scheduler "$1" -gpgpu_kernel_launch_latency 0 -gms_inst_fetch none \
  2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1; }
c_lrr=$(lrr_c lrr); c_gto=$(lrr_c gto)
if [ -n "$c_lrr" ] && [ "$c_lrr" = "$c_gto" ]; then ok lrr_first_scan_starts_at_slot_0
else bad "lrr_first_scan_starts_at_slot_0 (LRR $c_lrr cycles, GTO $c_gto: want equal)"; fi
# MEMBAR (GPGPU-Sim's warp_waiting_at_mem_barrier): the warp issues nothing until its pending
# writes are done, then -gpgpu_flush_l1_cache (the QV100's 1) invalidates the SM's L1D. LDG A;
# MEMBAR; LDG A; IADD3 of both: the second load misses again (8 misses, no pending hit) and comes
# after the first (with a NOP: 4 misses and 4 pending hits, 364 cycles); without the flush it
# hits (4 misses, 0 pending hits) but still waits. It was an ALU instruction (no wait, no flush).
mkdir -p "$T/trmb"
for v in MEMBAR.SC.GPU NOP; do
  { one_block_head 32; tb_warp 0 5
    printf '0000 ffffffff 1 R1 LDG.E 1 R8 4 1 0x7f0000001000 4\n0010 ffffffff 0 %s 0 0\n' $v
    printf '0020 ffffffff 1 R2 LDG.E 1 R8 4 1 0x7f0000001000 4\n0030 ffffffff 1 R3 IADD3 2 R2 R1 0\n'
    printf '0040 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trmb/kernel-${v%%.*}.traceg"
  echo "kernel-${v%%.*}.traceg" > "$T/trmb/${v%%.*}.g"
done
mb_get() { $BIN run --trace "$T/trmb/$1.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 $2 2>/dev/null |
  sed -n "s/^$3 = //p" | head -1; }
mb_c=$(mb_get MEMBAR "" gpu_tot_sim_cycle); mb_m=$(mb_get MEMBAR "" L1D_total_cache_misses)
nop_c=$(mb_get NOP "" gpu_tot_sim_cycle); nop_m=$(mb_get NOP "" L1D_total_cache_misses)
nf_m=$(mb_get MEMBAR "-gpgpu_flush_l1_cache 0" L1D_total_cache_misses); nf_p=$(mb_get MEMBAR "-gpgpu_flush_l1_cache 0" L1D_total_cache_pending_hits)
if [ "$mb_m" = 8 ] && [ "$nop_m" = 4 ] && [ "$nf_m" = 4 ] && [ "$nf_p" = 0 ] && [ "${mb_c:-0}" -gt $((${nop_c:-0} + 150)) ]; then
  ok membar_waits_and_invalidates_l1
else bad "membar_waits_and_invalidates_l1 (MEMBAR $mb_c cycles $mb_m misses; NOP $nop_c / $nop_m; no flush $nf_m misses $nf_p pending hits)"; fi
# kernel traces for the launch tests: gen_k FILE GRID BLOCK_X SHMEM STREAM alu N (every warp N
# IADD3) | ld N PASSES (warp 0 loads N lines PASSES times, the other warps exit)
gen_k() { awk -v gx="$2" -v bx="$3" -v shm="$4" -v st="$5" -v mode="$6" -v n="$7" -v passes="${8:-1}" 'BEGIN {
  printf "-kernel name = k\n-grid dim = (%d,1,1)\n-block dim = (%d,1,1)\n-shmem = %d\n-nregs = 16\n", gx, bx, shm
  printf "-binary version = 70\n-cuda stream id = %d\n-accelsim tracer version = 4\n\n#traces format = x\n\n", st
  nw = int((bx + 31) / 32)
  for (b = 0; b < gx; b++) {
    printf "#BEGIN_TB\n\nthread block = %d,0,0\n\n", b
    for (w = 0; w < nw; w++) {
      if (mode == "alu") {
        printf "warp = %d\ninsts = %d\n", w, n + 1
        for (i = 0; i < n; i++) printf "%04x ffffffff 1 R%d IADD3 2 R%d R7 0\n", i * 16, 1 + i % 4, 1 + (i + 3) % 4
        printf "%04x ffffffff 0 EXIT 0 0\n\n", n * 16
      } else if (w == 0) {
        printf "warp = 0\ninsts = %d\n", n * passes + 1; pc = 0
        for (p = 0; p < passes; p++) for (i = 0; i < n; i++) {
          printf "%04x ffffffff 1 R%d LDG.E 1 R8 4 1 0x7f00%08x 4\n", pc, 10 + i % 8, b * 16777216 + i * 128; pc += 16 }
        printf "%04x ffffffff 0 EXIT 0 0\n\n", pc
      } else printf "warp = %d\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n\n", w
    }
    printf "#END_TB\n\n"
  } }' > "$1"; }
mkdir -p "$T/trk"
# Accel-Sim's trace driver runs one kernel at a time unless -gpgpu_concurrent_kernel_sm 1
# (main.cc: a window of one kernel), whatever their streams: two one-block kernels on streams
# 0 and 1 take as long as on one stream; with the option they overlap (both were overlapped)
gen_k "$T/trk/kernel-a.traceg" 1 32 0 0 alu 200; gen_k "$T/trk/kernel-b.traceg" 1 32 0 1 alu 200; gen_k "$T/trk/kernel-c.traceg" 1 32 0 0 alu 200
printf 'kernel-a.traceg\nkernel-b.traceg\n' > "$T/trk/two.g"; printf 'kernel-a.traceg\nkernel-c.traceg\n' > "$T/trk/same.g"
st_two=$(sim_cycles "$T/trk/two.g" configs/qv100.config); st_same=$(sim_cycles "$T/trk/same.g" configs/qv100.config)
st_cke=$($BIN run --trace "$T/trk/two.g" --config configs/qv100.config -gpgpu_concurrent_kernel_sm 1 2>/dev/null |
         sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
if [ -n "$st_two" ] && [ "$st_two" = "$st_same" ] && [ "${st_cke:-0}" -gt 0 ] && [ "$st_cke" -lt "$st_two" ]; then
  ok trace_streams_one_kernel_at_a_time
else bad "trace_streams_one_kernel_at_a_time (two streams $st_two cycles, one stream $st_same, with concurrent_kernel_sm $st_cke)"; fi
# GPGPU-Sim's select_kernel with -gpgpu_concurrent_kernel_sm 1: every core is offered the kernel
# handed out last while it has blocks left, and a core that cannot fit its block takes none. A
# (240 blocks of 768 threads: two fit an SM of the QV100's 80) and B (80 blocks of one warp, on
# stream 1): B's blocks wait until A's third wave is handed out, when A's first blocks end (about
# 4,100 cycles), then run beside it; B ends about 1,000 cycles later, the whole run as long as A
# (B's blocks filled the room beside A's at once and B ended at 1,229 cycles)
gen_k "$T/trk/kernel-sa.traceg" 240 768 0 0 alu 200; gen_k "$T/trk/kernel-sb.traceg" 80 32 0 1 alu 50
printf 'kernel-sa.traceg\nkernel-sb.traceg\n' > "$T/trk/sab.g"
sk_out=$($BIN run --trace "$T/trk/sab.g" --config configs/qv100.config -gpgpu_concurrent_kernel_sm 1 -gpgpu_kernel_launch_latency 0 2>/dev/null)
sk_b=$(echo "$sk_out" | sed -n 's/^gpu_sim_cycle = //p' | head -1); sk_t=$(echo "$sk_out" | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
if [ -n "$sk_b" ] && [ -n "$sk_t" ] && [ "$sk_b" -gt $((sk_t / 2)) ] && [ "$sk_b" -lt "$sk_t" ]; then
  ok select_kernel_keeps_the_last_issued_kernel
else bad "select_kernel_keeps_the_last_issued_kernel (B ends at $sk_b cycles of $sk_t: want after A's first wave)"; fi
# -gpgpu_flush_l2_cache (GPGPU-Sim's flushL2, tag_array::flush: modified lines invalidated, their
# data dropped): a kernel stores 64 lines, the next loads them: they hit in the L2 (no DRAM read)
# without the flush, and with it all 64 lines are dropped and read from DRAM (256 sectors)
mkdir -p "$T/trf2"
for m in st ld; do
  { one_block_head 32; tb_warp 0 65
    awk -v m=$m 'BEGIN { for (i = 0; i < 64; i++) { if (m == "st") printf "%04x ffffffff 0 STG.E 2 R8 R9 4 1 0x7f00%08x 4\n", i * 16, i * 128
      else printf "%04x ffffffff 1 R%d LDG.E 1 R8 4 1 0x7f00%08x 4\n", i * 16, 10 + i % 8, i * 128 } }'
    printf '0400 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trf2/kernel-$m.traceg"
done
printf 'kernel-st.traceg\nkernel-ld.traceg\n' > "$T/trf2/k.g"
f2_get() { $BIN run --trace "$T/trf2/k.g" --config configs/qv100.config -gpgpu_flush_l2_cache "$1" 2>/dev/null | sed -n "s/^$2 = //p" | tail -1; }
f2_r0=$(f2_get 0 gpgpu_n_dram_reads); f2_r1=$(f2_get 1 gpgpu_n_dram_reads); f2_n=$(f2_get 1 gms_l2_flushed_lines)
if [ "$f2_r0" = 0 ] && [ "$f2_r1" = 256 ] && [ "$f2_n" = 64 ]; then ok flush_l2_drops_modified_lines
else bad "flush_l2_drops_modified_lines (DRAM reads $f2_r0 without the flush, $f2_r1 with it; $f2_n lines dropped)"; fi
# -gpgpu_max_cta (GPGPU-Sim's hit_max_cta_count: no more blocks once N are out, the run stops when
# they are done) and -gpgpu_max_completed_cta (stop at N blocks done): stream's 1,024 blocks,
# N = 100: exactly 100 done under the first; 100 to 109 under the second (blocks ending in the
# same instant); both end early (gms_completed 0). They were ignored
mc_get() { $BIN run --workload stream --set n=262144 --config configs/qv100.config $1 2>/dev/null | sed -n "s/^$2 = //p" | tail -1; }
mc_a=$(mc_get "-gpgpu_max_cta 100" gms_thread_blocks_done); mc_ac=$(mc_get "-gpgpu_max_cta 100" gms_completed)
mc_b=$(mc_get "-gpgpu_max_completed_cta 100" gms_thread_blocks_done); mc_bc=$(mc_get "-gpgpu_max_completed_cta 100" gms_completed)
if [ "$mc_a" = 100 ] && [ "$mc_ac" = 0 ] && [ -n "$mc_b" ] && [ "$mc_b" -ge 100 ] && [ "$mc_b" -le 109 ] && [ "$mc_bc" = 0 ]; then
  ok max_cta_limits_blocks
else bad "max_cta_limits_blocks (max_cta: $mc_a blocks done, completed $mc_ac; max_completed_cta: $mc_b, completed $mc_bc)"; fi
# -gpgpu_TB_launch_latency (GPGPU-Sim's m_kernel_TB_latency = launch latency + blocks x TB latency,
# counted down before select_kernel hands out any block): a 6-block kernel starts 6 x 25 = 150
# cycles later, whatever the launch latency beside it (it was ignored)
gen_k "$T/trk/kernel-t.traceg" 6 64 0 0 alu 40; echo kernel-t.traceg > "$T/trk/t.g"
tb_c() { $BIN run --trace "$T/trk/t.g" --config configs/qv100.config -gpgpu_kernel_launch_latency "$1" -gpgpu_TB_launch_latency "$2" \
  2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1; }
tb0=$(tb_c 0 0); tb25=$(tb_c 0 25); tbk=$(tb_c 100 0); tbk25=$(tb_c 100 25)
if [ -n "$tb0" ] && [ -n "$tb25" ] && [ $((tb25 - tb0)) = 150 ] && [ -n "$tbk" ] && [ -n "$tbk25" ] && [ $((tbk25 - tbk)) = 150 ]; then
  ok tb_launch_latency_per_block_of_the_grid
else bad "tb_launch_latency_per_block_of_the_grid (cycles $tb0 / $tb25 at launch latency 0, $tbk / $tbk25 at 100; want +150)"; fi
# the carve-out takes max_cta's grid-capped count of blocks: one block of 16 KB shared memory
# leaves a 112 KB L1 (not the 32 KB of six blocks' 96 KB), so 512 lines read twice miss once
gen_k "$T/trk/kernel-s.traceg" 1 256 16384 0 ld 512 2; echo kernel-s.traceg > "$T/trk/s.g"
cm=$($BIN run --trace "$T/trk/s.g" --config configs/qv100.config 2>/dev/null | sed -n 's/^L1D_total_cache_misses = //p' | head -1)
if [ "$cm" = 2048 ]; then ok carveout_small_grid_takes_capped_blocks
else bad "carveout_small_grid_takes_capped_blocks ($cm L1D misses, want 2048: 512 lines x 4 sectors once)"; fi
# -gpgpu_flush_l1_cache invalidates only SMs left without a block (GPGPU-Sim's gpgpu_sim::cycle):
# the end of a short kernel on another SM leaves the loading kernel's L1 alone (it was flushed:
# 2,144 misses); and one block per cluster per cycle, so the two kernels start on two SMs
gen_k "$T/trk/kernel-f.traceg" 1 256 0 1 ld 512 2; printf 'kernel-a.traceg\nkernel-f.traceg\n' > "$T/trk/f.g"
fm=$($BIN run --trace "$T/trk/f.g" --config configs/qv100.config -gpgpu_concurrent_kernel_sm 1 2>/dev/null |
     sed -n 's/^L1D_total_cache_misses = //p' | tail -1)
if [ "$fm" = 2048 ]; then ok flush_l1_spares_busy_sms
else bad "flush_l1_spares_busy_sms ($fm L1D misses, want 2048)"; fi
# one block per cluster per cycle (simt_core_cluster::issue_block2core): 2,000 one-warp blocks
# on one cluster of four SMs need 2,000 cycles at least; on four clusters of one, far fewer
gen_k "$T/trk/kernel-m.traceg" 2000 32 0 0 alu 2; echo kernel-m.traceg > "$T/trk/m.g"
c14=$($BIN run --trace "$T/trk/m.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 -gpgpu_n_clusters 1 \
      -gpgpu_n_cores_per_cluster 4 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
c41=$($BIN run --trace "$T/trk/m.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 -gpgpu_n_clusters 4 \
      -gpgpu_n_cores_per_cluster 1 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
if [ "${c14:-0}" -ge 2000 ] && [ "${c41:-0}" -gt 0 ] && [ "$c41" -lt 1000 ]; then ok one_block_per_cluster_per_cycle
else bad "one_block_per_cluster_per_cycle (1 cluster x 4: $c14 cycles, want >= 2000; 4 x 1: $c41, want < 1000)"; fi
# the collector's port order (shader_core_ctx::create_exec_pipeline): SP, SFU, MEM, DP, INT, then
# the specialised units, a trace's HMMA being unit 3. Four MUFUs hold the SFU pipe and both of
# the scheduler's collector units; when a unit frees, an HMMA and an IADD3 wait in their ID_OC
# slots and the IADD3 takes it, so the chain of five IADD3s behind it ends when it would without
# the HMMA (the HMMA first delays the chain by a cycle)
tensor_k() { { printf -- '-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 32\n'
  printf -- '-binary version = 70\n-cuda stream id = 0\n-accelsim tracer version = 4\n\n#traces format = x\n\n'
  printf '#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = %d\n' $((11 + $1))
  pc=0; for i in 1 2 3 4; do printf '%04x ffffffff 1 R%d MUFU.EX2 1 R%d 0\n' $pc $((2 * i - 1)) $((2 * i)); pc=$((pc + 16)); done
  [ "$1" = 1 ] && { printf '%04x ffffffff 1 R10 HMMA.884.F32.F32 2 R12 R14 0\n' $pc; pc=$((pc + 16)); }
  printf '%04x ffffffff 1 R20 IADD3 2 R21 R22 0\n' $pc; pc=$((pc + 16))
  for i in 1 2 3 4 5; do printf '%04x ffffffff 1 R20 IADD3 2 R20 R22 0\n' $pc; pc=$((pc + 16)); done
  printf '%04x ffffffff 0 EXIT 0 0\n\n#END_TB\n' $pc; } > "$T/trk/kernel-t$1.traceg"; echo "kernel-t$1.traceg" > "$T/trk/t$1.g"; }
tensor_k 1; tensor_k 0
th=$($BIN run --trace "$T/trk/t1.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
tn=$($BIN run --trace "$T/trk/t0.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
if [ "${tn:-0}" -gt 0 ] && [ "$th" = "$tn" ]; then ok collector_int_port_before_tensor_unit
else bad "collector_int_port_before_tensor_unit (with the HMMA $th cycles, without $tn: want equal)"; fi
# the SMs of a cluster share its interconnect node (GPGPU-Sim's icnt_has_buffer / icnt_pop by
# cluster): two blocks of 32 warps, each warp 8 loads of 32 lines (one 32 B sector each): 8,192
# one-flit read requests an SM; through one node's input, one packet a cycle (QV100: the
# interconnect runs at the core clock), two SMs of one cluster need 16,384 cycles at least, two
# clusters of one about half
awk 'BEGIN {
  printf "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (1024,1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 70\n"
  printf "-cuda stream id = 0\n-accelsim tracer version = 4\n\n#traces format = x\n\n"
  for (b = 0; b < 2; b++) { printf "#BEGIN_TB\n\nthread block = %d,0,0\n\n", b
    for (w = 0; w < 32; w++) { printf "warp = %d\ninsts = 9\n", w
      for (i = 0; i < 8; i++) printf "%04x ffffffff 1 R%d LDG.E 1 R8 4 1 0x7f%010x 128\n", i * 16, 10 + i, b * 16777216 + (w * 8 + i) * 4096
      printf "0080 ffffffff 0 EXIT 0 0\n\n" }
    printf "#END_TB\n\n" } }' > "$T/trk/kernel-u.traceg"; echo kernel-u.traceg > "$T/trk/u.g"
cl_cyc() { $BIN run --trace "$T/trk/u.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 -gpgpu_n_clusters "$1" \
  -gpgpu_n_cores_per_cluster "$2" 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1; }
u12=$(cl_cyc 1 2); u21=$(cl_cyc 2 1)
if [ "${u12:-0}" -ge 16384 ] && [ "${u21:-0}" -gt 8192 ] && [ "$u21" -lt 12000 ]; then ok cluster_sms_share_an_interconnect_node
else bad "cluster_sms_share_an_interconnect_node (1 cluster x 2: $u12 cycles, want >= 16384; 2 x 1: $u21, want 8193-11999)"; fi
if $BIN config --config configs/gtx480.config -gpgpu_n_clusters 5 -gpgpu_n_cores_per_cluster 3 --dump 2>/dev/null |
   grep -q '^Clusters: one interconnect node each .* 8 + 2 replies in the response FIFOs; a cluster.s SMs tick in an order rotated'; then
  ok config_dump_says_clusters; else bad config_dump_says_clusters; fi
# a kernelslist line with an absolute path runs (ours: Accel-Sim launches only lines that start
# with "kernel"); one with a relative name that does not is skipped with a warning
echo "$T/trk/kernel-a.traceg" > "$T/trk/abs.g"
ab=$(sim_cycles "$T/trk/abs.g" configs/qv100.config)
if [ "${ab:-0}" -gt 0 ]; then ok kernelslist_absolute_path_runs; else bad "kernelslist_absolute_path_runs (no cycles)"; fi
# a streaming L1 (`s`) under the adaptive carve-out allocates on miss for a kernel with no shared
# memory (GPGPU-Sim's max_cta): two warps load one line, the second warp's four sectors are
# pending hits; with 1 KB of shared memory it allocates on fill and all eight are misses
mkdir -p "$T/trst"
stream_k() { { printf -- '-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (64,1,1)\n-shmem = %s\n-binary version = 70\n' "$1"
  printf -- '-accelsim tracer version = 4\n\n#traces format = x\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\n'
  for w in 0 1; do tb_warp $w 2; printf '0000 ffffffff 1 R1 LDG.E 1 R8 4 1 0x7f0000001000 4\n0010 ffffffff 0 EXIT 0 0\n\n'; done
  printf '#END_TB\n'; } > "$T/trst/kernel-$1.traceg"; echo "kernel-$1.traceg" > "$T/trst/k$1.g"; }
stream_k 0; stream_k 1024
strm_miss() { $BIN run --trace "$T/trst/k$1.g" --config configs/qv100.config -gpgpu_cache:dl1 S:4:128:64,L:L:s:N:L,A:256:8,16:0,32 \
  2>/dev/null | sed -n 's/^L1D_total_cache_misses = //p' | head -1; }
m0=$(strm_miss 0); m1=$(strm_miss 1024)
if [ "$m0" = 4 ] && [ "$m1" = 8 ]; then ok streaming_l1_on_miss_without_shared_memory
else bad "streaming_l1_on_miss_without_shared_memory (no shared memory: $m0 L1D misses, want 4; 1 KB: $m1, want 8)"; fi
# GPGPU-Sim's L2 adds its memcpy cycle offset to every access and fill after a timed copy, not
# only to the copy's fills: 24 one-warp blocks read 3 MiB twice around the L1 after a 64 MiB
# copy (every L2 set full of copied lines); the second pass hits, as with no copy (24,576
# misses), where a kernel keyed older than the copy evicted its own lines (49,152)
mkdir -p "$T/trm"
awk 'BEGIN { printf "-kernel name = k\n-grid dim = (24,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n-accelsim tracer version = 4\n\n#traces format = x\n\n";
  for (b = 0; b < 24; b++) { printf "#BEGIN_TB\n\nthread block = %d,0,0\n\nwarp = 0\ninsts = 65\n", b;
    for (k = 0; k < 64; k++) printf "%04x ffffffff 1 R%d LDG.E.STRONG.GPU 1 R8 4 1 0x7f10%08x 128\n", k * 16, 10 + k % 8, b * 131072 + (k % 32) * 4096;
    printf "0400 ffffffff 0 EXIT 0 0\n\n#END_TB\n\n" } }' > "$T/trm/kernel-1.traceg"
echo kernel-1.traceg > "$T/trm/nocopy.g"
printf 'MemcpyHtoD,0x7f2000000000,67108864\nkernel-1.traceg\n' > "$T/trm/copy.g"
m0=$($BIN run --trace "$T/trm/nocopy.g" --config configs/qv100.config 2>/dev/null | sed -n 's/^L2_total_cache_misses = //p' | tail -1)
m1=$($BIN run --trace "$T/trm/copy.g" --config configs/qv100.config 2>/dev/null | sed -n 's/^L2_total_cache_misses = //p' | tail -1)
if [ "$m0" = 24576 ] && [ "$m1" = 24576 ]; then ok l2_memcpy_offset_keys_later_accesses; else bad "l2_memcpy_offset_keys_later_accesses (L2 misses without copy $m0, after it $m1, want 24576 both)"; fi
# paired FP16 (HFMA2, HADD2, HSETP2, ...) has half the SP unit's initiation interval, as Accel-Sim's
# trace front end gives it (not HMUL2): 200 independent HFMA2 of one warp on the QV100 (SP
# interval 2) issue one a cycle, about 200 cycles sooner than 200 FFMA; 200 HMUL2 as FFMA
mkdir -p "$T/trh"
for op in HFMA2 FFMA HMUL2; do
  { one_block_head 32
    tb_warp 0 201
    awk -v op=$op 'BEGIN { for (i = 0; i < 200; i++) printf "%04x ffffffff 1 R%d %s 2 R1 R2 0\n", i * 16, 10 + i % 40, op }'
    printf '0c80 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trh/kernel-$op.traceg"
  echo kernel-$op.traceg > "$T/trh/$op.g"
done
ch=$(sim_cycles "$T/trh/HFMA2.g" configs/qv100.config)
cf=$(sim_cycles "$T/trh/FFMA.g" configs/qv100.config)
cm=$(sim_cycles "$T/trh/HMUL2.g" configs/qv100.config)
if [ -n "$ch" ] && [ -n "$cf" ] && [ $((cf - ch)) -ge 190 ] && [ $((cf - ch)) -le 230 ] && [ "$cm" = "$cf" ]; then
    ok fp16_half_initiation_interval; else bad "fp16_half_initiation_interval (HFMA2 $ch, FFMA $cf, HMUL2 $cm cycles)"; fi
# a trace's warps have no wrong path (Accel-Sim's fetch follows the trace): on a preset with
# GPGPU-Sim's 3.x front end (gtx1080ti-pascal), 320 IMADs whose pcs jump by 48 bytes run as
# the same IMADs with sequential pcs (each jump cost a flush and re-fetch)
mkdir -p "$T/trj"
for step in 16 48; do
  { one_block_head 32 61
    tb_warp 0 321
    awk -v st=$step 'BEGIN { for (i = 0; i < 320; i++) printf "%04x ffffffff 1 R%d IMAD 2 R1 R2 0\n", i * st, 10 + i % 40 }'
    printf 'f000 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trj/kernel-s$step.traceg"
  echo kernel-s$step.traceg > "$T/trj/s$step.g"
done
j16=$(sim_cycles "$T/trj/s16.g" configs/gtx1080ti-pascal.config)
j48=$(sim_cycles "$T/trj/s48.g" configs/gtx1080ti-pascal.config)
if [ -n "$j16" ] && [ "$j16" = "$j48" ]; then ok trace_fetch_no_wrong_path; else bad "trace_fetch_no_wrong_path (sequential pcs $j16 cycles, pcs 48 apart $j48)"; fi
# a warp that has issued its EXIT no longer counts at a barrier (GPGPU-Sim's warp_exit): warp 0
# loads and exits, warp 1 waits at a BAR; warp 1 goes on at warp 0's EXIT, not when its load is
# back (+347 cycles before), so the run takes about as long as with a MOV for the load
mkdir -p "$T/trx"
for v in LDG MOV; do
  { one_block_head 64
    tb_warp 0 2
    if [ $v = LDG ]; then printf '0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0000000000 4 0\n'; else printf '0000 ffffffff 1 R2 MOV 1 R4 0\n'; fi
    printf '0010 ffffffff 0 EXIT 0 0\n\nwarp = 1\ninsts = 4\n0000 ffffffff 0 BAR.SYNC 0 0\n'
    printf '0010 ffffffff 1 R6 LDG.E 1 R8 4 1 0x7f0000100000 4 0\n0020 ffffffff 1 R7 IADD3 1 R6 0\n0030 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trx/kernel-$v.traceg"
  echo kernel-$v.traceg > "$T/trx/$v.g"
done
xl=$(sim_cycles "$T/trx/LDG.g" configs/qv100.config)
xm=$(sim_cycles "$T/trx/MOV.g" configs/qv100.config)
if [ -n "$xl" ] && [ -n "$xm" ] && [ $((xl - xm)) -ge 0 ] && [ $((xl - xm)) -lt 50 ]; then ok exited_warp_leaves_the_barrier
else bad "exited_warp_leaves_the_barrier (with the load $xl cycles, with a MOV $xm)"; fi
# BAR and EXIT go through the INT pipe on the QV100 (GPGPU-Sim 4.x's scheduler_unit::cycle: every
# op that is not memory, SP, SFU, DP, tensor or specialised): one warp's 100 x (BAR; IADD3) take
# an INT slot, collector unit and unit each, about a cycle a pair more than 100 IADD3 alone
# (they took none: the pairs ran 9 cycles faster than the IADD3s alone)
# one warp of one 32-thread block: one_warp_kernel DIR NAME BINARY_VERSION INSTS AWK_PROGRAM (the
# program prints the instructions; EXIT is added) -> DIR/kernel-NAME.traceg and DIR/NAME.g
one_warp_kernel() {
  mkdir -p "$1"
  { one_block_head 32 "$3"; tb_warp 0 "$4"; awk "$5"; printf 'f000 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$1/kernel-$2.traceg"
  echo "kernel-$2.traceg" > "$1/$2.g"
}
IADD3_100='BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R%d IADD3 2 R1 R2 0\n", i * 16, 10 + i % 40 }'
one_warp_kernel "$T/trb2" bar 70 201 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 0 BAR.SYNC 0 0\n%04x ffffffff 1 R%d IADD3 2 R1 R2 0\n", i * 32, i * 32 + 16, 10 + i % 40 }'
one_warp_kernel "$T/trb2" nobar 70 101 "$IADD3_100"
bb=$(sim_cycles "$T/trb2/bar.g" configs/qv100.config)
bn=$(sim_cycles "$T/trb2/nobar.g" configs/qv100.config)
if [ -n "$bb" ] && [ -n "$bn" ] && [ $((bb - bn)) -ge 50 ] && [ $((bb - bn)) -le 150 ]; then ok bar_exit_take_the_int_pipe
else bad "bar_exit_take_the_int_pipe (100 BAR+IADD3 $bb cycles, 100 IADD3 $bn)"; fi
# MEMBAR goes to the memory pipe (every GPGPU-Sim's scheduler_unit::cycle: LOAD_OP, STORE_OP,
# MEMORY_BARRIER_OP to m_mem_out) and passes the LDST unit in a cycle: 100 x (IMAD with no
# destination; MEMBAR) on the QV100 take about 200 cycles (IMAD's interval 2 on the INT pipe, the
# MEMBARs beside it on the LDST unit) against about 400 with an IADD3 in its place (both on the
# INT pipe). MEMBAR took the INT pipe (405 cycles)
one_warp_kernel "$T/trmp" mb 70 201 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 0 IMAD 2 R1 R2 0\n%04x ffffffff 0 MEMBAR.SC.GPU 0 0\n", i * 32, i * 32 + 16 }'
one_warp_kernel "$T/trmp" ia 70 201 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 0 IMAD 2 R1 R2 0\n%04x ffffffff 0 IADD3 0 0\n", i * 32, i * 32 + 16 }'
mp_c() { $BIN run --trace "$T/trmp/$1.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 2>/dev/null |
  sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1; }
mp_mb=$(mp_c mb); mp_ia=$(mp_c ia)
if [ -n "$mp_mb" ] && [ -n "$mp_ia" ] && [ "$mp_mb" -ge 195 ] && [ "$mp_mb" -le 240 ] && [ "$mp_ia" -ge 380 ]; then
  ok membar_takes_the_memory_pipe
else bad "membar_takes_the_memory_pipe (IMAD+MEMBAR $mp_mb cycles, IMAD+IADD3 $mp_ia)"; fi
# dual issue on the sub-core pipeline (GPGPU-Sim 4.x's scheduler_unit::cycle with
# -gpgpu_max_insn_issue_per_warp 2, Accel-Sim's SM6_TITANX): 100 x (IADD3; FFMA) with INT and SP
# initiation intervals of 1 take about 100 cycles (both issued in the same cycle) against about
# 200 one a cycle; 200 IADD3s cannot pair (one ID_OC_INT slot, and with
# -gpgpu_dual_issue_diff_exec_units the same kind of unit): about 200 either way
one_warp_kernel "$T/trdi" mix 70 201 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R%d IADD3 2 R1 R2 0\n%04x ffffffff 1 R%d FFMA 2 R3 R4 0\n", i * 32, 10 + i % 40, i * 32 + 16, 50 + i % 40 }'
one_warp_kernel "$T/trdi" same 70 201 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R%d IADD3 2 R1 R2 0\n%04x ffffffff 1 R%d IADD3 2 R3 R4 0\n", i * 32, 10 + i % 40, i * 32 + 16, 50 + i % 40 }'
di_c() { $BIN run --trace "$T/trdi/$1.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 -gpgpu_max_insn_issue_per_warp "$2" \
  -trace_opcode_latency_initiation_int 4,1 -trace_opcode_latency_initiation_sp 4,1 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1; }
di_m1=$(di_c mix 1); di_m2=$(di_c mix 2); di_s2=$(di_c same 2)
if [ -n "$di_m1" ] && [ -n "$di_m2" ] && [ -n "$di_s2" ] && [ "$di_m1" -ge 195 ] && [ "$di_m2" -le 120 ] && [ "$di_s2" -ge 195 ]; then
  ok subcore_dual_issue_to_different_units
else bad "subcore_dual_issue_to_different_units (IADD3+FFMA $di_m1 / $di_m2 cycles at 1 / 2 a warp; IADD3+IADD3 $di_s2 at 2)"; fi
# the sub-core front end (GPGPU-Sim 4.x's shader_core_ctx::cycle: after issue,
# -gpgpu_inst_fetch_throughput x (decode; fetch); fetch takes a warp whose 2-entry instruction
# buffer is empty, decode fills it, the scheduler issues from it the next cycle): one warp of 200
# independent MOVs (no sources, INT latency 4, interval 1) and the EXIT (latency 1), first active
# cycle t; the kernel ends with the last MOV's write-back. With 4 pairs a cycle (the QV100's) the
# warp is fetched and decoded at t and refilled in the cycle it empties: instruction i issues at
# t + 1 + i, one cycle behind no front end (t + i). With 1 pair a cycle a fetch at c is decoded at
# c + 1: the two entries issue at c + 2 and c + 3, the next fetch is at c + 3: instructions 2k and
# 2k + 1 at t + 2 + 3k and t + 3 + 3k, the last MOV (199) at t + 300, 100 cycles behind 4 pairs
# (until 2026-12-05 the sub-core pipeline took the buffer as always full: the three were equal)
one_warp_kernel "$T/trfe" mov 70 201 'BEGIN { for (i = 0; i < 200; i++) printf "%04x ffffffff 1 R%d MOV 0 0\n", i * 16, 10 + i % 40 }'
fe_c() { $BIN run --trace "$T/trfe/mov.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 \
  -trace_opcode_latency_initiation_int 4,1 "$@" 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1; }
fe_none=$(fe_c -gms_inst_fetch none); fe_4=$(fe_c); fe_1=$(fe_c -gpgpu_inst_fetch_throughput 1)
if [ -n "$fe_none" ] && [ -n "$fe_4" ] && [ -n "$fe_1" ] && [ $((fe_4 - fe_none)) = 1 ] && [ $((fe_1 - fe_4)) = 100 ]; then
  ok subcore_front_end_fetch_throughput
else bad "subcore_front_end_fetch_throughput (200 MOVs: $fe_none cycles without front end, $fe_4 with 4 decode/fetch pairs a cycle, $fe_1 with 1; want +1 and +100)"; fi
# an instruction with no source register (MOV of an immediate, S2R, BAR, BRA, EXIT) is ready in
# its collector unit at once: with -gpgpu_reg_file_port_throughput 2 (the QV100) it dispatches in
# the second opndcoll_rfu_t::step of the cycle it was given the unit, one cycle before an
# instruction with a register to read. 100 MOV R10 of one warp, each waiting for the last one's
# write (the scoreboard's WAW), end 100 cycles before 100 IADD3 R10 = f(R11) (R11 never written):
# one cycle a link (they took as long before). A listed RZ (R255) source is no dependency but a
# register the collector reads (Accel-Sim keeps every source the trace lists): IADD3 R10 = f(RZ)
# takes as long as the IADD3s
one_warp_kernel "$T/trns" mov 70 101 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R10 MOV 0 0\n", i * 16 }'
one_warp_kernel "$T/trns" iadd 70 101 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R10 IADD3 1 R11 0\n", i * 16 }'
one_warp_kernel "$T/trns" rz 70 101 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R10 IADD3 1 R255 0\n", i * 16 }'
nm=$(sim_cycles "$T/trns/mov.g" configs/qv100.config)
ni=$(sim_cycles "$T/trns/iadd.g" configs/qv100.config)
nz=$(sim_cycles "$T/trns/rz.g" configs/qv100.config)
if [ -n "$nm" ] && [ -n "$ni" ] && [ $((ni - nm)) -eq 100 ] && [ "$nz" = "$ni" ]; then ok no_source_ops_dispatch_in_the_second_collector_step
else bad "no_source_ops_dispatch_in_the_second_collector_step (100 MOV R10 $nm cycles, 100 IADD3 R10 $ni, with RZ $nz)"; fi
# the sub-core pipeline without INT or DP units (Accel-Sim's SM6_TITANX: "There is no INT unit in
# Pascal"): GPGPU-Sim 4.x's scheduler_unit::cycle issues INT/ALU ops to the SP pipe and DP ops to
# the SFU's, so 100 x (IMAD; FFMA) on the QV100 (both interval 2) take about 400 cycles with
# -gpgpu_num_int_units 0 against 200 on two pipes, and 100 x (DADD; MUFU) about 400 + 800 with
# -gpgpu_num_dp_units 0 against the SFU's 800 alone (each class had a pipe of its own: 207, 853)
one_warp_kernel "$T/trsh" ii 70 201 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R%d IMAD 2 R1 R2 0\n%04x ffffffff 1 R%d FFMA 2 R3 R4 0\n", i * 32, 10 + i % 40, i * 32 + 16, 50 + i % 40 }'
one_warp_kernel "$T/trsh" dd 70 201 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R%d DADD 2 R1 R2 0\n%04x ffffffff 1 R%d MUFU.RCP 2 R3 R4 0\n", i * 32, 10 + i % 40, i * 32 + 16, 50 + i % 40 }'
sh_c() { $BIN run --trace "$T/trsh/$1.g" --config configs/qv100.config -gpgpu_kernel_launch_latency 0 $2 2>/dev/null |
  sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1; }
ii4=$(sh_c ii ""); ii0=$(sh_c ii "-gpgpu_num_int_units 0"); dd4=$(sh_c dd ""); dd0=$(sh_c dd "-gpgpu_num_dp_units 0")
if [ -n "$ii4" ] && [ -n "$ii0" ] && [ $((ii0 - ii4)) -ge 180 ] && [ $((ii0 - ii4)) -le 230 ] &&
   [ -n "$dd4" ] && [ -n "$dd0" ] && [ $((dd0 - dd4)) -ge 360 ] && [ $((dd0 - dd4)) -le 430 ]; then
  ok subcore_shares_sp_and_sfu_pipes_without_int_dp_units
else bad "subcore_shares_sp_and_sfu_pipes_without_int_dp_units (IMAD+FFMA $ii4 / $ii0 cycles without INT units; DADD+MUFU $dd4 / $dd0 without DP units)"; fi
# Kepler/Pascal BRA, CAL/CALL and RET (BRANCH_OP, CALL_OPS, RET_OPS) take the INT latency and
# pipe in Accel-Sim (trace_config::set_latency; scheduler_unit::cycle sends them as ALU_OP): on the
# QV100 200 independent BRAs of one warp run as 200 NOPs (INT 2,2), not on the branch unit (4,4:
# about 400 cycles more); Volta's BRA (SPECIALIZED_UNIT_1_OP) keeps its unit
mkdir -p "$T/trbr"
for v in 35 61 70; do
  for op in BRA NOP; do
    { one_block_head 32 $v
      tb_warp 0 201
      awk -v op=$op 'BEGIN { for (i = 0; i < 200; i++) printf "%04x ffffffff 0 %s 0 0\n", i * 16, op }'
      printf '0c80 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trbr/kernel-$op$v.traceg"
    echo kernel-$op$v.traceg > "$T/trbr/$op$v.g"
  done
done
bk=$(sim_cycles "$T/trbr/BRA35.g" configs/qv100.config); nk=$(sim_cycles "$T/trbr/NOP35.g" configs/qv100.config)
bp=$(sim_cycles "$T/trbr/BRA61.g" configs/qv100.config); np=$(sim_cycles "$T/trbr/NOP61.g" configs/qv100.config)
bv=$(sim_cycles "$T/trbr/BRA70.g" configs/qv100.config); nv=$(sim_cycles "$T/trbr/NOP70.g" configs/qv100.config)
if [ -n "$bk" ] && [ "$bk" = "$nk" ] && [ -n "$bp" ] && [ "$bp" = "$np" ] && [ -n "$bv" ] && [ -n "$nv" ] && [ $((bv - nv)) -ge 300 ]; then
    ok kepler_pascal_branches_take_the_int_pipe
else bad "kepler_pascal_branches_take_the_int_pipe (Kepler BRA $bk NOP $nk, Pascal BRA $bp NOP $np, Volta BRA $bv NOP $nv cycles)"; fi
# a specialised unit's opcode needs that unit in the config: GPGPU-Sim keeps the enabled units
# before the first disabled one and asserts when one of a missing unit issues (Accel-Sim aborts).
# Turing's uniform datapath (unit 4) on the QV100 (units 1-3), Volta's BRA (unit 1) on the
# GTX1080Ti (none) run on a pipe of their own with one warning (gpumemsim's choice); with unit 4 enabled, 100 x (IADD3; UIADD3) run on two pipes, about
# as fast as the 100 IADD3s alone (on the INT pipe with them, interval 2: 200 cycles more)
one_warp_kernel "$T/tru" mix 75 201 'BEGIN { for (i = 0; i < 100; i++) printf "%04x ffffffff 1 R%d IADD3 2 R1 R2 0\n%04x ffffffff 0 UIADD3 0 0\n", i * 32, 10 + i % 40, i * 32 + 16 }'
one_warp_kernel "$T/tru" int 75 101 "$IADD3_100"
# a missing unit: Accel-Sim aborts; we run it on a pipe of its own and say so once
spec_warns() {
    name=$1; pat=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c -- "$pat" "$T/err")" = 1 ] && grep -q '^gpu_tot_sim_cycle' "$T/out"; then ok "$name"
    else bad "$name (rc=$rc, $(grep -c -- "$pat" "$T/err") warnings)"; fi
}
spec_warns spec_unit_4_missing_warns_once "'UIADD3' (pc 0x10) runs on specialised unit 4 (Accel-Sim's SPECIALIZED_UNIT_4_OP), which the config does not have (it has units 1-3" \
    $BIN run --trace "$T/tru/mix.g" --config configs/qv100.config
spec_warns spec_unit_1_missing_warns_once "'BRA' (pc 0x0) runs on specialised unit 1 .*it has none" \
    $BIN run --trace "$T/trbr/BRA70.g" --config configs/gtx1080ti.config
expect_fail spec_unit_zero_units_is_an_error "specialised unit 4, which -specialized_unit_4 enables with 0 units" \
    $BIN run --trace "$T/tru/mix.g" --config configs/qv100.config -specialized_unit_4 1,0,4,4,4,UDP --quiet
um=$($BIN run --trace "$T/tru/mix.g" --config configs/qv100.config -specialized_unit_4 1,4,4,4,4,UDP \
     -trace_opcode_latency_initiation_spec_op_4 2,2 2>/dev/null | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
ui=$(sim_cycles "$T/tru/int.g" configs/qv100.config)
if [ -n "$um" ] && [ -n "$ui" ] && [ $((um - ui)) -ge -30 ] && [ $((um - ui)) -le 60 ]; then ok uniform_datapath_has_its_own_pipe
else bad "uniform_datapath_has_its_own_pipe (100 IADD3+UIADD3 $um cycles, 100 IADD3 $ui)"; fi
# Kepler's LDSLK / STSCUL / SU* are LOAD_OP / STORE_OP with no memory space in Accel-Sim, which
# aborts on them with a lane active (generate_mem_accesses): refused; predicated off they pass
mkdir -p "$T/trk"
for v in on off; do
  if [ $v = on ]; then m=ffffffff; else m=00000000; fi
  { one_block_head 32 35
    tb_warp 0 4
    printf '0000 %s 1 R2 LDSLK 1 R4 0\n0010 %s 0 STSCUL 2 R4 R2 0\n0020 %s 1 R5 SUCLAMP 1 R4 0\n0030 ffffffff 0 EXIT 0 0\n\n#END_TB\n' $m $m $m
  } > "$T/trk/kernel-$v.traceg"
  echo kernel-$v.traceg > "$T/trk/$v.g"
done
expect_fail kepler_ldslk_active_lane_refused "kernel-on.traceg:.*'LDSLK' with an active lane (mask ffffffff): Accel-Sim's Kepler table makes it a LOAD_OP instruction but gives it no memory space" \
    $BIN run --trace "$T/trk/on.g" --config configs/gtx480.config --quiet
expect_ok kepler_ldslk_predicated_off_runs $BIN run --trace "$T/trk/off.g" --config configs/gtx480.config --quiet
# binary versions Accel-Sim does not run (it knows 35, 60, 61, 70, 75, 80, 86) are read with the
# nearest table, and a run says so once
mkdir -p "$T/trv"
for v in 52 86; do
  { one_block_head 32 $v; tb_warp 0 2; printf '0000 ffffffff 1 R1 MOV 1 R2 0\n0010 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trv/kernel-$v.traceg"
done
printf 'kernel-52.traceg\nkernel-52.traceg\n' > "$T/trv/k52.g"; echo kernel-86.traceg > "$T/trv/k86.g"
expect_ok binary_version_52_runs $BIN run --trace "$T/trv/k52.g" --config configs/gtx1080ti-pascal.config --quiet
if [ "$(grep -c 'binary version = 52 is not one Accel-Sim runs (35, 60, 61, 70, 75, 80, 86.*Pascal opcode table' "$T/err")" = 1 ]; then
    ok binary_version_outside_accelsim_said_once; else bad binary_version_outside_accelsim_said_once; fi
expect_ok binary_version_86_runs $BIN run --trace "$T/trv/k86.g" --config configs/qv100.config --quiet
if ! grep -q 'binary version' "$T/err"; then ok binary_version_86_silent; else bad binary_version_86_silent; fi
# kernelslist: Accel-Sim launches the lines that start with "kernel", copies the MemcpyHtoD ones
# and skips the rest (trace_parser::parse_commandlist_file): so do we, saying so once
cp "$T/trv/kernel-86.traceg" "$T/trv/other.traceg"
printf 'other.traceg\nkernel-86.traceg\nfoo bar\nMemcpyDtoH,0x7f0000000000,64\n' > "$T/trv/skip.g"
expect_ok kernelslist_skips_other_lines $BIN run --trace "$T/trv/skip.g" --config configs/qv100.config --stats-json "$T/skip.json"
if [ "$(grep -c "skip.g:1: skipped 'other.traceg' and 1 more line: Accel-Sim runs only the lines that start with 'kernel'" "$T/err")" = 1 ] &&
   grep -q '"gpu_tot_sim_insn": 64,' "$T/skip.json"; then ok kernelslist_skip_said_once_one_kernel_run
else bad "kernelslist_skip_said_once_one_kernel_run ($(grep -o '"gpu_tot_sim_insn": [0-9]*' "$T/skip.json"))"; fi
echo other.traceg > "$T/trv/only.g"
expect_fail kernelslist_only_skipped_lines 'no kernel trace file and no MemcpyHtoD line' $BIN run --trace "$T/trv/only.g" --config configs/qv100.config --quiet
# the interconnect's buffer utilisations are over the cycles a kernel runs, as GPGPU-Sim's
# net->cycles: stream copies its result back after its one kernel (timed here), so the
# statistics at the kernel's end and at the run's end must agree
u=$($BIN run --config configs/qv100.config --workload stream --set n=32768 2>/dev/null | sed -n 's/^Req_Network_in_buffer_avg_util = //p')
if [ "$(echo "$u" | wc -l)" = 2 ] && [ "$(echo "$u" | sort -u | wc -l)" = 1 ] && [ "$(echo "$u" | head -1)" != 0 ]; then
    ok icnt_buffer_util_over_kernel_time; else bad "icnt_buffer_util_over_kernel_time ($(echo $u))"; fi
# trace and store inputs a stress test found mishandled (2026-11-29)
$BIN trace export --workload stream --set n=4096 --out "$T/tr" > /dev/null 2>&1
cp "$T/tr/kernelslist.g" "$T/tr/list.bak"
expect_fail convert_into_own_dir "is the input trace's own directory" $BIN trace convert "$T/tr/kernelslist.g" --out "$T/tr"
if cmp -s "$T/tr/kernelslist.g" "$T/tr/list.bak"; then ok convert_into_own_dir_keeps_trace; else bad convert_into_own_dir_keeps_trace; fi
mkdir -p "$T/trb" && cp "$T/tr/"kernel-* "$T/trb/"
printf 'MemcpyHtoD,0x7f0000000000,99999999999999999999\n%s\n' "$(tail -1 "$T/tr/kernelslist.g")" > "$T/trb/kernelslist.g"
expect_fail memcpy_bytes_overflow "kernelslist.g:1: MemcpyHtoD: field 3 (bytes) '99999999999999999999' is more than 64 bits" \
           $BIN trace stat "$T/trb/kernelslist.g"
printf 'MemcpyHtoD,0xfffffffffffff000,8192\n%s\n' "$(tail -1 "$T/tr/kernelslist.g")" > "$T/trb/kernelslist.g"
expect_fail memcpy_wraps "runs past the end of the address space" $BIN trace stat "$T/trb/kernelslist.g"
# accesses at the end of the 64-bit address space (bad input a trace can hold) run to the end:
# unit-stride lanes that wrap to 0, a 16-byte load, an LDL and a RED past 2^64, an atomic on the
# last word; each used to leave its warp waiting on the scoreboard (watchdog) or loop for ever
mkdir -p "$T/tre"
{ one_block_head 32
  tb_warp 0 7
  printf '0000 ffffffff 1 R1 LDG.E 1 R8 4 1 0xfffffffffffffff0 4\n'
  printf '0010 00000001 1 R2 LDG.E.128 1 R8 16 0 0xfffffffffffffff8\n'
  printf '0020 00000001 1 R3 LDL 1 R8 4 0 0xfffffffffffffffe\n'
  printf '0030 00000001 0 RED.E.ADD 2 R8 R9 4 0 0xfffffffffffffffe\n'
  printf '0040 00000003 1 R4 ATOMG.E.ADD 2 R8 R9 4 0 0xfffffffffffffffc 0xfffffffffffffffc\n'
  printf '0050 ffffffff 1 R5 IADD3 4 R1 R2 R3 R4 0\n0060 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/tre/kernel-1.traceg"
echo kernel-1.traceg > "$T/tre/kernelslist.g"
if timeout 60 $BIN run --trace "$T/tre/kernelslist.g" --config configs/qv100.config --quiet --stats-text "$T/tre.txt" >/dev/null 2>"$T/err" &&
   grep -q '^gpgpu_n_tot_w_icount = 7$' "$T/tre.txt"; then ok trace_addresses_at_the_end_of_the_space; else bad trace_addresses_at_the_end_of_the_space; fi
# trace convert keeps an instruction's second destination (the reader keeps two; the writer
# wrote one, so a converted trace lost a dependency and ran differently)
mkdir -p "$T/trd"
{ one_block_head 32
  tb_warp 0 3
  printf '0000 ffffffff 2 R5 R6 IMAD.WIDE 2 R1 R2 0 0\n0010 ffffffff 1 R7 FFMA 2 R6 R6 0 0\n0020 ffffffff 0 EXIT 0 0\n\n#END_TB\n'; } > "$T/trd/kernel-1.traceg"
printf 'kernel-1.traceg\nMemcpyDtoH,0x00007f0000000000,4096\n' > "$T/trd/kernelslist.g"
if $BIN trace convert "$T/trd/kernelslist.g" --out "$T/trd5" --version 5 >/dev/null 2>"$T/err" &&
   grep -q '^0000 ffffffff 2 R5 R6 IMAD.WIDE 2 R1 R2 0 0$' "$T/trd5/kernel-1.traceg"; then
    ok trace_convert_keeps_two_destinations; else bad trace_convert_keeps_two_destinations; fi
# ... and the copies back to the host (a timed one, -gms_trace_memcpy pcie, moves the next
# kernel); an exported workload has none, as Accel-Sim's tracer writes none
if grep -q '^MemcpyDtoH,0x00007f0000000000,4096$' "$T/trd5/kernelslist.g"; then
    ok trace_convert_keeps_copies_to_host; else bad trace_convert_keeps_copies_to_host; fi
$BIN trace export --workload stream --set n=4096 --out "$T/trbp" >/dev/null 2>&1   # stream copies its result back
if grep -q '^MemcpyHtoD' "$T/trbp/kernelslist.g" && ! grep -q '^MemcpyDtoH' "$T/trbp/kernelslist.g"; then
    ok trace_export_writes_no_copies_to_host; else bad trace_export_writes_no_copies_to_host; fi
expect_fail clock_too_low  'the core clock 1e-12 MHz is outside 1 .. 1e6 MHz' \
           $BIN config --config configs/qv100.config --set gpgpu_clock_domains=1e-12:1132.0:1132.0:850.0 --dump
K1=$(tail -1 "$T/tr/kernelslist.g")
(cat "$T/tr/$K1"; echo garbage) > "$T/trb/kernel-k2.traceg"; echo kernel-k2.traceg > "$T/trb/l2.g"
expect_fail trace_trailing_data "more after the grid's last thread block" $BIN trace stat "$T/trb/l2.g"
sed 's/^thread block = 1,0,0/thread block = 0,0,0/' "$T/tr/$K1" > "$T/trb/kernel-k3.traceg"; echo kernel-k3.traceg > "$T/trb/l3.g"
expect_fail trace_block_twice "thread block (0,0,0) appears a second time" $BIN trace stat "$T/trb/l3.g"
# GMS_TRACE_CACHE: the first run writes the decoded kernel, the second reads it; the results
# are the text's (wall-clock lines aside), and a kernel with an error caches nothing
nowall() { grep -v -e wall -e per_second -e _rate -e simulation_time -e slowdown "$1"; }
$BIN run --config configs/qv100.config --trace "$T/tr/kernelslist.g" --quiet --stats-text "$T/tc0.txt" 2>/dev/null
GMS_TRACE_CACHE="$T/tcache" $BIN run --config configs/qv100.config --trace "$T/tr/kernelslist.g" --quiet \
    --stats-text "$T/tc1.txt" 2>/dev/null
GMS_TRACE_CACHE="$T/tcache" $BIN run --config configs/qv100.config --trace "$T/tr/kernelslist.g" --quiet \
    --stats-text "$T/tc2.txt" 2>/dev/null
if [ "$(ls "$T/tcache" | grep -c '[.]gmstc$')" -ge 1 ] && [ "$(ls "$T/tcache" | grep -c tmp)" -eq 0 ] \
   && nowall "$T/tc0.txt" > "$T/tc0.f" && nowall "$T/tc1.txt" > "$T/tc1.f" && nowall "$T/tc2.txt" > "$T/tc2.f" \
   && [ -s "$T/tc0.f" ] && cmp -s "$T/tc0.f" "$T/tc1.f" && cmp -s "$T/tc0.f" "$T/tc2.f"; then
    ok trace_cache_same_stats; else bad trace_cache_same_stats; fi
# (the same command on the good trace writes one: the control that it would have)
GMS_TRACE_CACHE="$T/tcache2" $BIN trace stat "$T/trb/l3.g" > /dev/null 2> "$T/tce.err"; tce_rc=$?
GMS_TRACE_CACHE="$T/tcache3" $BIN trace stat "$T/tr/kernelslist.g" > /dev/null 2>&1; tcg_rc=$?
if [ $tce_rc = 1 ] && grep -q 'appears a second time' "$T/tce.err" && [ -z "$(ls "$T/tcache2" 2>/dev/null)" ] &&
   [ $tcg_rc = 0 ] && [ "$(ls "$T/tcache3" 2>/dev/null | grep -c '[.]gmstc$')" -ge 1 ]; then ok trace_cache_error_caches_nothing
else bad "trace_cache_error_caches_nothing (rc $tce_rc, good trace rc $tcg_rc, $(ls "$T/tcache3" 2>/dev/null | grep -c '[.]gmstc$') cache file(s))"; fi
# a sweep's trace points use a cache kept with its results, unless GMS_TRACE_CACHE says otherwise
mkdir -p "$T/swc" "$T/swd"
printf 'config %s/configs/qv100.config\nbaseline a\nvariant a\nvariant b gpgpu_l1_latency=40\ntrace st %s\n' \
    "$(pwd)" "$T/tr/kernelslist.g" > "$T/swc/s.sweep"
cp "$T/swc/s.sweep" "$T/swd/s.sweep"
(unset GMS_TRACE_CACHE; $BIN sweep run "$T/swc/s.sweep" -j 2 > /dev/null 2>&1)
GMS_TRACE_CACHE= $BIN sweep run "$T/swd/s.sweep" -j 2 > /dev/null 2>&1
if [ "$(ls "$T/swc/s.results/trace-cache" 2>/dev/null | grep -c '[.]gmstc$')" -eq 1 ] && [ ! -e "$T/swd/s.results/trace-cache" ] \
   && $BIN sweep status "$T/swc/s.sweep" 2>&1 | grep -q "done  *2"; then
    ok sweep_trace_cache_with_results; else bad sweep_trace_cache_with_results; fi
# a sweep's cke points share their isolated runs through a memo kept with the results: two
# schemes of one pair, two isolated runs stored; with GMS_CKE_MEMO= none, and the same STP
mkdir -p "$T/swm" "$T/swn"
printf 'config %s/configs/maxwell-sound-baseline.config\nset gms_cke_window=4000\nbaseline a\nvariant a gms_cke_tb=smk\nvariant b gms_cke_tb=smk gms_cke_mi=qbmi\nworkload cke as p apps=bp+ks scale=0.1\n' \
    "$(pwd)" > "$T/swm/s.sweep"
cp "$T/swm/s.sweep" "$T/swn/s.sweep"
(unset GMS_CKE_MEMO; $BIN sweep run "$T/swm/s.sweep" -j 1 > /dev/null 2>&1)
GMS_CKE_MEMO= $BIN sweep run "$T/swn/s.sweep" -j 1 > /dev/null 2>&1
stp_of() { grep -h -o '"gms_cke_stp": *[0-9.e+-]*' "$1"/s.results/*.json 2>/dev/null | sort | tr '\n' ' '; }
if [ "$(ls "$T/swm/s.results/cke-memo" 2>/dev/null | grep -c '[.]memo$')" -eq 2 ] && [ ! -e "$T/swn/s.results/cke-memo" ] \
   && [ -n "$(stp_of "$T/swm")" ] && [ "$(stp_of "$T/swm")" = "$(stp_of "$T/swn")" ]; then
    ok sweep_cke_memo_with_results; else bad sweep_cke_memo_with_results; fi
# compressed kernel files: xz streams (with zero stream padding between them) and zstd frames
# one after another read as one file; bytes after the last one are trailing data, named with
# their offset (they were "truncated xz data" / "corrupt zstd data")
if command -v xz > /dev/null && command -v zstd > /dev/null; then
    mkdir -p "$T/trz" && cp "$T/tr/$K1" "$T/trz/kernel-k.traceg" && echo kernel-k.traceg > "$T/trz/plain.g"
    head -c 1000 "$T/tr/$K1" | xz -c > "$T/trz/kernel-k.traceg.xz" && printf '\0\0\0\0' >> "$T/trz/kernel-k.traceg.xz"
    tail -c +1001 "$T/tr/$K1" | xz -c >> "$T/trz/kernel-k.traceg.xz" && echo kernel-k.traceg.xz > "$T/trz/xz.g"
    head -c 1000 "$T/tr/$K1" | zstd -q -c > "$T/trz/kernel-k.traceg.zst"
    tail -c +1001 "$T/tr/$K1" | zstd -q -c >> "$T/trz/kernel-k.traceg.zst" && echo kernel-k.traceg.zst > "$T/trz/zst.g"
    $BIN trace stat "$T/trz/plain.g" 2>&1 | grep -v -e '^seconds' -e '^warp_insts/s' > "$T/plain.stat"
    for z in xz zst; do
        expect_ok  "trace_${z}_concatenated" $BIN trace stat "$T/trz/$z.g"
        if grep -v -e '^seconds' -e '^warp_insts/s' "$T/out" | cmp -s - "$T/plain.stat"; then
            ok "trace_${z}_concatenated_reads_whole"; else bad "trace_${z}_concatenated_reads_whole"; fi
    done
    # a list that names the file compressed, after it was decompressed or recompressed: the
    # same stem with another suffix (or none) is read
    mkdir -p "$T/trn" && cp "$T/tr/$K1" "$T/trn/kernel-k.traceg" && echo kernel-k.traceg.xz > "$T/trn/named_xz.g"
    cp "$T/trz/kernel-k.traceg.xz" "$T/trn/kernel-j.traceg.xz" && echo kernel-j.traceg.zst > "$T/trn/named_zst.g"
    for l in named_xz named_zst; do
        expect_ok "trace_list_$l" $BIN trace stat "$T/trn/$l.g"
        if grep -v -e '^seconds' -e '^warp_insts/s' "$T/out" | cmp -s - "$T/plain.stat"; then
            ok "trace_list_${l}_reads_whole"; else bad "trace_list_${l}_reads_whole"; fi
    done
    echo kernel-nothere.traceg.xz > "$T/trn/missing.g"
    expect_fail trace_list_missing "kernel-nothere.traceg.xz' not found (also tried it with .xz, .zst or no compression suffix)" \
        $BIN trace stat "$T/trn/missing.g"
    xsz=$(wc -c < "$T/trz/kernel-k.traceg.xz"); zsz=$(wc -c < "$T/trz/kernel-k.traceg.zst")
    printf garbage >> "$T/trz/kernel-k.traceg.xz"; printf garbage >> "$T/trz/kernel-k.traceg.zst"
    expect_fail trace_xz_trailing_data \
        "kernel-k.traceg.xz: trailing data after the xz stream at byte offset $xsz (7 bytes that are not another xz stream)" \
        $BIN trace stat "$T/trz/xz.g"
    expect_fail trace_zst_trailing_data \
        "kernel-k.traceg.zst: trailing data after the last zstd frame at byte offset $zsz (7 bytes that are not another zstd frame)" \
        $BIN trace stat "$T/trz/zst.g"
    expect_fail run_xz_trailing_data "kernel-k.traceg.xz: trailing data after the xz stream" \
        $BIN run --trace "$T/trz/xz.g" --config configs/qv100.config --quiet
else
    echo "skip compressed trace tests (no xz or zstd command)"
fi
# spec 001 Fig. 7's figures from the counters they are made of (hits = accesses - misses - pending hits)
$BIN run --config configs/gtx480.config --workload stream --set n=65536 --quiet 2>/dev/null | awk -F' = ' '
    { v[$1] = $2 }
    END { k = 1000 / v["gpu_tot_sim_insn"]
          d1 = v["gms_l1d_rfki"] - v["L1D_total_cache_reservation_fails"] * k
          d2 = v["gms_l2_accesses_pki"] - v["L2_total_cache_accesses"] * k
          d3 = v["gms_mipc"] - v["gpgpu_n_load_insn"] / v["gpu_tot_sim_cycle"]
          d4 = v["gms_l1d_hits_pki"] - (v["L1D_total_cache_accesses"] - v["L1D_total_cache_misses"] - v["L1D_total_cache_pending_hits"]) * k
          ok = v["gms_l1d_rfki"] > 0 && v["gms_mipc"] > 0
          for (i = 1; i <= 4; i++) { d = (i == 1 ? d1 : i == 2 ? d2 : i == 3 ? d3 : d4); if (d < 0) d = -d; if (d > 1e-3) ok = 0 }
          exit !ok }' && ok per_kilo_insn_figures || bad per_kilo_insn_figures
# CART with RACB and with MRPB (the cart study's cart-racb and cart-mrpb): both mechanisms act in one
# run (CART's queue fills, RACB's bypasses or MRPB's queued requests) and the same instructions complete
cm_get() { $BIN run --config configs/dlmshr-28sm.config --workload transpose --set N=256 --quiet "$@" 2>/dev/null |
    awk -F' = ' '{ v[$1] = $2 } END { printf "%d %d %d %d\n", v["gpgpu_n_tot_w_icount"], v["gms_l2q_fills"],
                                             v["gms_bypassed_reads"], v["gms_mrpb_requests"] }'; }
read -r cm_base _ <<EOF_CM
$(cm_get --set gms_l2_input_queue=fifo)
EOF_CM
read -r cm_i cm_f cm_b cm_m <<EOF_CM
$(cm_get --set gms_l2_input_queue=cart --set gms_racb=3)
EOF_CM
[ "$cm_i" = "$cm_base" ] && [ "$cm_f" -gt 0 ] && [ "$cm_b" -gt 0 ] && ok cart_with_racb || bad "cart_with_racb ($cm_i $cm_f $cm_b; base $cm_base)"
read -r cm_i cm_f cm_b cm_m <<EOF_CM
$(cm_get --set gms_l2_input_queue=cart --set gms_mrpb=1 --set gms_mrpb_drain=sticky --set gms_mrpb_bypass=line)
EOF_CM
[ "$cm_i" = "$cm_base" ] && [ "$cm_f" -gt 0 ] && [ "$cm_m" -gt 0 ] && ok cart_with_mrpb || bad "cart_with_mrpb ($cm_i $cm_f $cm_m; base $cm_base)"
# the MSHR tables' debug dump: DL-MSHR's sets with their bits and FSM states, at the cycle asked; the
# statistics are those of the run without it
md_args="--config configs/dlmshr-28sm.config --workload transpose --set N=256 --quiet -gms_l1d_mshr dlmshr -gms_l2_mshr dlmshr"
$BIN run $md_args -gms_mshr_dump_at 35000 2>"$T/md1.err" | grep -v -E '^gms_engine_|wall|per_second|^gpgpu_simulation_|^gpgpu_silicon' >"$T/md1"
$BIN run $md_args 2>/dev/null | grep -v -E '^gms_engine_|wall|per_second|^gpgpu_simulation_|^gpgpu_silicon' >"$T/md0"
if grep -q '^gpumemsim: MSHR tables at core cycle 35000:' "$T/md1.err" && grep -q '^SM [0-9]* L1D: [0-9]* entries in use' "$T/md1.err" &&
   grep -q '^L2 slice [0-9]*: [0-9]* entries in use' "$T/md1.err" &&
   grep -q '^DL-MSHR: 128 sets x 2 slots' "$T/md1.err" && grep -q '^  set [0-9]*: S[0-9]* H[01] L[01] P[0-9]* S_free0' "$T/md1.err" &&
   cmp -s "$T/md0" "$T/md1"; then ok mshr_dump_at_shows_dlmshr_sets; else bad mshr_dump_at_shows_dlmshr_sets; fi
# the concurrent kernels' issue utilisation per kernel, ALU and SFU apart: the kernels' parts add up to
# the whole (gms_cke_alu_util counts every non-memory warp instruction, SFU ones among them)
$BIN run --config configs/maxwell-sound-baseline.config --workload cke --set apps=blackscholes+bp --set scale=0.1 \
    -gms_cke_window 10000 -gms_cke_profile_window 2000 --quiet 2>/dev/null | awk -F' = ' '{ v[$1] = $2 }
    END { d = v["gms_cke_app0_alu_util"] + v["gms_cke_app0_sfu_util"] + v["gms_cke_app1_alu_util"] + v["gms_cke_app1_sfu_util"] - v["gms_cke_alu_util"]
          e = v["gms_cke_app0_sfu_util"] + v["gms_cke_app1_sfu_util"] - v["gms_cke_sfu_util"]
          if (d < 0) d = -d; if (e < 0) e = -e
          exit !(v["gms_cke_sfu_util"] > 0 && v["gms_cke_alu_util"] > v["gms_cke_sfu_util"] && d < 1e-4 && e < 1e-4) }' &&
    ok cke_alu_sfu_util_per_kernel || bad cke_alu_sfu_util_per_kernel
$BIN run --config configs/qv100.config --set n=4096 --quiet -gms_mshr_dump_at 999999999 >/dev/null 2>"$T/err"
grep -q 'gms_mshr_dump_at 999999999: the run ended at core cycle [0-9]*, before it; no dump' "$T/err" &&
    ok mshr_dump_after_the_run_says_so || bad mshr_dump_after_the_run_says_so
# Accel-Sim traces as applications of a multiprogrammed run (docs/cke.md): two traces, a trace beside
# a built-in workload; each alone for the window as well (STP)
$BIN trace export --workload stream --set n=16384 --out "$T/ckeA" >/dev/null 2>&1
$BIN trace export --workload hotspot --set rows=64 --out "$T/ckeB" >/dev/null 2>&1
ck_get() { $BIN run --config configs/qv100.config --quiet -gms_cke_window 20000 "$@" 2>"$T/ck.err" |
    awk -F' = ' '$1 == "gms_cke_stp" { s = $2 } $1 == "gms_cke_app1_alone_ipc" { a = $2 } END { if (s > 0 && a > 0) print "ok" }'; }
[ "$(ck_get --trace "$T/ckeA/kernelslist.g" --trace "$T/ckeB/kernelslist.g")" = ok ] && ok cke_two_traces || bad cke_two_traces
[ "$(ck_get --workload stream --set args=stream:n=16384 --trace "$T/ckeB/kernelslist.g")" = ok ] && ok cke_trace_beside_workload ||
    bad cke_trace_beside_workload
expect_fail cke_four_applications 'at most 3 applications share the GPU' $BIN run --trace a/k.g --trace b/k.g --trace c/k.g \
           --workload stream --config configs/qv100.config
expect_fail cke_trace_has_no_scale 'a trace application .* has no scale' $BIN run --trace "$T/ckeA/kernelslist.g" \
           --trace "$T/ckeB/kernelslist.g" --config configs/qv100.config --set scale=0.5
expect_fail ucp_enforce_bad "-gms_cke_ucp_enforce: 'lru' is not quota or ways" $BIN run --config configs/qv100.config \
           --workload cke --set apps=bp+hs --set scale=0.05 -gms_cke_tb ws-ucp -gms_cke_ucp_enforce lru
expect_fail dram_timing_key_twice 'gpgpu_dram_timing_opt: field CCD given twice' $BIN config --config configs/qv100.config \
           --set 'gpgpu_dram_timing_opt=nbk=16:CCD=1:CCD=7:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10' --dump
expect_fail trace_lat_needs_pair 'initiation interval missing' $BIN config --config configs/qv100.config \
           --set trace_opcode_latency_initiation_int=2 --dump
printf -- '-gpgpu_cache:dl1 S:x:128:64,L:T:m:L:L,A:512:8,16:0,32\n' > "$T/bad_dl1.config"
expect_fail compound_option_file_line 'bad_dl1.config:1: -gpgpu_cache:dl1: .*field 2 (sets)' \
           $BIN config --config configs/qv100.config --config "$T/bad_dl1.config" --dump
mkdir -p "$T/kd/kernel-1.traceg" && echo kernel-1.traceg > "$T/kd/kernelslist.g"
expect_fail kernel_file_is_directory "kernel-1.traceg' is not a regular file" $BIN trace stat "$T/kd/kernelslist.g"
expect_fail report_plot_extension '--plot x.gif: the figure must be a .png or .svg file' $BIN report "$T/nosuch.db" --plot x.gif
: > "$T/empty.db"
expect_fail report_empty_db 'empty.db: not a gpumemsim result store (an empty file)' $BIN report "$T/empty.db"
# pair= is apps= under the name issue 27 gives it: the same run, the same statistics
CKE_SMALL="--config configs/maxwell-sound-baseline.config --workload cke --set scale=0.05 --set gms_cke_window=3000 --quiet"
expect_ok  cke_apps_form   $BIN run $CKE_SMALL --set apps=pf+bp --stats-json "$T/apps.json"
expect_ok  cke_pair_form   $BIN run $CKE_SMALL --set pair=pf+bp --stats-json "$T/pair.json"
if grep -v -E 'wall|per_second|config_digest' "$T/apps.json" > "$T/a" && grep -v -E 'wall|per_second|config_digest' "$T/pair.json" > "$T/p" &&
    grep -q '"gms_cke_stp"' "$T/a" && cmp -s "$T/a" "$T/p"; then ok cke_pair_same_as_apps; else bad cke_pair_same_as_apps; fi
expect_fail cke_pair_apps_differ 'apps=pf+bp and pair=bp+ks name different applications' \
           $BIN run $CKE_SMALL --set apps=pf+bp --set pair=bp+ks
expect_fail cke_app_name_too_long "is no built-in workload" $BIN run $CKE_SMALL --set apps=bp+abcdefghijklmnopqrstuvwxyz
expect_fail oc_port_throughput_0 'reg_file_port_throughput: must be at least 1' $BIN run --config configs/qv100.config --set gpgpu_reg_file_port_throughput=0 --quiet
expect_fail oc_units_per_sched  '1 to 8 units per scheduler'      $BIN run --config configs/qv100.config --set gpgpu_operand_collector_num_units_gen=6 --quiet
expect_fail no_concurrent_kernel 'gpgpu_max_concurrent_kernel: must be at least 1' $BIN run --config configs/qv100.config --set gpgpu_max_concurrent_kernel=0 --quiet
expect_fail units_too_many     'gpgpu_num_sp_units: 4294967295 is more than 1024' $BIN run --config configs/qv100.config --set gpgpu_num_sp_units=4294967295 --quiet
expect_fail mshr_latency_huge  'gms_l1d_mshr_latency: 4294967295 is more than 100000' $BIN run --config configs/qv100.config --set gms_l1d_mshr_latency=4294967295 --quiet
# --name=value as --name value, for every command
expect_ok long_option_equals $BIN run --config=configs/qv100.config --set=n=4096 --stats-json="$T/eq.json" --quiet
if grep -q '"gpgpu_n_tot_w_icount"' "$T/eq.json" 2>/dev/null; then ok long_option_equals_value_used; else bad long_option_equals_value_used; fi
expect_fail long_option_equals_on_a_flag "unknown argument '1'" $BIN run --config=configs/qv100.config --quiet=1
expect_fail l1_latency_huge  'gpgpu_l1_latency: 4294967295 is more than 100000' $BIN run --config configs/qv100.config --set gpgpu_l1_latency=4294967295 --quiet
expect_fail smem_latency_huge 'gpgpu_smem_latency: 4294967295 is more than 100000' $BIN run --config configs/qv100.config --set gpgpu_smem_latency=4294967295 --quiet
expect_fail cke_dmil_counter_too_narrow '-gms_cke_dmil_rf_bits 12: a counter of at most 4095 cannot count one fail per request over -gms_cke_interval 4096' \
           $BIN config --config configs/gtx480.config -gms_cke_mi dmil -gms_cke_interval 4096 --check
expect_fail cke_dmil_met_bad "-gms_cke_dmil_met: 'sometimes' is not remove or keep" \
           $BIN config --config configs/gtx480.config -gms_cke_dmil_met sometimes --check
expect_fail l2q_dram_gate_bad "-gms_l2q_dram_gate: 'foo' is not one of auto, block, miss" $BIN run --config configs/qv100.config --set gms_l2q_dram_gate=foo --quiet
# the gate's auto reading: GPGPU-Sim's for the FIFO, open for a reordering member (docs/cart.md)
$BIN config --config configs/qv100.config --set gms_l2q_dram_gate=auto --dump > "$T/g1" 2>&1
$BIN config --config configs/qv100.config --set gms_l2q_dram_gate=auto --set gms_l2_input_queue=cart --dump > "$T/g2" 2>&1
if grep -q 'L2->DRAM is full: no access' "$T/g1" && grep -q 'L2->DRAM is full: accesses go on' "$T/g2"; then
    ok l2q_dram_gate_auto; else bad l2q_dram_gate_auto; fi
expect_fail uvm_oversub_flag_bad "-gms_uvm_oversub_flag: 'full' is not one of fault, any-eviction" $BIN run --config configs/gtx1080ti.config --set uvm=1 --set gms_uvm_oversub_flag=full --quiet
# values that could not be used are refused: the flag's reading with nothing that can evict,
# the degree control's readings with a fixed degree
expect_fail uvm_oversub_flag_nothing_evicts "-gms_uvm_oversub_flag is set, but it has no effect unless device memory is limited" $BIN run --config configs/gtx1080ti.config --set uvm=1 --set gms_uvm_oversub_flag=any-eviction --quiet
expect_fail to_reference_fixed_degree "-gms_uvm_to_reference is set, but it has no effect unless -gms_uvm_to_dynamic 1" $BIN run --config configs/gtx1080ti.config --set uvm=1 --set uvm_runtime=batch --set gms_uvm_to=1 --set gms_uvm_to_dynamic=0 --set gms_uvm_to_reference=best --quiet
$BIN config --config configs/gtx1080ti.config --set uvm_oversub_ratio=1.5 --set gms_uvm_oversub_flag=any-eviction --dump > "$T/of1" 2>&1
if grep -q 'once oversubscribed (from the first page evicted)' "$T/of1"; then
    ok uvm_oversub_flag_dump; else bad uvm_oversub_flag_dump; fi
$BIN config --config configs/gtx1080ti.config --set uvm_eviction=ture --set uvm_ture_lease=renew --set uvm_ture_group_cap=1 --dump > "$T/tu1" 2>&1
if grep -q 'UVM TURE: sampler 16 entries (capped per group).*lease renewed on each reference' "$T/tu1"; then
    ok ture_readings_dump; else bad ture_readings_dump; fi
$BIN run --config configs/gtx1080ti.config --set uvm=1 --set n=65536 --set uvm_ture_lease=renew --quiet > /dev/null 2> "$T/tu2"
if grep -q 'warning: -uvm_ture_lease is set, but it has no effect unless -uvm_eviction is ture' "$T/tu2"; then
    ok ture_lease_without_ture_named; else bad ture_lease_without_ture_named; fi
# -gms_cke_bmi_demand under a scheme without an arbitration (SMIL) runs, and says it is unused
$BIN run --config configs/maxwell-sound-baseline.config --workload cke --set apps=bp+ks --set window=2000 --set scale=0.25 \
    --set gms_cke_isolated=0 --set gms_cke_mi=smil:1,1 --set gms_cke_bmi_demand=gate --quiet > /dev/null 2> "$T/bd1"
if grep -q 'warning: -gms_cke_bmi_demand is set, but it has no effect unless -gms_cke_mi is rbmi, qbmi or qbmi+dmil (this run: smil)' "$T/bd1"; then
    ok bmi_demand_without_bmi_named; else bad bmi_demand_without_bmi_named; fi
# GPGPU-Sim's / Accel-Sim's own options gpumemsim does not model load without --ignore-unknown (an
# Accel-Sim config as it is) and the run names them; a name neither simulator has is an error
printf -- '-gpgpu_n_clusters 2\n-gpgpu_stack_size_limit 1024\n-gpgpu_heap_size_limit 8388608\n' > "$T/peer.config"
printf -- '-gpgpu_n_clusters 2\n-gpgpu_stack_size_limt 1024\n' > "$T/typo.config"
$BIN run --workload stream --set n=1024 --config "$T/peer.config" > /dev/null 2> "$T/pe1"; pe_rc=$?
$BIN run --workload stream --set n=1024 --config "$T/typo.config" > /dev/null 2> "$T/pe2"; ty_rc=$?
if [ $pe_rc = 0 ] && grep -q 'ignored 2 option(s) gpumemsim does not model' "$T/pe1" && grep -q 'peer.config:2: -gpgpu_stack_size_limit 1024' "$T/pe1" &&
   [ $ty_rc != 0 ] && grep -q 'typo.config:2: unknown option -gpgpu_stack_size_limt: neither a gpumemsim nor a GPGPU-Sim option' "$T/pe2"; then
  ok gpgpusim_options_load_and_are_named
else bad "gpgpusim_options_load_and_are_named (rc $pe_rc / $ty_rc: $(head -c 300 "$T/pe1") | $(head -c 300 "$T/pe2"))"; fi
# --quiet drops the progress line, not the names of what a run ignores (--ignore-unknown)
$BIN run --workload stream --set n=1024 --ignore-unknown --set foo_bar=3 -baz_q 4 --quiet > /dev/null 2> "$T/ig1"
if grep -q 'warning: ignored 2 option(s) gpumemsim does not model: -foo_bar, -baz_q' "$T/ig1"; then
    ok quiet_names_ignored_options; else bad quiet_names_ignored_options; fi
# an ignored option set twice (Accel-Sim's SM87_ORIN config repeats lines) is one entry, with
# the value in effect (the last)
printf -- '-gpgpu_stack_size_limit 1024\n-gpgpu_heap_size_limit 5\n-gpgpu_stack_size_limit 2048\n' > "$T/dup.config"
$BIN run --workload stream --set n=1024 --config "$T/dup.config" > /dev/null 2> "$T/dp1"
if grep -q 'ignored 2 option(s) gpumemsim does not model' "$T/dp1" && grep -q 'dup.config:3: -gpgpu_stack_size_limit 2048' "$T/dp1" &&
   ! grep -q 'dup.config:1:' "$T/dp1"; then ok ignored_option_set_twice_named_once
else bad "ignored_option_set_twice_named_once ($(head -c 300 "$T/dp1"))"; fi
# -uvm_evict_rescue: a page chosen again into a write-back that a later walk cancels keeps no
# waiters (bfs under CAPTURE at 140% ended on the watchdog before the fix)
$BIN run --config configs/gtx1080ti.config --set uvm_alloc_round=0 --set invalidate_clean=0 --set uvm_policy=capture \
    --set uvm_oversub_ratio=1.4 --set uvm_evict_rescue=1 --workload bfs --set scale=0.001 --set uvm=1 --quiet \
    --stats-json "$T/rs.json" > /dev/null 2> "$T/rs.err"
if ! grep -q watchdog "$T/rs.err" && grep -q '"gms_completed": 1' "$T/rs.json" && grep -q '"Uvm_evict_rescues": [1-9]' "$T/rs.json"; then
    ok evict_rescue_bfs_completes; else bad evict_rescue_bfs_completes; fi
# -uvm_evict_tlb_keep: victims keep their TLB entries until the write-back starts; TLB hits rescue
$BIN run --config configs/gtx1080ti.config --set uvm_alloc_round=0 --set invalidate_clean=0 --set uvm_eviction=random \
    --set uvm_oversub_ratio=1.3 --set uvm_evict_rescue=1 --set uvm_evict_tlb_keep=1 --workload bfs --set scale=0.001 \
    --set uvm=1 --quiet --stats-json "$T/rk.json" > /dev/null 2> "$T/rk.err"
if ! grep -q watchdog "$T/rk.err" && grep -q '"gms_completed": 1' "$T/rk.json" && grep -q '"Uvm_evict_rescues": [1-9]' "$T/rk.json"; then
    ok evict_tlb_keep_bfs_completes; else bad evict_tlb_keep_bfs_completes; fi
# the config dump names UVMSmart's eviction readings when they are set
$BIN config --config configs/gtx1080ti.config --set uvm_eviction=random --set uvm_random_pick=region --set uvm_evict_rescue=1 \
    --set uvm_evict_tlb_keep=1 --dump > "$T/ud" 2>&1
$BIN config --config configs/gtx1080ti.config --set uvm_eviction=tree --set uvm_evict_whole=1 --set uvm_evict_whole_wait=1 \
    --set uvm_lru_region_first=1 --dump > "$T/ud2" 2>&1
if grep -q "UVM random eviction: a random wholly resident 2 MiB region's first page" "$T/ud" &&
    grep -q 'UVM 64 KiB-block LRU order: 2 MiB regions by their most recently used block' "$T/ud2" &&
    ! grep -q 'UVM 64 KiB-block LRU order' "$T/ud" &&
    grep -q 'victims leave the TLBs when their write-back starts' "$T/ud" &&
    grep -q 'UVM LRU/tree units: wholly resident ones only; when none is, wait while a migration' "$T/ud2" &&
    ! grep -q 'UVM LRU/tree units' "$T/ud"; then
    ok dump_names_uvmsmart_eviction_readings; else bad dump_names_uvmsmart_eviction_readings; fi
# -uvm_lru_region_first orders 64 KiB-block LRUs only: named when the eviction has none
$BIN run --workload stream --set uvm=1 --set uvm_eviction=lru4k --set uvm_lru_region_first=1 --quiet > /dev/null 2> "$T/lrf.err"
if grep -q -- '-uvm_lru_region_first is set, but it has no effect unless -uvm_eviction is tree or lru64k (this run: lru4k)' "$T/lrf.err"; then
    ok lru_region_first_named_without_a_block_lru; else bad lru_region_first_named_without_a_block_lru; fi
# -uvm_tree_fill uvmsmart: UVMSmart's leaf sizes for the tree prefetcher (docs/uvm.md Differences 13)
$BIN config --config configs/gtx1080ti.config --set uvm_tree_fill=uvmsmart --dump > "$T/tf" 2>&1
if grep -q "UVM tree prefetcher: UVMSmart's leaf sizes" "$T/tf" && ! grep -q "UVM tree prefetcher: UVMSmart" "$T/ud"; then
    ok dump_names_tree_fill_uvmsmart; else bad dump_names_tree_fill_uvmsmart; fi
$BIN run --workload stream --set uvm=1 --set hardware_prefetch=0 --set hwprefetch_oversub=0 --set uvm_tree_fill=uvmsmart \
    --quiet > /dev/null 2> "$T/tf.err"
if grep -q -- '-uvm_tree_fill is set, but it has no effect unless -uvm_prefetcher is tree (this run: none)' "$T/tf.err"; then
    ok tree_fill_named_without_the_tree_prefetcher; else bad tree_fill_named_without_the_tree_prefetcher; fi
# -uvm_evict_invalid_at auto: start with the uvmsmart runtime (UVMSmart's), end with batch
$BIN config --config configs/gtx1080ti.config --set uvm_runtime=batch --dump > "$T/ia" 2>&1
$BIN config --config configs/gtx1080ti.config --set uvm_evict_invalid_at=end --dump > "$T/ia2" 2>&1
if grep -q "UVM victims written back: absent from the write-back's start" "$T/ud" &&
    grep -q "UVM victims written back: absent when the write-back ends" "$T/ia" &&
    grep -q "UVM victims written back: absent when the write-back ends" "$T/ia2"; then
    ok dump_names_evict_invalid_at; else bad dump_names_evict_invalid_at; fi
expect_fail evict_invalid_at_start_needs_uvmsmart "-uvm_evict_invalid_at start needs -uvm_runtime uvmsmart" \
    $BIN run --workload stream --set uvm=1 --set uvm_runtime=batch --set uvm_evict_invalid_at=start --quiet
expect_fail evict_invalid_at_start_with_instant "-uvm_evict_invalid_at start and -gms_uvm_evict_instant 1" \
    $BIN run --workload stream --set uvm=1 --set uvm_evict_invalid_at=start --set gms_uvm_evict_instant=1 --quiet
expect_fail evict_invalid_at_bad_value "-uvm_evict_invalid_at: 'middle' is not one of auto, end, start" \
    $BIN run --workload stream --set uvm=1 --set uvm_evict_invalid_at=middle --quiet
expect_fail tree_fill_bad_value "-uvm_tree_fill: 'leaf' is not one of exact, uvmsmart" $BIN run --workload stream --set uvm=1 --set uvm_tree_fill=leaf --quiet
expect_fail evict_tlb_keep_needs_rescue "-uvm_evict_tlb_keep 1 needs -uvm_evict_rescue 1" $BIN run --workload stream --set uvm=1 --set uvm_evict_tlb_keep=1 --quiet
# GPGPU-Sim's partition indexing 4 (random), 5 (custom = none) and 6 (IPOLY-Modulo, H100's 40 channels)
$BIN config --config configs/qv100.config --set gpgpu_n_mem=40 --set gpgpu_memory_partition_indexing=6 --dump > "$T/pi6" 2>&1
if grep -q 'Partition hashing: IPOLY-Modulo' "$T/pi6"; then ok partition_indexing_ipoly_modulo; else bad partition_indexing_ipoly_modulo; fi
$BIN run --workload stream --set n=4096 --config configs/qv100.config --set gpgpu_memory_partition_indexing=4 --quiet > /dev/null 2> "$T/pi4"
if grep -q 'only partly modelled:.*-gpgpu_memory_partition_indexing' "$T/pi4"; then ok partition_indexing_random_named; else bad partition_indexing_random_named; fi
expect_fail partition_indexing_3 "-gpgpu_memory_partition_indexing: 3 is not supported" $BIN run --workload stream --config configs/qv100.config --set gpgpu_memory_partition_indexing=3 --quiet
# without an L2 there is no hit to let through: "miss" is refused, auto says nothing about the gate
expect_fail l2q_dram_gate_no_l2 "-gms_l2q_dram_gate miss: has no effect with the L2 disabled" $BIN run --config configs/qv100.config --set gpgpu_cache:dl2=none --set gms_l2q_dram_gate=miss --quiet
$BIN config --config configs/qv100.config --set gpgpu_cache:dl2=none --set gms_l2q_dram_gate=auto --set gms_l2_input_queue=cart --dump > "$T/g3" 2>&1
if grep -q 'L2: disabled' "$T/g3" && ! grep -q 'L2->DRAM is full' "$T/g3"; then
    ok l2q_dram_gate_no_l2_auto; else bad l2q_dram_gate_no_l2_auto; fi
: > "$T/empty.g"
expect_fail empty_kernelslist  'no kernel trace file and no MemcpyHtoD line' $BIN run --trace "$T/empty.g" --config configs/qv100.config --quiet
expect_fail mdb_rf_bits_range 'gms_mdb_rf_bits: 64 is not in 0..63' $BIN run --config configs/gtx480.config \
    --set gms_l1d_bypass=mdb-local --set gms_mdb_rf_bits=64 --quiet
# knobs accepted only where they act: MDB's generator's under PDP, the basis without a ratio
expect_fail pdp_mdb_only_knob 'gms_mdb_e is set, but it has no effect unless -gms_l1d_bypass is mdb-local or mdb-global' \
    $BIN run --config configs/gtx480.config --set gms_l1d_bypass=pdp --set gms_mdb_e=0.3 --quiet
expect_fail oversub_basis_no_ratio 'uvm_oversub_basis is set, but it has no effect unless -uvm_oversub_ratio is set' \
    $BIN run --config configs/gtx1080ti.config --set uvm_oversub_basis=working-set --quiet
# -uvm_oversub_basis: a value it does not know, and the working set of a trace (not known before it runs)
expect_fail oversub_basis_word 'uvm_oversub_basis: .touched. is not a basis (footprint or working-set)' \
    $BIN run --config configs/gtx1080ti.config --set uvm=1 --set uvm_oversub_ratio=2 --set uvm_oversub_basis=touched --quiet
expect_fail oversub_basis_trace 'working-set: needs a built-in workload' \
    $BIN run --config configs/gtx1080ti.config --trace tests/data/traces/mixed/kernelslist.g \
    --set uvm_oversub_ratio=2 --set uvm_oversub_basis=working-set --quiet
expect_fail graph_root_word    'parameter root=abc is not a number' $BIN run --config configs/qv100.config --workload bfs-twc --set scale=0.01 --set root=abc --no-timing
expect_fail wl_param_fraction  'parameter n=2.5 is not a whole number' $BIN run --config configs/qv100.config --workload stream --set n=2.5 --no-timing
expect_fail oc_no_units         'one of them must be at least 1'  $BIN run --config configs/qv100.config --set gpgpu_operand_collector_num_units_gen=0 --set gpgpu_operand_collector_num_units_mem=0 --quiet
expect_fail repeat_zero         'repeat'                          $BIN run --config configs/qv100.config --workload pathfinder --set repeat=0 --quiet
expect_fail zero_sets          'gpgpu_cache:dl1'                 $BIN run --config configs/qv100.config --set gpgpu_cache:dl1=N:0:128:4,L:L:m:N:L,A:32:8,8 --quiet
expect_fail non_pow2_sets      'gpgpu_cache:dl1'                 $BIN run --config configs/gtx480.config --set gpgpu_cache:dl1=N:33:128:4,L:L:m:N:L,A:32:8,8 --quiet
expect_fail block_too_big      'does not fit'                    $BIN run --config configs/qv100.config --set gpgpu_shader_core_pipeline=128:32 --set n=4096 --quiet
expect_fail unknown_workload   "unknown workload 'nosuch'"       $BIN run --config configs/qv100.config --workload nosuch --quiet
expect_fail bad_wl_param       'not a number'                    $BIN run --config configs/qv100.config --workload stream --set n=bad --quiet
expect_fail wl_param_too_big    'is out of range'                 $BIN run --config configs/qv100.config --workload stream --set n=99999999999999999999 --quiet
expect_fail wl_param_nan       'is out of range'                 $BIN run --config configs/qv100.config --workload stream --set scale=nan --quiet
expect_fail fwt_scale_too_big  'more than the maximum 2^30'      $BIN run --config configs/qv100.config --workload fwt --set scale=1e9 --no-timing
expect_fail missing_config     'cannot open config file'         $BIN run --config /nonexistent.config --quiet
expect_fail missing_value      'needs a value'                   $BIN run --config
expect_fail unknown_command    "unknown command"                 $BIN frobnicate
printf -- '-gpgpu_n_clusters 4\n-gpgpu_clock_domains "1000:1000\n' > "$T/bad.config"
expect_fail unterminated_quote 'bad.config:2: unterminated'      $BIN config --config "$T/bad.config" --check
expect_fail negative_wl_param   'must not be negative'            $BIN run --config configs/qv100.config --workload hotspot --set rows=-5 --quiet
expect_fail neither_param_nor_option 'not a parameter of workload kmeans' $BIN run --config configs/qv100.config --workload kmeans --set nosuch=1 --quiet
expect_fail zero_size_workload 'n=0'                             $BIN run --config configs/qv100.config --workload stream --set n=0 --quiet

# config values are read exactly: a unit the option declares is scaled, anything else is an error
expect_ok  pcie_unit_scaled          $BIN config --config configs/qv100.config --set uvm_pcie_model=linear --set pcie_bandwidth=16MB/s --dump
if grep -q 'UVM PCIe: linear model, 0.016 GB/s host-to-device' "$T/out"; then ok pcie_16MBps_is_0.016GBps; else bad pcie_16MBps_is_0.016GBps; fi
printf -- '-gpgpu_n_clusters 4\n-pcie_bandwidth 16Gb/s\n' > "$T/unit.config"
expect_fail unit_not_accepted  'unit.config:2: -pcie_bandwidth: .16Gb/s.: unit .Gb/s. is not accepted; accepted units: GB/s, MB/s, KB/s' \
    $BIN config --config "$T/unit.config" --check
expect_fail int_trailing_text  'gpgpu_n_clusters: .4x. is not an unsigned 32-bit integer'  $BIN run --config configs/qv100.config --set gpgpu_n_clusters=4x --quiet
expect_fail int_overflow       'out of range (at most 4294967295)'  $BIN run --config configs/qv100.config -gpgpu_n_clusters 99999999999999999999 --quiet
expect_fail cycles_take_no_unit 'gpgpu_max_cycle: .1M. is not an unsigned 64-bit integer' $BIN run --config configs/qv100.config --set gpgpu_max_cycle=1M --quiet
expect_fail seed_overflow      "--seed '99999999999999999999' is not an unsigned 64-bit integer" $BIN run $SMALL --seed 99999999999999999999
expect_fail seed_negative      "--seed '-1' is not an unsigned 64-bit integer" $BIN run $SMALL --seed -1
# a trace's copies (docs/traces.md): instant as Accel-Sim, or timed over PCIe; the L2 fill's addresses
expect_fail trace_memcpy_bad       "-gms_trace_memcpy: 'later' is not instant or pcie" $BIN run --config configs/qv100.config --set gms_trace_memcpy=later --quiet
expect_fail perf_memcpy_addr_bad   "-gms_perf_memcpy_addr: 'low' is not gpgpusim or full" $BIN run --config configs/qv100.config --set gms_perf_memcpy_addr=low --quiet
# options accepted but not modelled: syntax checked, one warning line, listed in the stats
expect_fail pipeline_widths_syntax 'gpgpu_pipeline_widths: .banana. is not a comma-separated list of integers' \
    $BIN run --config configs/qv100.config --set gpgpu_pipeline_widths=banana --quiet
expect_ok  unmodelled_run            $BIN run $SMALL --workload stream -network_mode 1 -icnt_subnets 2 --stats-json "$T/u.json"
if [ "$(grep -c 'not modelled' "$T/err")" = 1 ] && grep -q 'not modelled.*-network_mode; set but only partly modelled: -gpgpu_pipeline_widths, -specialized_unit_1' "$T/err" \
   && grep -q '"gms_unmodelled_options": \["gpgpu_pipeline_widths", "specialized_unit_1", "specialized_unit_2", "specialized_unit_3", "network_mode"\]' "$T/u.json"; then
    ok unmodelled_warned_once_and_listed; else bad unmodelled_warned_once_and_listed; fi
# -specialized_unit_N: an enabled unit is named (its unit count, latency and widths are not
# modelled); a disabled one, the default, is not, even with other fields
expect_ok  spec_unit_enabled_run     $BIN run $G10 --workload stream --set n=8192 -specialized_unit_3 1,4,8,4,4,TENSOR --stats-json "$T/su.json"
# (the preset's -gpgpu_pipeline_widths is modelled in part too: only its memory stages are used)
if grep -q '^gpumemsim: warning: set but only partly modelled: -gpgpu_pipeline_widths, -specialized_unit_3 (gpumemsim config --dump says' "$T/err" \
   && grep -q '"gms_unmodelled_options": \["gpgpu_pipeline_widths", "specialized_unit_3"\]' "$T/su.json"; then
    ok spec_unit_enabled_named; else bad spec_unit_enabled_named; fi
expect_ok  spec_unit_default_run     $BIN run $G10 --workload stream --set n=8192 -specialized_unit_5 0,8,32,2,2,TEX
if ! grep -q 'specialized_unit' "$T/err"; then ok spec_unit_disabled_silent; else bad spec_unit_disabled_silent; fi
expect_ok  spec_unit_dump            $BIN config --config configs/qv100.config --dump
if grep -q -- '-specialized_unit_3 .*\[partly modelled: an enabled unit (<enabled> not 0) is not built: its <num_units>, <max_latency>' "$T/out"; then
    ok spec_unit_dump_says_what; else bad spec_unit_dump_says_what; fi

# every example sweep spec plans (its configs load, its options and workloads exist), and the
# example of docs/sweeps.md is examples/l1lat.sweep statement for statement
for spec in examples/*.sweep; do
    expect_ok "example_plans_$(basename "$spec" .sweep)" $BIN sweep plan "$spec"
    grep -q '^[0-9][0-9]* points (' "$T/out" || bad "example_plan_counts_$(basename "$spec" .sweep)"
done
sed -n '/^# l1lat.sweep/,/^```/p' docs/sweeps.md | grep -v '^#' | grep -v '^```' > "$T/doc.sweep"
grep -v '^#' examples/l1lat.sweep > "$T/ex.sweep"
if [ -s "$T/doc.sweep" ] && cmp -s "$T/doc.sweep" "$T/ex.sweep"; then ok sweeps_doc_example_is_examples_l1lat
else bad sweeps_doc_example_is_examples_l1lat; fi

# the workloads whose CPU loops are built per host vector width (wl_simd.h): every width the
# host has gives the same instruction stream (tpacf's values pick its atomics' bins), the same
# values in device memory (GMS_SHADOW_DIGEST) and verifies (GMS_WL_VEC_FLOATS=4|8 forces a
# narrower one)
for wv in "tpacf --set scale=0.02" "mri-q --set numX=512 --set numK=64" "leukocyte --set rows=60 --set cols=60 --set cells=2"; do
    wn=${wv%% *}; wdig=""; wok=1
    for vw in 4 8 16; do
        rm -rf "$T/vt"
        # shellcheck disable=SC2086
        if GMS_WL_VEC_FLOATS=$vw $BIN trace export --workload $wv --out "$T/vt" >"$T/out" 2>"$T/err" &&
           GMS_SHADOW_DIGEST=1 GMS_WL_VEC_FLOATS=$vw $BIN run --config configs/qv100.config --workload $wv --no-timing \
               >"$T/out" 2>"$T/err" && grep -q 'gms_workload_verified = 1' "$T/out"; then
            d="$(cat "$T/vt"/* | cksum) $(grep gms_shadow_digest "$T/out")"
            [ -z "$wdig" ] && wdig=$d
            [ "$d" = "$wdig" ] || wok=0
        else wok=0; fi
    done
    if [ $wok = 1 ]; then ok "vec_widths_same_stream_$wn"; else bad "vec_widths_same_stream_$wn"; fi
done
expect_fail vec_width_bad        'GMS_WL_VEC_FLOATS=7: expected 4, 8 or 16' env GMS_WL_VEC_FLOATS=7 $BIN run --config configs/qv100.config --workload stream --set n=1024 --no-timing
expect_fail shadow_digest_bad    'GMS_SHADOW_DIGEST=yes: expected 0 or 1' env GMS_SHADOW_DIGEST=yes $BIN run --config configs/qv100.config --workload stream --set n=1024 --no-timing
# --page-log with --no-timing: the log comes from a functional walk and says so; stream n=8192
# makes 256 warps x 3 memory instructions, each on one page: 768 records after the header
# (3 allocation lines + 2 header lines), the same records as the timed run's log
expect_ok  page_log_no_timing        $BIN run $SMALL --workload stream --no-timing --page-log "$T/pl_walk.log"
if [ "$(grep -vc '^#' "$T/pl_walk.log")" = 768 ] && [ "$(grep -c '^# alloc' "$T/pl_walk.log")" = 3 ] \
   && grep -q -- '--page-log .*768 accesses from a functional walk' "$T/err"; then
    ok page_log_no_timing_written; else bad page_log_no_timing_written; fi
expect_ok  page_log_timed            $BIN run $SMALL --workload stream --page-log "$T/pl_timed.log"
# (the same page/allocation pairs; the access indices follow each run's own order)
if [ "$(awk '!/^#/ { print $2, $3 }' "$T/pl_timed.log" | sort | md5sum)" = "$(awk '!/^#/ { print $2, $3 }' "$T/pl_walk.log" | sort | md5sum)" ]; then
    ok page_log_walk_matches_timed_records; else bad page_log_walk_matches_timed_records; fi
expect_fail page_log_no_timing_bad_path 'page-log .*/no/such/dir/x.log' \
    $BIN run $SMALL --workload stream --no-timing --page-log "$T/no/such/dir/x.log"
# thread oversubscription on an SM asleep on its L1 pipeline (-gms_sleep_blocked 1): TO sees
# it active, as it would ticked every cycle, and looks at it every 16 cycles (it took it for
# idle: one look, then none until an event, so its switches came late; found by
# fuzz/combo_sweep.sh DIFF=1); every statistic identical with the shortcut off
TOA="--config configs/qv100.config --workload pr --set scale=0.02 --set uvm=1 --set uvm_oversub_ratio=1.25 \
     --set uvm_runtime=batch --set gms_uvm_to=1 --set gms_uvm_to_on_mem=1 --set gms_uvm_active_sms=2 \
     --set gpgpu_max_cycle=1000000 --quiet"
expect_ok  to_sleep_on                $BIN run $TOA --stats-json "$T/to1.json"
expect_ok  to_sleep_off               $BIN run $TOA --set gms_sleep_blocked=0 --stats-json "$T/to0.json"
hostless() { grep -v -E '"(gms_wall_seconds|[a-z_]*_per_second|gms_engine_edges|gms_engine_ticks|config_digest)"' "$1"; }
if [ -s "$T/to1.json" ] && [ "$(hostless "$T/to1.json" | md5sum)" = "$(hostless "$T/to0.json" | md5sum)" ] &&
   grep -q '"gms_to_context_switches": [1-9]' "$T/to1.json"; then
    ok to_sleeping_sm_identical_stats; else bad to_sleeping_sm_identical_stats; fi

# a thrash that looked like a hang (found by fuzz/combo_sweep.sh): kcore at a third of its
# pages with CAPTURE's prefetch and an 8-entry fault buffer. Faults waiting behind the full
# buffer whose pages arrived with a batch's prefetch entered it anyway; with their pages
# evicted again, each batch migrated them (and ~220 prefetched pages) for nobody, and the
# faults with waiters queued behind 600 such: no instruction retired for 1,000,000 cycles (the
# watchdog; 7.8 M cycles in all). Now they are dropped and it ends at 1.4 M cycles.
expect_ok  batch_overflow_stale_faults_dropped $BIN run --config configs/maxwell-sound-baseline.config --workload kcore \
    --set scale=0.05 --set gms_l1d_bypass=mdb-local --set gms_mdb_period=200 --set gms_ccws=1 --set gms_mrpb=1 \
    --set gms_partition_mapping=prime --set uvm=1 --set uvm_policy=capture --set uvm_oversub_ratio=3 \
    --set uvm_runtime=batch --set uvm_fault_buffer_size=8 --set gms_sleep_blocked=0 --set gpgpu_max_cycle=3000000 \
    --quiet --stats-json "$T/stale.json"
if grep -q '"Uvm_fault_buffer_stale": [1-9]' "$T/stale.json" && ! grep -q '"gpu_tot_sim_cycle": 3000000' "$T/stale.json"; then
    ok batch_overflow_stale_faults_finish; else bad batch_overflow_stale_faults_finish; fi

# the watchdog counts an SM asleep through blocked ticks (one bypass slot, far faults) as busy,
# as it would be ticked with -gms_sleep_blocked 0: a 20,000-cycle limit fires in both modes, at
# the same cycle (it fired only with the shortcut off)
WDA="--config configs/maxwell-sound-baseline.config --workload kcore --set scale=0.05 --set uvm=1 \
     --set uvm_runtime=batch --set uvm_oversub_ratio=2 --set gms_l1d_bypass=static --set gms_bypass_l=4 \
     --set gms_l1d_bypass_slots=1 --set gms_watchdog_cycles=20000 --quiet"
expect_fail watchdog_awake_sms 'watchdog: no progress for 20000 core cycles' $BIN run $WDA --set gms_sleep_blocked=0
grep -o 'now cycle [0-9]*' "$T/err" > "$T/wd0"
expect_fail watchdog_sees_sleeping_sms 'watchdog: no progress for 20000 core cycles' $BIN run $WDA
grep -o 'now cycle [0-9]*' "$T/err" > "$T/wd1"
if [ -s "$T/wd0" ] && cmp -s "$T/wd0" "$T/wd1"; then
    ok watchdog_same_cycle_asleep_or_awake; else bad watchdog_same_cycle_asleep_or_awake; fi

# the energy model on GPGPU-Sim's "no limit" MSHR strings (gtx1080ti's L2 A:1024:1024): a
# warning that gms_energy_* do not describe a real GPU; hardware-sized tables (qv100) get none
$BIN run --workload stream --set n=8192 --config configs/gtx1080ti.config --quiet --stats-json "$T/e.json" >/dev/null 2>"$T/err"
if grep -q 'gms_energy_\* do not describe a real GPU here' "$T/err"; then ok energy_warns_on_unlimited_mshrs; else bad energy_warns_on_unlimited_mshrs; fi
$BIN run --workload stream --set n=8192 --config configs/qv100.config --quiet --stats-json "$T/e.json" >/dev/null 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '"gms_energy_total_nj"' "$T/e.json" && ! grep -q 'gms_energy_\* do not describe' "$T/err"; then
    ok energy_quiet_on_hardware_mshrs; else bad energy_quiet_on_hardware_mshrs; fi

# more tests by topic, each a file of its own (they use BIN, T, ok, bad, expect_ok, expect_fail)
for f in tests/cli/*.sh; do [ -f "$f" ] && . "./$f"; done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
