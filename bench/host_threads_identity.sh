#!/bin/sh
# Host threads: the statistics (--stats-json) of -gms_host_threads 2, of -gms_host_pipeline 1
# (and of an optional reference binary, e.g. the build before the options existed) must equal
# those of a serial run (-gms_host_pipeline 0), except the wall-clock fields (gms_wall_seconds,
# *_per_second). The threaded runs use GMS_HOST_THREADS_ALWAYS=1 (every core edge that may go
# parallel does, no timing governor). One line per case.
# Usage: bench/host_threads_identity.sh [REFERENCE_BINARY]
set -u
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
REFBIN=${1:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# host timings differ by nature; config_digest too, since the host-thread options are options
# like any other (every option enters the digest: docs/counters.md), though no statistic depends on them
strip() { grep -v -E '"(gms_wall_seconds|[a-z_]*_per_second|config_digest)"' "$1"; }
fail=0; n=0
for cfg in qv100 gtx480; do
    for wl in "stream n=262144" "gather" "transpose N=512" "reduce" "pointer_chase"; do
        set -- $wl
        name=$1; shift
        sets=""; for a in "$@"; do sets="$sets --set $a"; done
        tag="$cfg-$name"
        run() {   # run TAG OPTION VALUE
            GMS_HOST_THREADS_ALWAYS=1 GMS_HOST_THREADS_REPORT=1 "$BIN" run --config configs/$cfg.config --workload $name $sets \
                --set "$2=$3" --quiet --stats-json "$T/$tag.$1.json" >/dev/null 2>"$T/$tag.$1.err" ||
                { echo "$tag $2=$3: run failed"; fail=$((fail + 1)); }
        }
        run 1 gms_host_pipeline 0
        run 2 gms_host_threads 2
        run p gms_host_pipeline 1
        par=$(grep -o 'ticked [0-9]* core edge' "$T/$tag.2.err" | grep -o '[0-9]*')
        pip=$(grep -o 'thread on [0-9]* core edge' "$T/$tag.p.err" | grep -o '[0-9]*')
        res="identical"
        strip "$T/$tag.1.json" > "$T/a"; strip "$T/$tag.2.json" > "$T/b"; strip "$T/$tag.p.json" > "$T/p"
        cmp -s "$T/a" "$T/b" || { res="DIFFERENT (serial vs threads 2)"; fail=$((fail + 1)); }
        cmp -s "$T/a" "$T/p" || { res="$res; DIFFERENT (serial vs pipeline)"; fail=$((fail + 1)); }
        if [ -n "$REFBIN" ]; then
            "$REFBIN" run --config configs/$cfg.config --workload $name $sets --quiet --stats-json "$T/$tag.ref.json" \
                >/dev/null 2>&1 || { echo "$tag reference: run failed"; fail=$((fail + 1)); }
            strip "$T/$tag.ref.json" > "$T/c"
            cmp -s "$T/c" "$T/a" || { res="$res; DIFFERENT (reference vs serial)"; fail=$((fail + 1)); }
        fi
        echo "$tag: $res ($(wc -l < "$T/a") stat lines, ${par:-0} core edges ticked in parallel, ${pip:-0} with the memory side ahead)"
        n=$((n + 1))
    done
done
echo "$n cases, $fail difference(s)"
[ "$fail" -eq 0 ]
