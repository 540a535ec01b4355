#!/bin/sh
# Speed of every Accel-Sim reference trace against Accel-Sim's stored rate, in warp
# instructions per CPU second of the process (user + system, GNU time) rather than per wall
# second: on a loaded host (other jobs on the same cores) the wall time measures the load,
# while one thread's CPU time still measures the simulator. Runs one host thread
# (-gms_host_pipeline 0) unless other options are given; fastest of N runs (default 1).
# Accel-Sim's rates are wall-clock rates of a single-threaded process measured on an idle
# host, so they are comparable to ours measured this way.
# Usage: bench/trace_cpu_rate.sh [N] [extra gpumemsim options...]
# The reference traces: GMS_REF (relative to the caller's directory), default
# ../shared/reference/accelsim beside the repository. Exits 1 if a run failed.
set -u
case ${GMS_REF:-/} in /*) ;; *) GMS_REF=$PWD/$GMS_REF ;; esac   # the caller's, before the cd
case ${GMS_BIN:-/} in /*) ;; *) GMS_BIN=$PWD/$GMS_BIN ;; esac
cd "$(dirname "$0")/.."
REF=${GMS_REF:-../shared/reference/accelsim}
BIN=${GMS_BIN:-build/gpumemsim}
N=${1:-1}
[ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- -gms_host_pipeline 0
[ -x "$BIN" ] || { echo "no binary $BIN (make, or GMS_BIN=...)"; exit 1; }
[ -d "$REF" ] || { echo "bench/trace_cpu_rate.sh: no reference directory $REF (set GMS_REF)" >&2; exit 1; }
ls "$REF"/*/kernelslist.g >/dev/null 2>&1 ||
    { echo "bench/trace_cpu_rate.sh: no reference trace (*/kernelslist.g) in $REF" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-14s %10s %8s %12s %12s %8s\n' trace 'warp insts' 'CPU s' 'ours /CPU s' 'accel-sim/s' ratio
fail=0
for d in "$REF"/*/; do
    name=$(basename "$d")
    [ -f "$d/kernelslist.g" ] || continue
    best=
    i=0
    while [ $i -lt "$N" ]; do
        /usr/bin/time -f '%U %S' -o "$T/t" "$BIN" run --trace "$d/kernelslist.g" --config "$d/gpgpusim.config" \
            --config "$d/trace.config" --ignore-unknown --quiet --stats-json "$T/s.json" "$@" >/dev/null 2>"$T/err" ||
            { echo "$name: run failed: $(tail -2 "$T/err")"; fail=1; continue 2; }
        c=$(awk '{ print $1 + $2 }' "$T/t")
        best=$(awk -v a="$c" -v b="${best:-}" 'BEGIN { print (b == "" || a < b) ? a : b }')
        i=$((i + 1))
    done
    wi=$(grep -m1 '^    "gpgpu_n_tot_w_icount":' "$T/s.json" | sed -E 's/.*: ([0-9]+).*/\1/')
    ar=$(grep -m1 '^  "warp_insts_per_s":' "$d/accelsim-summary.json" | sed -E 's/.*: ([0-9.e+-]+).*/\1/')
    awk -v n="$name" -v w="$wi" -v c="$best" -v a="$ar" \
        'BEGIN { r = (c > 0) ? w / c : 0; printf "%-14s %10d %8.2f %12.0f %12.0f %7.0fx\n", n, w, c, r, a, (a > 0) ? r / a : 0 }'
done
[ $fail = 0 ]
