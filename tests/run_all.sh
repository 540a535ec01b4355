#!/bin/sh
# Runs every test suite and prints one closing line "N passed, N failed, N skipped" over all
# of them. Suites: unit tests (plain build), CLI tests, unit and CLI tests, mechanism
# combinations (fuzz/combo_sweep.sh) and random traces (fuzz/trace_sweep.sh) under ASan+UBSan,
# both again against the host-speed shortcuts off, every
# workload end to end through the timing simulator with UVM, fidelity against the Accel-Sim
# reference traces (plain build), sweep harness tests. A suite's closing line is
# "N passed, N failed" with an optional ", N skipped"; a suite without one, or one that
# exits non-zero with no failure counted, counts one failure. Under CI=true a skip of what
# CI provides (the local Slurm, the shared reference traces) is a failure in its suite.
# Usage: tests/run_all.sh [--quick]   (--quick skips the sanitizer build, e2e, fidelity and
# the harness)
set -u
cd "$(dirname "$0")/.."
total_pass=0
total_fail=0
total_skip=0
failed_suites=""
run_suite() {
    name=$1; shift
    echo "=== $name"
    out=$( "$@" 2>&1 ); rc=$?
    printf '%s\n' "$out"
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' | tail -n 1)
    s=0
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
        case "$line" in *skipped) s=$(echo "$line" | sed -E 's/.*failed, ([0-9]+) skipped$/\1/') ;; esac
    else
        p=0; f=1
    fi
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    total_skip=$((total_skip + s))
    [ "$f" -ne 0 ] && failed_suites="$failed_suites $name"
}
make -s all >/dev/null || { echo "build failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
run_suite unit env GMS_BIN=build/gpumemsim build/gms_tests
run_suite cli env GMS_BIN=build/gpumemsim sh tests/cli_tests.sh
if [ "${1:-}" != "--quick" ]; then
    if make -s BUILD=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
        LDFLAGS="-fsanitize=address,undefined" build-asan/gms_tests build-asan/gpumemsim >/dev/null; then
        run_suite unit-asan env GMS_BIN=build-asan/gpumemsim GMS_QUICK=1 build-asan/gms_tests
        # the CLI's error paths (bad input, trace and config errors) under the sanitizers too
        run_suite cli-asan env GMS_BIN=build-asan/gpumemsim sh tests/cli_tests.sh
        # mechanisms combined (docs/fuzzing.md): 32 seeded combinations, no crash, watchdog,
        # sanitizer report or hang
        run_suite combo env GMS_BIN=build-asan/gpumemsim TMAX=300 sh fuzz/combo_sweep.sh 32 2026
        # random traces through the whole simulator (docs/fuzzing.md): 48 seeded traces
        run_suite trace-fuzz env GMS_BIN=build-asan/gpumemsim TMAX=300 sh fuzz/trace_sweep.sh 48 2026
    else
        echo "sanitizer build failed"; total_fail=$((total_fail + 1)); failed_suites="$failed_suites asan-build"
    fi
    # host-speed options promise identical results: 24 combinations, each against the
    # shortcuts off (docs/fuzzing.md)
    run_suite combo-diff env GMS_BIN=build/gpumemsim DIFF=1 TMAX=120 sh fuzz/combo_sweep.sh 24 2027
    run_suite trace-fuzz-diff env GMS_BIN=build/gpumemsim DIFF=1 TMAX=120 sh fuzz/trace_sweep.sh 32 2027
    run_suite e2e env GMS_BIN=build/gpumemsim sh tests/e2e_workloads.sh
    run_suite fidelity env GMS_BIN=build/gpumemsim sh tests/fidelity_ref.sh
    if [ -f tests/harness/run_all.sh ]; then
        run_suite harness env GMS_BIN=build/gpumemsim sh tests/harness/run_all.sh
    fi
fi
[ -n "$failed_suites" ] && echo "failed suites:$failed_suites"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
