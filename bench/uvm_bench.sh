#!/bin/sh
# UVM speed benchmark (not a timed test): `stream` over a 64 MiB managed footprint at 125%
# oversubscription (capacity = footprint / 1.25) with UVMSmart's tree prefetcher, once with the
# default 45 us far-fault latency (66645 cycles at 1481 MHz) and once with 450 us. Idle skipping
# makes the fault latency free: the wall-time ratio 450 us / 45 us should stay within 1.1.
#
#   sh bench/uvm_bench.sh [extra --set options...]     (env: GMS_BIN, N, CONFIG, RUNTIME)
set -eu
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
CONFIG=${CONFIG:-configs/gtx1080ti.config}
N=${N:-5592405}                 # 3 float arrays x 4 B x N = 64 MiB
RUNTIME=${RUNTIME:-uvmsmart}
[ -x "$BIN" ] || make "$BIN" >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

now() { date +%s.%N; }

run() {   # $1 = label, $2 = page_fault_latency cycles, rest = extra options
    label=$1; lat=$2; shift 2
    extra=""
    for o in "$@"; do extra="$extra --set $o"; done
    t0=$(now)
    # shellcheck disable=SC2086
    "$BIN" run --config "$CONFIG" --workload stream --quiet \
        --set n="$N" --set uvm=1 --set uvm_oversub_ratio=1.25 --set hardware_prefetch=1 \
        --set hwprefetch_oversub=1 --set uvm_runtime="$RUNTIME" --set page_fault_latency="$lat" \
        --set uvm_fault_handling_us="$(echo "$lat" | awk '{printf "%g", $1 / 1481}')" \
        $extra --stats-text "$OUT/$label.txt" >/dev/null
    t1=$(now)
    wall=$(echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}')
    get() { awk -v k="$1" '$1 == k || $1 == k":" { v = $NF } END { print v }' "$OUT/$label.txt"; }
    printf '%-6s latency %7s cycles: wall %7.3f s  sim cycles %s  far faults %s  migrated %s  evicted %s  engine ticks %s\n' \
        "$label" "$lat" "$wall" "$(get gpu_tot_sim_cycle)" "$(get Page_tot_fault)" "$(get Uvm_pages_migrated_in)" \
        "$(get Uvm_evictions)" "$(get gms_engine_ticks)"
    eval "WALL_$label=$wall"
    eval "TICKS_$label=$(get gms_engine_ticks)"
}

echo "stream n=$N ($(echo "$N" | awk '{printf "%.1f", 12 * $1 / 1048576}') MiB managed), 125% oversubscription, tree prefetcher, runtime $RUNTIME, $CONFIG"
run lat45 66645 "$@"
run lat450 666450 "$@"
ratio=$(echo "$WALL_lat45 $WALL_lat450" | awk '{ printf "%.3f", ($1 > 0) ? $2 / $1 : 0 }')
echo "wall-time ratio 450us/45us: $ratio (target <= 1.1)"
echo "engine-tick ratio 450us/45us: $(echo "$TICKS_lat45 $TICKS_lat450" | awk '{ printf "%.3f", ($1 > 0) ? $2 / $1 : 0 }') (work done; immune to machine load)"
awk -v r="$ratio" 'BEGIN { exit !(r <= 1.1) }' || echo "WARNING: fault latency is not free (idle skipping?)"
