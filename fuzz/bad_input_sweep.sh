#!/bin/sh
# Bad-input sweep (no fuzzer needed): every option of `gpumemsim list options` set to 0, -1,
# 2^32-1, 65535, 3, a number past 2^64 and a word, on a tiny stream run; every parameter of
# every built-in workload set to 0, -1, 2^32+1 and a number past 2^64 under --no-timing. The
# expected outcome is a clean run or one error line; reported: a crash (signal), a time-out
# (TMAX seconds, default 15: a value a run accepted but cannot finish; a long legitimate run
# shows up too, so read the line), a watchdog report or a sanitizer report. Run it with a
# sanitizer build (GMS_BIN=build-asan/gpumemsim) to catch memory errors on these paths too.
# Usage: [GMS_BIN=...] [TMAX=s] fuzz/bad_input_sweep.sh [options|params|all]
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=${GMS_BIN:-build/gpumemsim}
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
CFG=$ROOT/configs/qv100.config
TMAX=${TMAX:-15}
WHAT=${1:-all}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# runs from a scratch directory: options that name an output file (-uvm_page_trace_out,
# -uvm_batch_csv, ...) then write "0", "abc", ... there, not into the checkout
mkdir "$T/run"
cd "$T/run"
bad=0
check() {   # $1 = label; runs the rest; reports what is not a clean end
    label=$1; shift
    timeout "$TMAX" "$@" >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc -ge 124 ] || grep -q -E 'watchdog: |AddressSanitizer|runtime error|LeakSanitizer' "$T/err"; then
        echo "$label rc=$rc $(head -c 200 "$T/err" | tr '\n' ' ')"
        bad=$((bad + 1))
    fi
}
if [ "$WHAT" != params ]; then
    "$BIN" list options | awk '{print $1}' | grep -E '^-[a-z]' | sed 's/^-//' | sort -u | grep -v '^gms_watchdog_cycles$' > "$T/opts"
    while read -r o; do
        for v in 0 -1 4294967295 65535 3 99999999999999999999 abc; do
            check "-$o $v" "$BIN" run --config "$CFG" --workload stream --set n=4096 --set "$o=$v" --quiet
        done
    done < "$T/opts"
fi
if [ "$WHAT" != options ]; then
    for w in $("$BIN" list workloads | awk 'NR>1{print $1}'); do
        ps=$("$BIN" run --config "$CFG" --workload "$w" --set zzz=1 --no-timing 2>&1 |
             sed -n 's/.*its parameters: \([^)]*\)).*/\1/p')
        # the names come from an error message's text: none means the message changed
        if [ -z "$ps" ]; then echo "FINDING: no parameters read for workload $w"; bad=$((bad + 1)); fi
        for p in $ps; do
            case $p in uvm|prefetch|seed) continue ;; esac
            for v in 0 -1 4294967297 99999999999999999999; do
                check "$w $p=$v" "$BIN" run --config "$CFG" --workload "$w" --set "$p=$v" --no-timing --quiet
            done
        done
    done
fi
echo "bad-input sweep: $bad finding(s)"
[ "$bad" -eq 0 ]
