#!/bin/sh
# Sweep throughput (issue 30): a 40-point sweep (5 small built-in workloads and 3 of the
# Accel-Sim reference traces in ../shared/reference/accelsim, as `trace` points; 8 built-ins
# when that folder is absent; x 5 config variants on qv100) run with `gpumemsim sweep run -j JOBS`, wall time per round, in two modes:
#   shared: the default; the runner gives each run its share of the host's CPUs
#           (GMS_HOST_CPUS, runner_local.c), so with JOBS >= cores no run starts the memory
#           side's worker thread (-gms_host_pipeline) and takes a concurrent run's CPU
#   pipe:   GMS_HOST_CPUS=2 set by hand (the runner keeps a user's value): every run may
#           start the worker, as before the runner set it
# Rounds go shared, pipe, pipe, shared, ... (so a slow phase of the host hits both).
# Statistics are the same in both modes (checked: the stored stats of the last round of each
# are compared, wall-clock fields left out).
# Usage: bench/sweep_speed.sh [ROUNDS] [JOBS]   (default 3 rounds, JOBS = host CPUs)
set -u
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
ROUNDS=${1:-3}
JOBS=${2:-$(nproc)}
[ -x "$BIN" ] || { echo "no binary $BIN (make, or GMS_BIN=...)"; exit 1; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CFG=$(pwd)/configs/qv100.config
REF=$(pwd)/../shared/reference/accelsim
if [ -f "$REF/vecadd/kernelslist.g" ] && [ -f "$REF/gather/kernelslist.g" ] && [ -f "$REF/atomic_reduce/kernelslist.g" ]; then
    LAST3="trace     vecadd $REF/vecadd/kernelslist.g
trace     gather-ref $REF/gather/kernelslist.g
trace     atomic_reduce $REF/atomic_reduce/kernelslist.g"
else
    LAST3="workload  reduce
workload  syrk N=128 M=128
workload  bicg scale=0.25"
fi
cat > "$T/s.sweep" <<EOS
config    $CFG
variant   base
variant   lat   gpgpu_l1_latency={10|40|80}
variant   xor   gms_partition_mapping=xor
workload  stream n=1048576
workload  strided
workload  gather
workload  transpose N=1024
workload  hotspot
$LAST3
EOS

one() {  # $1 = mode, $2 = round
    rm -rf "$T/s.db" "$T/s.results"
    t0=$(date +%s.%N)
    if [ "$1" = pipe ]; then
        GMS_HOST_CPUS=2 "$BIN" sweep run "$T/s.sweep" -j "$JOBS" >/dev/null 2>"$T/log" || { cat "$T/log"; exit 1; }
    else
        env -u GMS_HOST_CPUS "$BIN" sweep run "$T/s.sweep" -j "$JOBS" >/dev/null 2>"$T/log" || { cat "$T/log"; exit 1; }
    fi
    t1=$(date +%s.%N)
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')
    echo "$1 $w" >> "$T/times"
    printf 'round %d %-6s %s s\n' "$2" "$1" "$w"
    # every stored statistic but the host's timings, in a fixed order
    "$BIN" sweep export "$T/s.db" 2>/dev/null | grep -v -i -E 'wall|per_second|host_|seconds' | sort > "$T/stats.$1"
}

echo "sweep: 40 points, -j $JOBS, $ROUNDS rounds per mode ($(nproc) host CPUs)"
r=1
while [ $r -le "$ROUNDS" ]; do
    if [ $((r % 2)) -eq 1 ]; then one shared $r; one pipe $r; else one pipe $r; one shared $r; fi
    r=$((r + 1))
done
for m in shared pipe; do
    awk -v m=$m '$1 == m { n++; s += $2; if (!b || $2 < b) b = $2 } END { printf "%-6s best %.1f s, mean %.1f s over %d\n", m, b, s / n, n }' "$T/times"
done
if cmp -s "$T/stats.shared" "$T/stats.pipe"; then echo "statistics: identical ($(wc -l < "$T/stats.shared") lines)"
else echo "statistics: DIFFER"; diff "$T/stats.shared" "$T/stats.pipe" | head; fi
