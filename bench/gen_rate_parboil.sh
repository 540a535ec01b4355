#!/bin/sh
# Generation rate of the Parboil workloads (issue 22): warp instructions generated per second
# with the timing model off (`run --no-timing`) next to the full simulation's rate on the same
# input. Target: generation >= 20x the simulation rate. Usage: bench/gen_rate_parboil.sh [CONFIG]
# (GMS_BIN picks the binary; docs/workloads-parboil.md has the numbers.)
set -u
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
CFG=${1:-configs/qv100.config}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-8s %-34s %12s %14s %14s %8s\n' workload parameters warp_insts gen_winst/s sim_winst/s ratio
for spec in "sgemm M=512 N=256 K=256" "spmv scale=0.05 iters=5" "lbm sx=120 sy=24 sz=30 steps=2" \
            "stencil nx=128 ny=128 nz=16 iters=5" "mri-q numX=16384 numK=512" "histo iters=1" \
            "cutcp scale=0.05" "sad width=176 height=144" "tpacf scale=0.3"; do
    wl=${spec%% *}; params=${spec#* }
    sets=""; for kv in $params; do sets="$sets --set $kv"; done
    # shellcheck disable=SC2086
    "$BIN" run --config "$CFG" --workload "$wl" $sets --no-timing >"$T/gen" 2>"$T/err" || { echo "$wl: $(tail -1 "$T/err")"; continue; }
    # shellcheck disable=SC2086
    "$BIN" run --config "$CFG" --workload "$wl" $sets --quiet --stats-json "$T/s.json" >/dev/null 2>"$T/err" || { echo "$wl sim: $(tail -1 "$T/err")"; continue; }
    wi=$(awk -F' = ' '$1=="warp_insts"{print $2}' "$T/gen")
    g=$(awk -F' = ' '$1=="gms_generated_warp_insts_per_second"{print $2}' "$T/gen")
    s=$(grep '"gms_warp_insts_per_second":' "$T/s.json" | sed -E 's/.*: ([0-9.e+-]+).*/\1/')
    printf '%-8s %-34s %12s %14.0f %14.0f %7.1fx\n' "$wl" "$params" "$wi" "$g" "$s" "$(awk -v a="$g" -v b="$s" 'BEGIN{print (b>0)?a/b:0}')"
done
