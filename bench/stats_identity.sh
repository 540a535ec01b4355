#!/bin/sh
# Statistics identity across a host-speed change: runs every Accel-Sim reference trace (with its
# own gpgpusim.config + trace.config), a few built-in workloads on qv100 and gtx480 and two
# unified-memory runs (gtx1080ti, 125% oversubscribed), serially
# (-gms_host_pipeline 0), and keeps each --stats-json with the wall-clock fields
# (gms_wall_seconds, *_per_second) taken out.
#   bench/stats_identity.sh dump OUTDIR            (GMS_BIN=... for another binary)
#   bench/stats_identity.sh compare DIR_A DIR_B    one line per case: identical, identical but
#                                                  the engine's edge/tick counts, or DIFFERENT
# Run `dump` with the binary before the change and with the one after, then `compare`.
# OUTDIR, DIR_A, DIR_B, GMS_BIN and GMS_REF are relative to the caller's directory. `dump` needs
# the reference traces (GMS_REF, default ../shared/reference/accelsim beside the repository).
set -u
abs() { case $1 in /*|'') printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
[ -n "${GMS_BIN:-}" ] && GMS_BIN=$(abs "$GMS_BIN")
[ -n "${GMS_REF:-}" ] && GMS_REF=$(abs "$GMS_REF")
case $# in 0|1) ;; 2) set -- "$1" "$(abs "$2")" ;; *) a1=$1; a2=$(abs "$2"); a3=$(abs "$3"); set -- "$a1" "$a2" "$a3" ;; esac
cd "$(dirname "$0")/.."
REF=${GMS_REF:-../shared/reference/accelsim}
BIN=${GMS_BIN:-build/gpumemsim}
strip() { grep -v -E '"(gms_wall_seconds|[a-z_]*_per_second)"' "$1"; }
case "${1:-}" in
dump)
    OUT=${2:?usage: $0 dump OUTDIR}
    [ -d "$REF" ] || { echo "bench/stats_identity.sh: no reference directory $REF (set GMS_REF)" >&2; exit 1; }
    ls "$REF"/*/kernelslist.g >/dev/null 2>&1 ||
        { echo "bench/stats_identity.sh: no reference trace (*/kernelslist.g) in $REF (set GMS_REF)" >&2; exit 1; }
    mkdir -p "$OUT"
    fail=0
    for d in "$REF"/*/; do
        name=$(basename "$d")
        [ -f "$d/kernelslist.g" ] || continue
        "$BIN" run --trace "$d/kernelslist.g" --config "$d/gpgpusim.config" --config "$d/trace.config" \
            --ignore-unknown --quiet -gms_host_pipeline 0 --stats-json "$OUT/trace-$name.raw" \
            >/dev/null 2>"$OUT/trace-$name.err" || { echo "trace $name: run failed"; fail=1; continue; }
        strip "$OUT/trace-$name.raw" > "$OUT/trace-$name.json" && rm -f "$OUT/trace-$name.raw"
    done
    for cfg in qv100 gtx480; do
        for wl in "stream n=262144" "gather" "transpose N=512" "reduce" "pointer_chase" "matvec" "strided" \
                  "bfs vertices=32768 edges=98304" "hotspot rows=256" "2mm scale=0.0625" "srad rows=256 cols=256 iter=1"; do
            set -- $wl
            name=$1; shift
            sets=""; for a in "$@"; do sets="$sets --set $a"; done
            "$BIN" run --config configs/$cfg.config --workload $name $sets --quiet -gms_host_pipeline 0 \
                --stats-json "$OUT/wl-$cfg-$name.raw" >/dev/null 2>"$OUT/wl-$cfg-$name.err" ||
                { echo "$cfg $name: run failed"; fail=1; continue; }
            strip "$OUT/wl-$cfg-$name.raw" > "$OUT/wl-$cfg-$name.json" && rm -f "$OUT/wl-$cfg-$name.raw"
        done
    done
    for wl in "stream n=262144" "bfs vertices=32768 edges=98304"; do   # unified memory, 125% oversubscribed
        set -- $wl
        name=$1; shift
        sets=""; for a in "$@"; do sets="$sets --set $a"; done
        "$BIN" run --config configs/gtx1080ti.config --workload $name $sets --set uvm=1 --set uvm_oversub_ratio=1.25 \
            --set hardware_prefetch=1 --set hwprefetch_oversub=1 --quiet -gms_host_pipeline 0 \
            --stats-json "$OUT/uvm-$name.raw" >/dev/null 2>"$OUT/uvm-$name.err" || { echo "uvm $name: run failed"; fail=1; continue; }
        strip "$OUT/uvm-$name.raw" > "$OUT/uvm-$name.json" && rm -f "$OUT/uvm-$name.raw"
    done
    exit $fail ;;
compare)
    A=${2:?usage: $0 compare DIR_A DIR_B}; B=${3:?usage: $0 compare DIR_A DIR_B}
    for d in "$A" "$B"; do
        [ -d "$d" ] || { echo "bench/stats_identity.sh: no directory $d" >&2; exit 1; }
    done
    ls "$A"/*.json >/dev/null 2>&1 || { echo "bench/stats_identity.sh: no *.json in $A (run dump first)" >&2; exit 1; }
    n=0; diff=0
    T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
    for a in "$A"/*.json; do
        f=$(basename "$a"); b="$B/$f"; n=$((n + 1))
        if [ ! -f "$b" ]; then echo "$f: missing in $B"; diff=$((diff + 1)); continue; fi
        if cmp -s "$a" "$b"; then echo "$f: identical"
        elif grep -v -E '"gms_engine_(edges|ticks)"' "$a" > "$T/a" && grep -v -E '"gms_engine_(edges|ticks)"' "$b" > "$T/b" &&
            cmp -s "$T/a" "$T/b"; then
            echo "$f: identical but engine edges/ticks ($(grep -m1 '"gms_engine_ticks"' "$a" | tr -dc 0-9) -> $(grep -m1 '"gms_engine_ticks"' "$b" | tr -dc 0-9) ticks)"
        else echo "$f: DIFFERENT"; diff=$((diff + 1)); fi
    done
    echo "$n cases, $diff different"
    [ "$diff" -eq 0 ] ;;
*) echo "usage: $0 dump OUTDIR | compare DIR_A DIR_B"; exit 2 ;;
esac
