#!/bin/sh
# Wall-clock comparison of two gpumemsim binaries on this noisy VM (not a test).
# Usage: bench/abba.sh ROUNDS CPU[,CPU...] BIN_A BIN_B [run arguments...]
#   e.g. bench/abba.sh 8 0 /tmp/old/gpumemsim build/gpumemsim --config configs/qv100.config --workload stream --set n=4194304
# Both binaries run pinned to CPU (taskset; this VM's two vCPUs differ by up to x2, see
# bench/README.md); CPU may be a list: "0,1" gives a run both vCPUs, which the memory side's
# second thread (-gms_host_pipeline) needs, while one CPU measures the serial simulator.
# A B B A order: a plain A-then-B pair was about 2% slower for its second
# run even for two copies of one binary. Prints each round's warp insts/s (K) and the median
# of the pairwise ratios B/A (two copies of one binary: about x0.99).
# BIN_A and BIN_B may be relative to the caller's directory; the runs themselves start in the
# repository root, so relative paths in the run arguments are the repository's (configs/...).
# A failed run stops the script with the last lines of its stderr.
set -u
[ $# -ge 4 ] || { echo "usage: bench/abba.sh ROUNDS CPU BIN_A BIN_B [run arguments...]" >&2; exit 2; }
N=$1; C=$2; A=$3; B=$4; shift 4
case $A in /*) ;; *) A=$PWD/$A ;; esac
case $B in /*) ;; *) B=$PWD/$B ;; esac
cd "$(dirname "$0")/.."
case $N in ''|*[!0-9]*|0) echo "bench/abba.sh: ROUNDS must be a count >= 1" >&2; exit 2 ;; esac
command -v taskset >/dev/null 2>&1 || { echo "bench/abba.sh: needs taskset (util-linux)" >&2; exit 2; }
[ $# -gt 0 ] || set -- --config configs/qv100.config --workload stream --set n=4194304
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# one TAG BIN [run arguments]: the run's warp insts/s in K (nothing if it failed); stderr in $T/TAG.err
one() { tag=$1; bin=$2; shift 2
        taskset -c "$C" "$bin" run "$@" 2>"$T/$tag.err" | awk '/^gms_warp_insts_per_second/ { printf "%d", $3 / 1000 }'; }
failed() {  # failed TAG BIN
    echo "bench/abba.sh: a run failed (round $i, $1: $2); the end of its stderr:" >&2
    tail -5 "$T/$1.err" | sed 's/^/    /' >&2
    exit 1
}
i=1
while [ $i -le "$N" ]; do
    if [ $((i % 2)) = 1 ]; then a=$(one A "$A" "$@"); b=$(one B "$B" "$@"); else b=$(one B "$B" "$@"); a=$(one A "$A" "$@"); fi
    [ -n "$a" ] || failed A "$A"
    [ -n "$b" ] || failed B "$B"
    echo "$a $b" >> "$T/rounds"
    echo "round $i: A $a K  B $b K"
    i=$((i + 1))
done
awk '{ printf "%.6f\n", $2 / $1 }' "$T/rounds" | sort -g |
    awk '{ r[NR] = $1 } END { m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
                              printf "pairwise B/A median x%.3f over %d rounds\n", m, NR }'
