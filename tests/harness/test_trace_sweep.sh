#!/bin/sh
# Traces as sweep points (`trace LABEL PATH [group G]`): a sweep of a trace and a built-in
# workload under two variants runs `run --trace`, stores the same statistics as the trace run
# by hand, ids the point by the path as written; a bad trace line, a missing file and a
# variant's workload parameter on a trace are errors at plan time, with file and line.
T=trace-sweep
. "$(dirname "$0")/lib.sh"
cd "$WORK"
mkdir -p study/traces && cp -r "$ROOT/tests/data/traces/mixed" study/traces/
# (the mixed trace's Ampere kernel has a uniform-datapath UIADD3: specialised unit 4, which the
# QV100 config does not enable, and Accel-Sim aborts without)
UDP=specialized_unit_4=1,4,4,4,4,UDP
cat > study/s.sweep <<SPEC
config   $CONFIG
baseline base
variant  base $UDP
variant  lat $UDP gpgpu_l1_latency=60
trace    mixed traces/mixed/kernelslist.g group tr
workload stream n=4096 group wl
SPEC
"$BIN" sweep plan -v study/s.sweep > plan.txt 2>&1
check "plan has 4 points" grep -q "4 points" plan.txt
check "the point runs run --trace with the resolved path" grep -q -- "--trace $WORK/study/traces/mixed/kernelslist.g" plan.txt
# the id hashes the path as written: the study moved elsewhere keeps its ids
cp -r study moved
"$BIN" sweep plan study/s.sweep | awk '$2 ~ /^[0-9a-f]+$/ { print $2 }' > ids1.txt
"$BIN" sweep plan moved/s.sweep | awk '$2 ~ /^[0-9a-f]+$/ { print $2 }' > ids2.txt
check "a moved study keeps its trace ids" sh -c '[ "$(wc -l < ids1.txt)" -eq 4 ] && cmp -s ids1.txt ids2.txt'
"$BIN" sweep run study/s.sweep -j 2 > run.out 2> run.err
rc=$?
check "sweep run exits 0" [ $rc -eq 0 ]
check "progress lines, one per point" [ "$(grep -c '^\[[0-9]*/4\] ok ' run.err)" -eq 4 ]
"$BIN" sweep plan study/s.sweep > ids.txt
"$BIN" sweep export study/s.db > export.csv
for v in base lat; do
    set -- --config "$CONFIG" --set $UDP
    [ $v = lat ] && set -- "$@" --set gpgpu_l1_latency=60
    "$BIN" run "$@" --trace study/traces/mixed/kernelslist.g --seed 1 --stats-json "one_$v.json" --quiet > /dev/null 2> one.err ||
        echo "individual run failed: $(cat one.err)"
    json_totals "one_$v.json" > a.txt
    export_totals export.csv "$(plan_id ids.txt $v mixed 1)" > b.txt
    check "trace point $v = the trace run by hand" sh -c '[ -s a.txt ] && cmp -s a.txt b.txt'
done
b=$(json_totals one_base.json | awk '$1 == "gpu_tot_sim_cycle" { print $2 }')
l=$(json_totals one_lat.json | awk '$1 == "gpu_tot_sim_cycle" { print $2 }')
check "the variants differ on the trace ($b vs $l cycles)" [ -n "$b" ] && [ -n "$l" ] && [ "$b" != "$l" ]

# errors at plan time
expect_plan_error() {  # NAME SPEC-TEXT MESSAGE
    printf '%s\n' "$2" > study/bad.sweep
    "$BIN" sweep plan study/bad.sweep > bad.out 2>&1
    brc=$?
    if [ $brc -ne 0 ] && grep -q -- "$3" bad.out; then ok "$1"; else bad "$1: rc=$brc, $(head -2 bad.out)"; fi
}
expect_plan_error "a trace takes no parameters" "config $CONFIG
variant base
trace mixed traces/mixed/kernelslist.g n=4" "bad.sweep:3: trace 'mixed': unexpected 'n=4'"
expect_plan_error "a trace needs a path" "config $CONFIG
variant base
trace mixed" "bad.sweep:3: 'trace' needs a label and a kernelslist.g path"
expect_plan_error "a missing trace file" "config $CONFIG
variant base
trace gone traces/none/kernelslist.g" "bad.sweep:3: trace 'gone': cannot read"
expect_plan_error "a variant's workload parameter on a trace" "config $CONFIG
variant base
variant um param.uvm=1
trace mixed traces/mixed/kernelslist.g
workload stream n=4096" "bad.sweep:3: variant 'um' sets workload parameter 'uvm', which trace 'mixed' does not take"
expect_plan_error "a label shared with a workload" "config $CONFIG
variant base
workload stream
trace stream traces/mixed/kernelslist.g" "bad.sweep:4: duplicate workload 'stream'"
printf '%s\n' "config $CONFIG
variant base
variant um param.uvm=1
trace mixed traces/mixed/kernelslist.g
workload stream n=4096
exclude variant=um workload=mixed" > study/ex.sweep
"$BIN" sweep plan study/ex.sweep > ex.out 2>&1
check "the pair excluded, the parameter is no error" sh -c "grep -q '3 points' ex.out"
summary
