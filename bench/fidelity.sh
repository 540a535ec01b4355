#!/bin/sh
# Fidelity against Accel-Sim (issue 4): runs every reference trace in shared/reference/accelsim
# with the config stored beside it and prints, per trace and metric, our value, Accel-Sim's
# value and the relative difference. Targets: instruction counts equal; L1D/L2 accesses and
# misses and DRAM reads within 2%; cycles within 15%, mean absolute cycle error under 10%.
# Usage: bench/fidelity.sh [REFERENCE_DIR] [extra gpumemsim options...]
# REFERENCE_DIR and GMS_BIN are relative to the caller's directory; the default reference
# directory is ../shared/reference/accelsim beside the repository.
set -u
REF=${1:-}
[ $# -gt 0 ] && shift
case $REF in /*) ;; ?*) REF=$PWD/$REF ;; esac   # the caller's, before the cd
case ${GMS_BIN:-/} in /*) ;; *) GMS_BIN=$PWD/$GMS_BIN ;; esac
cd "$(dirname "$0")/.."
REF=${REF:-../shared/reference/accelsim}
BIN=${GMS_BIN:-build/gpumemsim}
[ -d "$REF" ] || { echo "no reference directory $REF"; exit 1; }
ls "$REF"/*/kernelslist.g >/dev/null 2>&1 || { echo "no reference trace (*/kernelslist.g) in $REF"; exit 1; }
if [ -z "${GMS_BIN:-}" ]; then make -s build/gpumemsim || exit 1; fi   # another binary: used as it is
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

ref_get() {  # top-level number from accelsim-summary.json
    grep -m1 "^  \"$2\":" "$1" | sed -E 's/.*: ([0-9.e+-]+).*/\1/'
}
our_get() {  # the "total" block of our JSON (4-space indent; kernel blocks are deeper)
    grep -m1 "^    \"$2\":" "$1" | sed -E 's/.*: ([0-9.e+-]+).*/\1/'
}
# metric name in our stats : name in the reference summary
METRICS="gpu_tot_sim_cycle:gpu_tot_sim_cycle gpgpu_n_tot_w_icount:gpgpu_n_tot_w_icount gpu_tot_sim_insn:gpu_tot_sim_insn
L1D_total_cache_accesses:L1D_total_cache_accesses L1D_total_cache_misses:L1D_total_cache_misses
L1D_total_cache_reservation_fails:L1D_total_cache_reservation_fails
L2_total_cache_accesses:L2_total_cache_accesses L2_total_cache_misses:L2_total_cache_misses
dram_reads:dram_reads dram_writes:dram_writes row_buffer_locality:row_buffer_locality averagemflatency:averagemflatency"
printf '%-11s %-36s %14s %14s %9s\n' trace metric gpumemsim accel-sim diff
sum_abs=0; ntr=0
for d in "$REF"/*/; do
    name=$(basename "$d")
    [ -f "$d/kernelslist.g" ] || continue
    "$BIN" run --trace "$d/kernelslist.g" --config "$d/gpgpusim.config" --config "$d/trace.config" --ignore-unknown \
        --quiet --stats-json "$T/$name.json" "$@" >/dev/null 2>"$T/$name.err" || { echo "$name: run failed: $(tail -2 "$T/$name.err")"; continue; }
    for m in $METRICS; do
        ours=$(our_get "$T/$name.json" "${m%%:*}"); theirs=$(ref_get "$d/accelsim-summary.json" "${m#*:}")
        [ -z "$ours" ] && ours=NA
        [ -z "$theirs" ] && theirs=NA
        diff=$(awk -v a="$ours" -v b="$theirs" 'BEGIN{ if (a=="NA"||b=="NA") print "-"; else if (b==0) print (a==0?"0.0%":"inf"); else printf "%+.1f%%", (a-b)/b*100 }')
        printf '%-11s %-36s %14s %14s %9s\n' "$name" "${m%%:*}" "$ours" "$theirs" "$diff"
        if [ "${m%%:*}" = gpu_tot_sim_cycle ] && [ "$diff" != "-" ]; then
            sum_abs=$(awk -v s="$sum_abs" -v a="$ours" -v b="$theirs" 'BEGIN{d=(a-b)/b; if (d<0) d=-d; print s+d}')
            ntr=$((ntr + 1))
        fi
    done
    wall=$(our_get "$T/$name.json" gms_wall_seconds); rate=$(our_get "$T/$name.json" gms_warp_insts_per_second)
    ar=$(ref_get "$d/accelsim-summary.json" warp_insts_per_s)
    printf '%-11s %-36s %14.0f %14.0f %8.0fx\n' "$name" "speed: warp insts/s (wall ${wall}s)" "$rate" "$ar" \
        "$(awk -v a="$rate" -v b="$ar" 'BEGIN{print (b>0)?a/b:0}')"
done
if [ $ntr -gt 0 ]; then
    awk -v s="$sum_abs" -v n="$ntr" 'BEGIN{printf "mean absolute cycle error over %d traces: %.1f%%\n", n, s/n*100}'
else
    echo "no cycle count compared (every run failed, or no gpu_tot_sim_cycle on either side)"; exit 1
fi
