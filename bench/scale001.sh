#!/bin/sh
# Every built-in workload at scale=0.01 on gtx1080ti, with uvm=0 and uvm=1 (78 runs): each must
# finish, verify its result, and take under a minute of CPU. Prints a markdown table (wall and CPU
# seconds, gms_workload_clamped, verified) for docs/workloads.md, then "N passed, N failed".
# The e2e test (tests/e2e_workloads.sh) runs all but the three slowest of these (kmeans, bfs,
# svm: 15-26 s of CPU each); this is the full loop. Usage: [GMS_BIN=...] sh bench/scale001.sh
# A relative GMS_BIN is the caller's (resolved before the cd to the repository root).
case ${GMS_BIN:-/} in /*) ;; *) GMS_BIN=$PWD/$GMS_BIN ;; esac
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
LIMIT=${LIMIT:-60}
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| workload | uvm=0 wall s | uvm=0 CPU s | uvm=1 wall s | uvm=1 CPU s | clamped | verified |"
echo "|---|---|---|---|---|---|---|"
for wl in $("$BIN" list workloads | awk 'NR > 1 { print $1 }'); do
    case $wl in cke) continue ;; esac   # other workloads side by side for a window (docs/cke.md)
    row="| $wl"; cl=-; ver=yes
    for u in 0 1; do
        # the minute is of CPU time (ulimit -t): on a shared machine wall time is inflated by
        # the other jobs (kmeans took 60 s of wall for 18 s of CPU beside two builds)
        /usr/bin/time -f "%e %U" -o "$tmp/t" timeout $((LIMIT * 10)) sh -c 'ulimit -t "$1"; shift; exec "$@"' sh \
            "$LIMIT" "$BIN" run --config configs/gtx1080ti.config --workload "$wl" --set scale=0.01 --set uvm=$u \
            --quiet >"$tmp/out" 2>&1
        rc=$?
        set -- $(tail -1 "$tmp/t")
        row="$row | $1 | $2"
        cl=$(awk '/^gms_workload_clamped = / { print $3 }' "$tmp/out")
        if [ $rc -eq 0 ] && grep -q '^gms_workload_verified = 1' "$tmp/out"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); ver="NO (uvm=$u rc=$rc)"
            grep gpumemsim "$tmp/out" | head -2 | sed 's/^/    /' >&2
        fi
    done
    echo "$row | ${cl:--} | $ver |"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
