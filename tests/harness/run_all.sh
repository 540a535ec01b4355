#!/bin/sh
# Sweep harness tests (tests/harness/test_*.sh) against GMS_BIN (default build/gpumemsim).
# Prints each check's line and ends with "N passed, N failed, N skipped"; exits non-zero on
# a failure. The Slurm test skips itself, saying why, when no Slurm answers (.ci/slurm-up.sh
# starts one); under CI=true that skip is a failure.
cd "$(dirname "$0")/../.." || exit 1
: "${GMS_BIN:=build/gpumemsim}"
export GMS_BIN
if [ ! -x "$GMS_BIN" ]; then echo "FAIL harness: $GMS_BIN is not built"; echo "0 passed, 1 failed, 0 skipped"; exit 1; fi
pass=0
fail=0
skip=0
start=$(date +%s)
for t in tests/harness/test_*.sh; do
    out=$(sh "$t" 2>&1)
    rc=$?
    sum_re='^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'
    printf '%s\n' "$out" | grep -v -E "$sum_re"
    line=$(printf '%s\n' "$out" | grep -E "$sum_re" | tail -n 1)
    s=0
    if [ -n "$line" ]; then
        p=${line%% passed*}
        f=${line#*passed, }; f=${f%% failed*}
        case "$line" in *skipped) s=${line#*failed, }; s=${s%% skipped} ;; esac
    else
        echo "FAIL $t: no summary line (crashed?)"
        p=0; f=1
    fi
    [ $rc -ne 0 ] && [ "$f" -eq 0 ] && { echo "FAIL $t: exit $rc"; f=1; }
    pass=$((pass + p))
    fail=$((fail + f))
    skip=$((skip + s))
done
echo "harness tests took $(( $(date +%s) - start )) s"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
