#!/bin/sh
# Peak memory against trace length (issue 30): each reference trace as stored, and the same
# trace made N times longer by listing its kernel N times in a kernelslist (a directory of
# symlinks in a temporary directory; no trace data is written). Prints peak RSS (KiB) of both
# runs and their ratio; the target is under 1.2 at N=10.
# Usage: bench/trace_memory.sh [N] [TRACE...]   (default 10, all reference traces)
# The reference traces: GMS_REF (relative to the caller's directory), default
# ../shared/reference/accelsim beside the repository. Exits 1 if a run failed.
set -u
case ${GMS_REF:-/} in /*) ;; *) GMS_REF=$PWD/$GMS_REF ;; esac   # the caller's, before the cd
case ${GMS_BIN:-/} in /*) ;; *) GMS_BIN=$PWD/$GMS_BIN ;; esac
cd "$(dirname "$0")/.."
REF=${GMS_REF:-../shared/reference/accelsim}
BIN=${GMS_BIN:-build/gpumemsim}
N=${1:-10}
[ $# -gt 0 ] && shift
case $N in *[!0-9]*|0) echo "bench/trace_memory.sh: N must be a count >= 1, not '$N' (usage: [N] [TRACE...])" >&2; exit 2 ;; esac
[ -x "$BIN" ] || { echo "no binary $BIN (make, or GMS_BIN=...)"; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)"; exit 1; }
[ -d "$REF" ] || { echo "bench/trace_memory.sh: no reference directory $REF (set GMS_REF)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
NAMES=${*:-$(for d in "$REF"/*/; do [ -f "$d/kernelslist.g" ] && basename "$d"; done)}
[ -n "$NAMES" ] || { echo "bench/trace_memory.sh: no reference trace (*/kernelslist.g) in $REF" >&2; exit 1; }
for name in $NAMES; do
    [ -f "$REF/$name/kernelslist.g" ] ||
        { echo "bench/trace_memory.sh: no trace $name in $REF (no $name/kernelslist.g)" >&2; exit 2; }
done

peak() {  # peak RSS in KiB of one run on kernelslist $1
    d=$(dirname "$1")
    /usr/bin/time -f '%M %e' -o "$T/time" "$BIN" run --trace "$1" --config "$d/gpgpusim.config" \
        --config "$d/trace.config" --ignore-unknown --quiet --stats-json "$T/s.json" >/dev/null 2>"$T/err" ||
        { echo "run failed on $1: $(tail -2 "$T/err")" >&2; echo "0 0"; return; }
    cat "$T/time"
}

printf '%-14s %12s %8s %12s %8s %7s\n' trace 'RSS x1 KiB' 's' "RSS x$N KiB" 's' ratio
fail=0
for name in $NAMES; do
    src=$(cd "$REF/$name" && pwd)
    mkdir -p "$T/$name"
    for f in "$src"/*; do ln -sf "$f" "$T/$name/"; done
    # the kernel lines of the list, N times over (copies with MemcpyHtoD lines repeat them too)
    rm -f "$T/$name/kernelslist.g"
    i=0
    while [ $i -lt "$N" ]; do cat "$src/kernelslist.g"; i=$((i + 1)); done > "$T/$name/kernelslist.g"
    set -- $(peak "$src/kernelslist.g"); r1=$1 w1=$2
    set -- $(peak "$T/$name/kernelslist.g"); rn=$1 wn=$2
    [ "$r1" != 0 ] && [ "$rn" != 0 ] || fail=1
    printf '%-14s %12s %8s %12s %8s %7s\n' "$name" "$r1" "$w1" "$rn" "$wn" \
        "$(awk -v a="$rn" -v b="$r1" 'BEGIN{ if (b > 0) printf "%.3f", a / b; else print "-" }')"
done
[ $fail = 0 ]
