#!/bin/sh
# Planning: counts and ids for a known spec, ids stable across edits that do not change a
# point, and one clear error (file:line, non-zero exit) for each kind of bad input.
T=plan
. "$(dirname "$0")/lib.sh"
cd "$WORK"
cat > s.sweep <<SPEC
config   $CONFIG
baseline base
seeds    1 2
variant  base
variant  lat gpgpu_l1_latency={10|40}
workload stream n=4096 group mem
workload stream as s2 n=8192 group mem
workload stream as s3 n=16384
exclude  variant=lat-40 workload=s3 seed=2
SPEC
"$BIN" sweep plan s.sweep > plan1.txt 2> err.txt
check "plan exits 0" [ $? -eq 0 ]
check "plan counts 17 points" grep -q "^17 points (3 variants x 3 workloads x 2 seeds, 1 excluded)" plan1.txt
n=$(awk 'NR > 1 && length($2) == 16 && $2 ~ /^[0-9a-f]+$/ { print $2 }' plan1.txt | sort -u | wc -l)
check "17 distinct 16-hex ids" [ "$n" -eq 17 ]
# --only: the matching points, with the ids they have in the whole plan
"$BIN" sweep plan s.sweep --only variant=lat-* --only workload=s3 > only.txt 2> err.txt
check "--only plan exits 0" [ $? -eq 0 ]
check "--only: 3 points, 14 left out" grep -q "^3 points (3 variants x 3 workloads x 2 seeds, 1 excluded, 14 left out by --only)" only.txt
awk 'NR > 1 && length($2) == 16 { print $2 }' only.txt | sort > only.ids
awk 'NR > 1 && length($2) == 16 { print $2 }' plan1.txt | sort > all.ids
check "--only: ids are the whole plan's" [ "$(comm -23 only.ids all.ids | wc -l)" -eq 0 ]
check "--only: 3 ids" [ "$(wc -l < only.ids)" -eq 3 ]
"$BIN" sweep plan s.sweep --only group=cpu > /dev/null 2> err.txt
check "--only naming nothing: exit 1" [ $? -eq 1 ]
check "--only naming nothing: said" grep -q "only group=cpu: s.sweep has no workload group of that name" err.txt
# the same points, renamed, reordered, with a variant added: the old ids are kept
cat > s2.sweep <<SPEC
seeds    2 1
config   $CONFIG
workload stream as s3 n=16384
workload stream as small n=4096
variant  slow gpgpu_l1_latency=40
variant  reference
variant  extra gpgpu_l1_latency=7
SPEC
"$BIN" sweep plan s2.sweep > plan2.txt
check "ids survive renaming and reordering" [ "$(plan_id plan1.txt base stream 1)" = "$(plan_id plan2.txt reference small 1)" ]
check "ids survive renaming (variant with settings)" [ "$(plan_id plan1.txt lat-40 s3 1)" = "$(plan_id plan2.txt slow s3 1)" ]
check "a changed setting gives a new id" [ -z "$(awk 'NR > 1 { print $2 }' plan2.txt | grep -x "$(plan_id plan1.txt lat-10 stream 1)")" ]

# bad input: one clear error naming file:line, exit non-zero
expect_err() {  # NAME SPEC-TEXT NEEDLE
    printf '%s\n' "$2" > bad.sweep
    if "$BIN" sweep plan bad.sweep > /dev/null 2> err.txt; then bad "$1 (exit 0)"; return; fi
    if grep -qF "$3" err.txt; then ok "$1"; else bad "$1: got: $(cat err.txt)"; fi
}
expect_err "unknown option" "config $CONFIG
variant a
variant b gpgpu_l1_latncy=3
workload stream" "bad.sweep:3: variant 'b': --set unknown option -gpgpu_l1_latncy: neither a gpumemsim nor a GPGPU-Sim option (did you mean -gpgpu_l1_latency?"
expect_err "duplicate variant" "config $CONFIG
variant a
variant a gpgpu_l1_latency=3
workload stream" "bad.sweep:3: duplicate variant name 'a' (first defined at line 2)"
expect_err "baseline not in spec" "config $CONFIG
baseline nope
variant a
workload stream" "bad.sweep:2: baseline 'nope' is not a variant of this sweep (variants: a)"
expect_err "empty product" "config $CONFIG
variant a
workload stream
exclude workload=stream" "the sweep has no points: all 1 are excluded"
expect_err "unknown workload" "config $CONFIG
variant a
workload streem" "bad.sweep:3: unknown workload 'streem'"
expect_err "unknown workload parameter" "config $CONFIG
variant a
workload stream nn=4" "bad.sweep:3: workload stream: unknown parameter 'nn'"
expect_err "missing config file" "config nowhere.config
variant a
workload stream" "bad.sweep:2: variant 'a': "
n=$(wc -l < err.txt)
check "an error is one line" [ "$n" -eq 1 ]

# sbatch not found: one clear error
PATH=/nonexistent "$BIN" sweep run s.sweep --slurm > /dev/null 2> err.txt
rc=$?
check "sbatch not found: exit non-zero" [ $rc -ne 0 ]
check "sbatch not found: clear error" grep -q "sbatch not found in PATH" err.txt

# a store from a newer schema: a clear error
"$BIN" sweep collect s.sweep > /dev/null 2>&1
if command -v sqlite3 > /dev/null 2>&1; then
    sqlite3 s.db "UPDATE schema_version SET version = 999"
    "$BIN" report s.db > /dev/null 2> err.txt
    rc=$?
    check "newer schema: exit non-zero" [ $rc -ne 0 ]
    check "newer schema: clear error" grep -q "schema version 999, newer than this gpumemsim" err.txt
else
    skip "newer schema (no sqlite3 command; covered by the unit test harness_store_retry_and_schema)"
fi
summary
