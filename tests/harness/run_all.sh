#!/bin/sh
# Sweep harness tests (tests/harness/test_*.sh) against GMS_BIN (default build/gpumemsim).
# Prints each check's line and ends with "N passed, N failed"; exits non-zero on a failure.
# The Slurm test skips itself, saying why, when no Slurm answers (.ci/slurm-up.sh starts one).
cd "$(dirname "$0")/../.." || exit 1
: "${GMS_BIN:=build/gpumemsim}"
export GMS_BIN
if [ ! -x "$GMS_BIN" ]; then echo "FAIL harness: $GMS_BIN is not built"; echo "0 passed, 1 failed"; exit 1; fi
pass=0
fail=0
start=$(date +%s)
for t in tests/harness/test_*.sh; do
    out=$(sh "$t" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$'
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    if [ -n "$line" ]; then
        p=${line%% passed*}
        f=${line#*passed, }; f=${f%% failed*}
    else
        echo "FAIL $t: no summary line (crashed?)"
        p=0; f=1
    fi
    [ $rc -ne 0 ] && [ "$f" -eq 0 ] && { echo "FAIL $t: exit $rc"; f=1; }
    pass=$((pass + p))
    fail=$((fail + f))
done
echo "harness tests took $(( $(date +%s) - start )) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
