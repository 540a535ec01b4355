#!/bin/sh
# The decoded-trace cache (GMS_TRACE_CACHE) on every Accel-Sim reference trace: CPU seconds
# (user + system, fastest of N runs, one host thread: -gms_host_pipeline 0 and no read-ahead)
# reading the text, writing the cache (first run) and reading the cache; the statistics of
# the three runs must be identical apart from wall-clock lines. With CALLGRIND=1 also the
# host instructions of the text run and of the cache-reading run (valgrind, slow).
# Usage: bench/trace_cache.sh [N]
# The reference traces: GMS_REF (relative to the caller's directory), default
# ../shared/reference/accelsim beside the repository. Exits 1 if a run failed.
set -u
case ${GMS_REF:-/} in /*) ;; *) GMS_REF=$PWD/$GMS_REF ;; esac   # the caller's, before the cd
case ${GMS_BIN:-/} in /*) ;; *) GMS_BIN=$PWD/$GMS_BIN ;; esac
cd "$(dirname "$0")/.."
REF=${GMS_REF:-../shared/reference/accelsim}
BIN=${GMS_BIN:-build/gpumemsim}
N=${1:-1}
[ -x "$BIN" ] || { echo "no binary $BIN (make, or GMS_BIN=...)"; exit 1; }
[ -d "$REF" ] || { echo "bench/trace_cache.sh: no reference directory $REF (set GMS_REF)" >&2; exit 1; }
ls "$REF"/*/kernelslist.g >/dev/null 2>&1 ||
    { echo "bench/trace_cache.sh: no reference trace (*/kernelslist.g) in $REF" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export GMS_TRACE_READAHEAD=0
nowall() { grep -v -e wall -e per_second -e _rate -e simulation_time -e slowdown "$1"; }
# cpu LABEL OUT: run the trace N times (env as set by the caller), print the fastest CPU time
cpu() {
    best=
    i=0
    while [ $i -lt "$N" ]; do
        /usr/bin/time -f '%U %S' -o "$T/t" "$BIN" run --trace "$d/kernelslist.g" --config "$d/gpgpusim.config" \
            --config "$d/trace.config" --ignore-unknown --quiet --stats-text "$T/$1.txt" -gms_host_pipeline 0 \
            >/dev/null 2>"$T/err" || { echo "$name: run failed: $(tail -2 "$T/err")" >&2; return 1; }
        c=$(awk '{ print $1 + $2 }' "$T/t")
        best=$(awk -v a="$c" -v b="${best:-}" 'BEGIN { print (b == "" || a < b) ? a : b }')
        i=$((i + 1))
        [ "$1" = write ] && break   # the first run writes; later ones would read
    done
    echo "$best"
}
ir() {
    valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$BIN" run --trace "$d/kernelslist.g" \
        --config "$d/gpgpusim.config" --config "$d/trace.config" --ignore-unknown --quiet \
        --stats-text /dev/null -gms_host_pipeline 0 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-14s %9s %9s %9s %7s %10s %12s %12s %7s\n' trace 'text s' 'write s' 'read s' ratio 'cache KB' \
    'Ir text' 'Ir read' 'Ir x'
fail=0
for d in "$REF"/*/; do
    name=$(basename "$d")
    [ -f "$d/kernelslist.g" ] || continue
    rm -rf "$T/c"
    unset GMS_TRACE_CACHE
    t0=$(cpu text) || { fail=1; continue; }
    export GMS_TRACE_CACHE="$T/c"
    t1=$(cpu write) || { fail=1; continue; }
    t2=$(cpu read) || { fail=1; continue; }
    kb=$(du -k "$T/c" | tail -1 | cut -f1)
    same=yes
    for x in write read; do
        nowall "$T/text.txt" > "$T/a"; nowall "$T/$x.txt" > "$T/b"
        cmp -s "$T/a" "$T/b" || same=NO
    done
    i0=-; i2=-; ix=-
    if [ "${CALLGRIND:-0}" = 1 ]; then
        unset GMS_TRACE_CACHE
        i0=$(ir)
        export GMS_TRACE_CACHE="$T/c"
        i2=$(ir)
        ix=$(awk -v a="$i0" -v b="$i2" 'BEGIN { printf "%.3f", b / a }')
    fi
    awk -v n="$name" -v a="$t0" -v b="$t1" -v c="$t2" -v k="$kb" -v i0="$i0" -v i2="$i2" -v ix="$ix" -v s="$same" \
        'BEGIN { printf "%-14s %9.2f %9.2f %9.2f %6.2fx %10d %12s %12s %7s%s\n", n, a, b, c, (c > 0) ? a / c : 0,
                 k, i0, i2, ix, (s == "yes") ? "" : "  STATISTICS DIFFER" }'
done
[ $fail = 0 ]
