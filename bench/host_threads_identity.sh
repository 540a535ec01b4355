#!/bin/sh
# -gms_host_threads: the statistics (--stats-json) of threads=2 (and of an optional reference
# binary, e.g. the build before the option existed) must equal those of threads=1, except the
# wall-clock fields (gms_wall_seconds, *_per_second). Threads=2 runs with GMS_HOST_THREADS_ALWAYS=1
# (every core edge that may tick in parallel does, no timing governor). One line per case.
# Usage: bench/host_threads_identity.sh [REFERENCE_BINARY]
set -u
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
REFBIN=${1:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
strip() { grep -v -E '"(gms_wall_seconds|[a-z_]*_per_second)"' "$1"; }
fail=0; n=0
for cfg in qv100 gtx480; do
    for wl in "stream n=262144" "gather" "transpose N=512" "reduce" "pointer_chase"; do
        set -- $wl
        name=$1; shift
        sets=""; for a in "$@"; do sets="$sets --set $a"; done
        tag="$cfg-$name"
        for t in 1 2; do
            GMS_HOST_THREADS_ALWAYS=1 GMS_HOST_THREADS_REPORT=1 "$BIN" run --config configs/$cfg.config --workload $name $sets \
                --set gms_host_threads=$t --quiet --stats-json "$T/$tag.$t.json" >/dev/null 2>"$T/$tag.$t.err" ||
                { echo "$tag threads=$t: run failed"; fail=$((fail + 1)); }
        done
        par=$(grep -o 'ticked [0-9]* core edge' "$T/$tag.2.err" | grep -o '[0-9]*')
        res="identical"
        strip "$T/$tag.1.json" > "$T/a"; strip "$T/$tag.2.json" > "$T/b"
        cmp -s "$T/a" "$T/b" || { res="DIFFERENT (threads 1 vs 2)"; fail=$((fail + 1)); }
        if [ -n "$REFBIN" ]; then
            "$REFBIN" run --config configs/$cfg.config --workload $name $sets --quiet --stats-json "$T/$tag.ref.json" \
                >/dev/null 2>&1 || { echo "$tag reference: run failed"; fail=$((fail + 1)); }
            strip "$T/$tag.ref.json" > "$T/c"
            cmp -s "$T/c" "$T/b" || { res="$res; DIFFERENT (reference vs threads 2)"; fail=$((fail + 1)); }
        fi
        echo "$tag: $res ($(wc -l < "$T/a") stat lines, ${par:-0} core edges ticked in parallel)"
        n=$((n + 1))
    done
done
echo "$n cases, $fail difference(s)"
[ "$fail" -eq 0 ]
