#!/bin/sh
# Host cost of each UVM policy (issue 28; not a timed test): one workload under oversubscription,
# every prefetcher + eviction pair of the seeds, at the default 45 us far-fault latency and at
# 450 us. Prints wall time, far faults, evictions and host microseconds per fault; the wall-time
# ratio 450 us / 45 us should stay near 1 for every policy (idle skipping: the fault latency is
# one engine wake-up, whatever the policy).
#
#   sh bench/uvm_policy_bench.sh          (env: GMS_BIN, CONFIG, WORKLOAD, SETS, RATIO)
set -eu
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
CONFIG=${CONFIG:-configs/gtx1080ti.config}
WORKLOAD=${WORKLOAD:-srad}
SETS=${SETS:-scale=0.25}
RATIO=${RATIO:-1.25}
[ -x "$BIN" ] || make "$BIN" >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
now() { date +%s.%N; }

run() {   # $1 label, $2 latency cycles, rest: options
    label=$1; lat=$2; shift 2
    extra=""
    for o in $SETS "$@"; do extra="$extra --set $o"; done
    t0=$(now)
    # shellcheck disable=SC2086
    "$BIN" run --config "$CONFIG" --workload "$WORKLOAD" --quiet --set uvm=1 --set uvm_oversub_ratio="$RATIO" \
        --set page_fault_latency="$lat" $extra --stats-text "$OUT/s.txt" >/dev/null
    t1=$(now)
    get() { awk -v k="$1" '$1 == k || $1 == k":" { v = $NF } END { print v }' "$OUT/s.txt"; }
    echo "$t0 $t1 $(get Uvm_far_faults) $(get Uvm_evictions)"
}

printf '%-22s %9s %9s %9s %10s %12s\n' policy wall45_s wall450_s ratio far_faults us/fault45
for pol in "tpte uvm_policy=tpte" "tpne uvm_policy=tpne" "capture uvm_policy=capture" \
           "np+lru4k uvm_policy=nplru" "np+random uvm_policy=npre" "np+rrip uvm_policy=nprrip" \
           "np+clockpro uvm_policy=npclockpro" "np+hpe uvm_policy=nphpe" "np+ture uvm_policy=npture" \
           "np+belady uvm_policy=np uvm_eviction=belady" "np+random-region uvm_policy=npre uvm_random_pick=region" \
           "tpne-whole-wait uvm_policy=tpne uvm_evict_whole=1 uvm_evict_whole_wait=1" \
           "tpte-rescue-keep uvm_policy=tpte invalidate_clean=0 uvm_evict_rescue=1 uvm_evict_tlb_keep=1"; do
    label=${pol%% *}; opts=${pol#* }
    # "np uvm_eviction=belady": belady is not a preset suffix
    case $opts in uvm_policy=np\ *) opts="hardware_prefetch=0 hwprefetch_oversub=0 ${opts#uvm_policy=np }";; esac
    # shellcheck disable=SC2086
    set -- $(run "$label" 66645 $opts); w45=$(echo "$1 $2" | awk '{print $2 - $1}'); faults=$3
    # shellcheck disable=SC2086
    set -- $(run "$label" 666450 $opts); w450=$(echo "$1 $2" | awk '{print $2 - $1}')
    printf '%-22s %9.3f %9.3f %9.2f %10s %12.2f\n' "$label" "$w45" "$w450" "$(echo "$w450 $w45" | awk '{print $1 / $2}')" \
        "$faults" "$(echo "$w45 $faults" | awk '{print $2 ? $1 * 1e6 / $2 : 0}')"
done
