#!/bin/sh
# Mechanism-combination sweep (no fuzzer needed): random, seeded combinations of the
# mechanisms' options (schedulers, bypassing, MSHR designs, MRPB, RACB, L2 input queues,
# partition mappings, DRAM scheduling, UVM prefetchers, evictions and runtimes, TO, UE, ETC,
# the concurrent-kernel schemes, host threading), each on a small built-in workload or one of
# the Accel-Sim reference traces in ../shared/reference/accelsim (no managed memory). Every
# option on its own is covered by the tests and the bad-input sweep; this finds what only a
# combination breaks. The expected outcome is a clean run or one error line (a combination the
# option checks refuse); reported: a crash (signal), a time-out (TMAX seconds, default 60), a
# watchdog report, a sanitizer report, or a failed exit whose last line is not gpumemsim's
# error. Use a sanitizer build (GMS_BIN=build-asan/gpumemsim).
# Each finding prints the full command line, to replay it (V=1 prints every command). The last
# line is "N passed, N failed" (tests/run_all.sh runs a few combinations as a suite).
# Every run stops at MAXC core cycles (-gpgpu_max_cycle, default 3,000,000), so a time-out
# means a host rate under MAXC/TMAX cycles per second, a hang the watchdog did not see.
# DIFF=1: also rerun every clean run with the host-speed shortcuts off (-gms_sleep_blocked 0,
# one host thread, no pipeline) and report any statistic that differs.
# Usage: [GMS_BIN=...] [TMAX=s] [MAXC=cycles] [DIFF=1] fuzz/combo_sweep.sh [N combinations (default 50)] [seed (default 1)]
cd "$(dirname "$0")/.."
. fuzz/sweep_common.sh
MAXC=${MAXC:-3000000}
N=${1:-50}
SEED=${2:-1}
mkdir "$T/run"

# One line per choice: the group's name, then its alternatives separated by '|'; an
# alternative is a list of --set NAME=VALUE words ('-' = the default). A combination takes
# one alternative from every group.
cat > "$T/groups" <<'EOF'
sched - | gpgpu_scheduler=lrr | gpgpu_scheduler=two_level_active:6:0:1
bypass - | gms_l1d_bypass=static gms_bypass_l=4 | gms_l1d_bypass=mdb-local gms_mdb_period=200 | gms_l1d_bypass=mdb-global gms_mdb_period=200 | gms_l1d_bypass=mdb-global gms_mdb_period=200 gms_mdb_kernel_start=restart gms_mdb_start=bypass | gms_l1d_bypass=mdb-local gms_mdb_period=200 gms_mdb_level=sm-warp gms_mdb_calculators=48 gms_mdb_start=bypass | gms_l1d_bypass=pdp gms_mdb_period=200 | gms_l1d_bypass=pdp gms_swl=4
warp - | gms_swl=2 | gms_ccws=1 | gms_ccws=1 gms_ccws_vta=2
slots - | gms_l1d_bypass_slots=1 | gms_l1d_bypass_slots=8
l1mshr - | gms_l1d_mshr=dlmshr | gms_l1d_mshr=dlmshr gms_l1d_dlmshr=2:0:0:1 | gms_l1d_mshr_latency=3
mrpb - | gms_mrpb=1 | gms_mrpb=1 gms_mrpb_drain=sticky gms_mrpb_queues=4 gms_mrpb_queue_size=2 | gms_mrpb=1 gms_mrpb_bypass=none gms_mrpb_drain_width=2
racb - | gms_racb=1 | gms_racb=2 | gms_racb=3
l2q - | gms_l2_input_queue=p1 | gms_l2_input_queue=p2 | gms_l2_input_queue=cart | gms_l2_input_queue=cart gms_l2q_cart=2:1:1:longest gms_l2q_cart_age=300 | gms_l2_input_queue=cart gms_l2q_cart=4:2:2:rr
l2mshr - | gms_l2_mshr=dlmshr | gms_l2_mshr=dlmshr gms_l2_dlmshr=2:100:1:0 | gms_l2_mshr_latency=4
pmap - | gms_partition_mapping=xor | gms_partition_mapping=prime | gms_partition_mapping=ipoly | gms_partition_mapping=modulo gms_partition_chunk=4096
memidx - | gpgpu_memory_partition_indexing=1 | gpgpu_memory_partition_indexing=2 | gpgpu_memory_partition_indexing=4 | gpgpu_memory_partition_indexing=6 | gpgpu_memory_partition_indexing=6 gpgpu_n_mem=40 | dram_bnk_indexing_policy=1 | dram_bnk_indexing_policy=2 dram_bnkgrp_indexing_policy=1
dram - | gms_dram_scheduler=fcfs | gms_dram_tfaw=20 gms_dram_trefi=2000 gms_dram_trfc=100
host - | gms_host_pipeline=0 | gms_host_threads=2 | gms_sleep_blocked=0
cluster - | - | - | gpgpu_n_clusters=4 gpgpu_n_cores_per_cluster=3 | gpgpu_n_clusters=8 gpgpu_n_cores_per_cluster=2 gms_host_threads=2
gate - | gms_l2q_dram_gate=miss | gms_l2q_dram_gate=auto
skip - | - | - | gpgpu_gmem_skip_L1D=1
aluc - | - | gms_alu_collector=none | gpgpu_operand_collector_num_units_sp=1 gpgpu_operand_collector_num_in_ports_sp=1 gpgpu_operand_collector_num_out_ports_sp=1 | gpgpu_operand_collector_num_units_sfu=1 gpgpu_num_sfu_units=2
fetch - | - | gms_inst_fetch=none | gpgpu_max_insn_issue_per_warp=1 | gpgpu_max_insn_issue_per_warp=2
banks - | - | gms_reg_banks=none | gpgpu_num_reg_banks=1 | gpgpu_num_reg_banks=32 gpgpu_reg_bank_use_warp_id=1 | gpgpu_num_reg_banks=3
lsuwb - | - | gms_lsu_writeback=none | gpgpu_smem_latency=2
idoc - | - | gms_id_oc_mem=per-scheduler | gms_sched_issue_order=fixed | gms_sched_issue_order=rotate | gpgpu_pipeline_widths=2,1,2,2,1,2,2 gpgpu_operand_collector_num_units_mem=4 gpgpu_operand_collector_num_in_ports_mem=2
EOF
# UVM: half of the combinations run with managed memory
cat > "$T/uvm" <<'EOF'
pref - | uvm_prefetcher=none | uvm_prefetcher=seq uvm_prefetch_size=256KB | uvm_prefetcher=random | uvm_prefetcher=cap | uvm_prefetcher=tree uvm_prefetcher_oversub=none | uvm_prefetcher=tree uvm_tree_fill=uvmsmart | uvm_policy=capture | hardware_prefetch=2 hwprefetch_oversub=3
evict - | uvm_eviction=tree | uvm_eviction=lru4k | uvm_eviction=lru64k | uvm_eviction=lru64k uvm_evict_whole=1 | uvm_eviction=lru64k invalidate_clean=0 uvm_evict_rescue=1 | uvm_eviction=lru2m invalidate_clean=0 uvm_evict_rescue=1 | uvm_eviction=random invalidate_clean=0 uvm_evict_rescue=1 uvm_evict_tlb_keep=1 | uvm_eviction=random uvm_random_pick=region | uvm_eviction=lru64k uvm_evict_whole=1 uvm_evict_whole_wait=1 | uvm_eviction=tree uvm_evict_whole=1 uvm_evict_whole_wait=1 | uvm_eviction=random uvm_random_pick=region invalidate_clean=0 uvm_evict_rescue=1 | uvm_eviction=tree uvm_evict_whole=1 | uvm_eviction=random | uvm_eviction=ture | uvm_eviction=ture uvm_ture_period=2000 uvm_ture_window=500 uvm_ture_table_entries=4 | uvm_eviction=ture uvm_ture_pressure=lru | uvm_eviction=rrip | uvm_eviction=rrip uvm_rrip_insert=1 uvm_rrip_delay=128 | uvm_eviction=clockpro | uvm_eviction=clockpro uvm_clockpro_adaptive=1 uvm_clockpro_cold=4 | uvm_eviction=hpe | uvm_eviction=hpe uvm_hpe_hir_entries=0 uvm_hpe_set_pages=4 uvm_hpe_interval=8 | uvm_eviction=lru2m | uvm_eviction=lru64k uvm_lru_region_first=1 invalidate_clean=0 uvm_evict_rescue=1 | uvm_eviction=tree uvm_lru_region_first=1 uvm_evict_whole=1 | uvm_eviction=lru4k invalidate_clean=0 uvm_evict_rescue=1 uvm_evict_tlb_keep=1 uvm_evict_invalid_at=start
ratio - | uvm_oversub_ratio=1.5 | uvm_oversub_ratio=3 | uvm_oversub_ratio=2 uvm_oversub_basis=working-set | uvm_oversub_ratio=1.25 invalidate_clean=0
page - | page_size=64KB | page_size=2MB | tlb_size=16
tlb - | uvm_l2_tlb_size=64 uvm_max_concurrent_walks=2 | uvm_tlb_assoc=4 uvm_l2_tlb_size=32 uvm_l2_tlb_assoc=0 | uvm_tlb_hit_latency=2 uvm_l2_tlb_latency=30
runtime - | enable_accurate_simulation=0 | uvm_runtime=batch | uvm_runtime=batch gms_uvm_ue=1 | uvm_runtime=batch gms_uvm_evict_serial=1 gms_uvm_to=1 | uvm_runtime=batch gms_uvm_ue=1 gms_uvm_to=1 gms_uvm_to_dynamic=0 gms_uvm_to_factor=3 gms_uvm_to_epoch=5000 | uvm_runtime=batch gms_uvm_to=1 gms_uvm_to_on_mem=1 gms_uvm_to_cumulative=1 gms_uvm_ctx_switch_cycles=0 | uvm_runtime=batch gms_uvm_etc=1 gms_uvm_etc_detect=5000 gms_uvm_etc_exec=20000 | uvm_runtime=batch gms_uvm_evict_instant=1 uvm_fault_buffer_size=8 | uvm_runtime=batch uvm_fault_handling_per_fault=100 gms_pcie_compress=2 uvm_pcie_model=linear uvm_pcie_d2h_bandwidth=4
extra - | gms_uvm_active_sms=2 | gms_uvm_ws_window=5000 | gms_uvm_opt_bound=1
readings - | uvm_split_at_fault=0 uvm_memcpy_half_speed=0 | uvm_split_at_fault=1 gms_uvm_oversub_flag=any-eviction | uvm_eviction=ture uvm_ture_lease=renew uvm_ture_group_cap=1 uvm_ture_table_entries=8 | uvm_runtime=batch gms_uvm_to=1 gms_uvm_to_epoch=20000 gms_uvm_to_reference=best gms_uvm_to_freeze=until-no-drop
EOF
# workloads: small inputs; cke pairs get the concurrent-kernel schemes
cat > "$T/workloads" <<'EOF'
stream n=65536
gather scale=0.01
transpose scale=0.1
reduce scale=0.1
matvec scale=0.05
pointer_chase scale=0.01
bfs scale=0.002
backprop scale=0.05
kmeans points=4000 reps=1
atax scale=0.05
hotspot scale=0.05
nw scale=0.05
srad scale=0.05
spmv scale=0.05
sssp-twc scale=0.05
bfs-twc scale=0.05
kcore scale=0.05
um-ra scale=0.05
um-bfs scale=0.05
b+tree scale=0.05
histo scale=0.05
pr scale=0.02
radixsort scale=0.02
trace vecadd
trace gather
trace atomic_reduce
trace scatter_add
trace strided
trace matvec_row
cke apps=bp+ks scale=0.05 gms_cke_window=400000 gms_cke_profile_window=40000
cke apps=pf+sv scale=0.05 gms_cke_window=400000 gms_cke_profile_window=40000
cke apps=hs+ax+3m scale=0.05 gms_cke_window=400000 gms_cke_profile_window=40000
traces vecadd gather
traces atomic_reduce strided
EOF
cat > "$T/cke" <<'EOF'
tb - | gms_cke_tb=spatial | gms_cke_tb=ws | gms_cke_tb=smk | gms_cke_tb=ws-ucp gms_cke_ucp_period=512 | gms_cke_tb=ws-ucp gms_cke_ucp_period=512 gms_cke_ucp_enforce=ways
mi - | gms_cke_mi=rbmi | gms_cke_mi=qbmi | gms_cke_mi=dmil | gms_cke_mi=qbmi+dmil | gms_cke_mi=smkw | gms_cke_mi=smkw gms_cke_smkw_idle=0 | gms_cke_mi=smkw gms_cke_smkw_rate=profile | gms_cke_mi=smil:2,0
part - | gms_cke_mshr_partition=1 | gms_cke_isolated=0
EOF
CFGS="configs/gtx1080ti.config configs/qv100.config configs/maxwell-sound-baseline.config configs/gtx480.config"

# pick FILE: one alternative of every group of FILE, as --set words (awk's rand, seeded per combination)
pick() {
    awk -v s="$2" 'BEGIN { srand(s) }
        { n = split(substr($0, index($0, " ") + 1), alt, "|"); a = alt[int(rand() * n) + 1]
          m = split(a, w, " "); for (j = 1; j <= m; j++) if (w[j] != "-") printf "--set %s ", w[j] }' "$1"
}
# N combinations that the option checks accept are run: a refused draw (one error line, the
# expected outcome for a combination the checks forbid) is counted apart and another drawn, up
# to 8N draws; fewer than N accepted is a failure (a suite that tested little)
bad=0
ran=0
refused=0
i=0
while [ $ran -lt "$N" ] && [ $i -lt $((8 * N)) ]; do
    s=$((SEED * 100003 + i))
    wl=$(awk -v s="$s" 'BEGIN { srand(s) } { l[NR] = $0 } END { print l[int(rand() * NR) + 1] }' "$T/workloads")
    cfg=$(echo $CFGS | awk -v s="$s" 'BEGIN { srand(s + 7) } { print $(int(rand() * NF) + 1) }')
    name=${wl%% *}
    params=$(echo "$wl" | awk '{ for (j = 2; j <= NF; j++) printf "--set %s ", $j }')
    opts=$(pick "$T/groups" "$s")
    what="--workload $name $params"
    # a reference trace: the mechanisms on a user's trace; traces carry no managed memory
    if [ "$name" = trace ]; then
        what="--trace $ROOT/../shared/reference/accelsim/${wl#trace }/kernelslist.g"
    elif [ "$name" = traces ]; then
        # two traces side by side: applications trace0 and trace1 under the CKE schemes
        set -- ${wl#traces }
        what="--trace $ROOT/../shared/reference/accelsim/$1/kernelslist.g --trace $ROOT/../shared/reference/accelsim/$2/kernelslist.g --set gms_cke_window=100000 --set gms_cke_profile_window=20000"
        opts="$opts $(pick "$T/cke" $((s + 1)))"
    elif [ "$name" = cke ]; then
        opts="$opts $(pick "$T/cke" $((s + 1)))"
    elif [ $((s % 2)) -eq 1 ]; then
        opts="$opts --set uvm=1 $(pick "$T/uvm" $((s + 2)))"
    fi
    cmd="$BIN run --config $ROOT/$cfg $what $opts --set gpgpu_max_cycle=$MAXC --quiet --stats-json $T/s.json"
    [ -n "${V:-}" ] && echo "$i: $cmd"
    (cd "$T/run" && eval "timeout $TMAX $cmd") >/dev/null 2>"$T/err"
    rc=$?
    if is_finding $rc "$T/err"; then
        echo "FINDING rc=$rc: $cmd"
        head -c 400 "$T/err" | sed 's/^/    /'
        bad=$((bad + 1))
    elif [ $rc -ne 0 ]; then
        echo "refused: $(tail -n 1 "$T/err" | head -c 200)"
        refused=$((refused + 1))
        i=$((i + 1))
        continue
    elif [ -n "${DIFF:-}" ]; then
        # the host-speed options promise identical results: the same run ticked plainly
        # (every blocked SM and slice each cycle, one host thread, no pipeline) must agree
        strip_host "$T/s.json" > "$T/a.json"
        (cd "$T/run" && eval "timeout $TMAX $cmd --set gms_sleep_blocked=0 --set gms_host_pipeline=0 --set gms_host_threads=1") >/dev/null 2>"$T/err"
        rc=$?
        strip_host "$T/s.json" > "$T/b.json"
        if [ $rc -ne 0 ] || ! cmp -s "$T/a.json" "$T/b.json"; then
            echo "FINDING (host options change the results, rc=$rc): $cmd"
            diff "$T/a.json" "$T/b.json" | head -8 | sed 's/^/    /'
            bad=$((bad + 1))
        fi
    fi
    ran=$((ran + 1))   # refused draws left the loop body above
    i=$((i + 1))
done
short=0
if [ $ran -lt "$N" ]; then
    echo "FINDING: only $ran of $N combinations ran ($refused refused in $i draws)"
    short=1
fi
echo "combination sweep: $ran combination(s) run, $refused refused, $bad finding(s)"
echo "$((ran - bad)) passed, $((bad + short)) failed"
[ "$bad" -eq 0 ] && [ "$short" -eq 0 ]
