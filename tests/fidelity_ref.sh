#!/bin/sh
# Fidelity against Accel-Sim, as a test: every trace directory in the shared reference set
# (reference/accelsim in $GMS_SHARED_DIR, default ../shared beside the project root) runs
# through GMS_BIN (default build/gpumemsim, the plain build) with the config stored beside it,
# and its totals are compared with the directory's accelsim-summary.json (counters the summary
# lacks: the last value accelsim.log prints):
#   warp instructions (gpgpu_n_tot_w_icount), thread instructions (gpgpu_n_tot_thrd_icount),
#   active threads of loads (atomics included), stores and shared-memory instructions
#   (gpgpu_n_load_insn, gpgpu_n_store_insn, gpgpu_n_shmem_insn)               exact
#   L1D and L2 accesses and misses, DRAM reads, requests into the interconnect
#   (gpgpu_n_mem_read_global, gpgpu_n_mem_write_global) and its flits both ways
#   (icnt_total_pkts_simt_to_mem, icnt_total_pkts_mem_to_simt)                within 2%
#   (3% for those that follow matvec_row's L1D misses: WIDE_TRACES below)
#   cycles (gpu_tot_sim_cycle)                             within 5% per trace
#   mean absolute cycle error over all traces              under 1.5%
# (the cycle limits were 15% and 5% until the forty-fifth session, when the worst trace was
# 0.6% off and the mean 0.20%: they now catch a timing regression, not only a broken model)
# One check per trace and one for the mean; a table of ours against theirs is printed.
# Without the reference directory the suite skips, except under CI=true (CI has it): then it
# fails. Ends with "N passed, N failed, N skipped". Usage: sh tests/fidelity_ref.sh
# (bench/fidelity.sh prints more metrics, without thresholds.)
set -u
cd "$(dirname "$0")/.." || exit 1
REF=${GMS_SHARED_DIR:-../shared}/reference/accelsim
BIN=${GMS_BIN:-build/gpumemsim}
EXACT="gpgpu_n_tot_w_icount gpgpu_n_tot_thrd_icount gpgpu_n_load_insn gpgpu_n_store_insn gpgpu_n_shmem_insn"
WITHIN2="L1D_total_cache_accesses L1D_total_cache_misses L2_total_cache_accesses L2_total_cache_misses dram_reads
gpgpu_n_mem_read_global gpgpu_n_mem_write_global icnt_total_pkts_simt_to_mem icnt_total_pkts_mem_to_simt"
CYCLES="gpu_tot_sim_cycle"
# One trace has a wider limit on the counts that follow its L1D misses, measured, not tuned:
# matvec_row's 256 rows all index L1D set 0, so its misses depend on how the warps interleave.
# With GPGPU-Sim's Issue_Prio they are 28,876 (-5.0%); started at the other three phases of
# the schedulers' rotation 29,220 / 29,995 / 29,589, with a fixed order 28,091 (a -4% offset
# and a phase spread of 3%); Accel-Sim's own eight identical SMs count 3,496-4,132
# (docs/validation.md, "Issue priority"). With the sub-core front end (forty-fifth session)
# they are 30,338 (-0.24%); the limit went from 7% to 3%, the phase spread above.
WIDE_TRACES="matvec_row"
WIDE_METRICS="L1D_total_cache_misses L2_total_cache_accesses gpgpu_n_mem_read_global icnt_total_pkts_simt_to_mem
icnt_total_pkts_mem_to_simt"
WIDE_TOL=0.03
CYCLE_TOL=0.05
MEAN_CYCLE_TOL=0.015
pass=0; fail=0; skip=0

if [ ! -d "$REF" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL fidelity: $REF not present (CI=true: CI provides the shared directory)"
        echo "0 passed, 1 failed, 0 skipped"; exit 1
    fi
    echo "skip fidelity: $REF not present"
    echo "0 passed, 0 failed, 1 skipped"; exit 0
fi
if [ ! -x "$BIN" ]; then
    echo "FAIL fidelity: $BIN is not built (make)"; echo "0 passed, 1 failed, 0 skipped"; exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/gms-fidelity.XXXXXX")
trap 'rm -rf "$T"' EXIT

ref_get() {  # top-level number of accelsim-summary.json (2-space indent)
    grep -m1 "^  \"$2\":" "$1" | sed -E 's/.*: *([0-9.eE+-]+).*/\1/'
}
log_get() {  # the last "NAME = value" (or NAME=value) line of accelsim.log: the run's total
    grep -E "^$2 *=" "$1" | tail -n 1 | sed -E 's/^[^=]*= *([0-9.eE+-]+).*/\1/'
}
our_get() {  # the "total" block of our --stats-json (4-space indent; kernel blocks are deeper)
    grep -m1 "^    \"$2\":" "$1" | sed -E 's/.*: *([0-9.eE+-]+).*/\1/'
}
# compare OURS THEIRS TOL: prints the signed relative difference and "ok" or "FAIL";
# TOL 0 is exact. A reference of 0 allows only 0.
compare() {
    awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN {
        if (a == "" || b == "") { print "- FAIL"; exit }
        d = (b != 0) ? (a - b) / b : (a == b ? 0 : 1e9)
        ad = d < 0 ? -d : d
        ok = (tol == 0) ? (a + 0 == b + 0) : (ad <= tol)
        printf "%+.2f%% %s\n", d * 100, ok ? "ok" : "FAIL" }'
}

printf '%-14s %-26s %12s %12s %9s  %s\n' trace metric gpumemsim accel-sim diff limit
sum_abs=0; ncyc=0; ntraces=0
for d in "$REF"/*/; do
    name=$(basename "$d")
    [ -f "$d/kernelslist.g" ] && [ -f "$d/accelsim-summary.json" ] || continue
    ntraces=$((ntraces + 1))
    if ! "$BIN" run --trace "$d/kernelslist.g" --config "$d/gpgpusim.config" --config "$d/trace.config" \
            --ignore-unknown --quiet --stats-json "$T/$name.json" > /dev/null 2> "$T/$name.err"; then
        echo "FAIL fidelity $name: run failed: $(tail -n 2 "$T/$name.err")"
        fail=$((fail + 1)); continue
    fi
    bad=""
    for m in $EXACT $WITHIN2 $CYCLES; do
        case " $EXACT " in *" $m "*) tol=0; lim=exact ;; *)
            if [ "$m" = "$CYCLES" ]; then tol=$CYCLE_TOL; lim=5%; else tol=0.02; lim=2%; fi ;; esac
        case " $WIDE_TRACES " in *" $name "*) case " $(echo $WIDE_METRICS) " in *" $m "*)
            tol=$WIDE_TOL; lim=3% ;; esac ;; esac
        ours=$(our_get "$T/$name.json" "$m"); theirs=$(ref_get "$d/accelsim-summary.json" "$m")
        [ -n "$theirs" ] || theirs=$(log_get "$d/accelsim.log" "$m")
        set -- $(compare "$ours" "$theirs" "$tol")
        printf '%-14s %-26s %12s %12s %9s  %s%s\n' "$name" "$m" "${ours:-NA}" "${theirs:-NA}" "$1" "$lim" \
            "$([ "$2" = ok ] || echo "  <-- FAIL")"
        [ "$2" = ok ] || bad="$bad $m $1 (limit $lim);"
        if [ "$m" = "$CYCLES" ] && [ -n "$ours" ] && [ -n "$theirs" ]; then
            sum_abs=$(awk -v s="$sum_abs" -v a="$ours" -v b="$theirs" 'BEGIN { d = (a - b) / b; print s + (d < 0 ? -d : d) }')
            ncyc=$((ncyc + 1))
        fi
    done
    if [ -z "$bad" ]; then echo "ok   fidelity $name"; pass=$((pass + 1))
    else echo "FAIL fidelity $name:$bad"; fail=$((fail + 1)); fi
done
if [ "$ntraces" -eq 0 ]; then
    echo "FAIL fidelity: no trace directories in $REF"; fail=$((fail + 1))
elif [ "$ncyc" -gt 0 ]; then
    mean=$(awk -v s="$sum_abs" -v n="$ncyc" 'BEGIN { printf "%.2f", s / n * 100 }')
    if awk -v s="$sum_abs" -v n="$ncyc" -v t="$MEAN_CYCLE_TOL" 'BEGIN { exit !(s / n < t) }'; then
        echo "ok   fidelity mean absolute cycle error $mean% over $ncyc traces (limit 1.5%)"; pass=$((pass + 1))
    else
        echo "FAIL fidelity mean absolute cycle error $mean% over $ncyc traces (limit 1.5%)"; fail=$((fail + 1))
    fi
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
