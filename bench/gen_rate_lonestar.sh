#!/bin/sh
# Generation rate of barnes-hut (issue 22): warp instructions
# generated per second with the timing model off (`run --no-timing`), next to the full
# simulation's rate of the same run (issue 22 asks for generation >= 20x the simulation).
# Usage: [GMS_BIN=...] bench/gen_rate_lonestar.sh [CONFIG]
set -u
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
CFG=${1:-configs/qv100.config}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-16s %-32s %12s %14s %14s %8s\n' workload parameters warp_insts gen_winst/s sim_winst/s ratio
for spec in "barnes-hut nbodies=4000 timesteps=2 sms=80"; do
    wl=${spec%% *}; params=${spec#* }
    sets=""; for kv in $params; do sets="$sets --set $kv"; done
    # shellcheck disable=SC2086
    "$BIN" run --config "$CFG" --workload "$wl" $sets --no-timing >"$T/gen" 2>"$T/err" || { echo "$wl: $(tail -1 "$T/err")"; continue; }
    # shellcheck disable=SC2086
    "$BIN" run --config "$CFG" --workload "$wl" $sets --quiet --stats-json "$T/s.json" >/dev/null 2>"$T/err" || { echo "$wl sim: $(tail -1 "$T/err")"; continue; }
    wi=$(awk -F' = ' '$1=="warp_insts"{print $2}' "$T/gen")
    g=$(awk -F' = ' '$1=="gms_generated_warp_insts_per_second"{print $2}' "$T/gen")
    s=$(grep '"gms_warp_insts_per_second":' "$T/s.json" | sed -E 's/.*: ([0-9.e+-]+).*/\1/')
    printf '%-16s %-32s %12s %14.0f %14.0f %7.1fx\n' "$wl" "$params" "$wi" "$g" "$s" "$(awk -v a="$g" -v b="$s" 'BEGIN{print (b>0)?a/b:0}')"
done
