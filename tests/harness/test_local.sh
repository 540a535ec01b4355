#!/bin/sh
# The local runner: a 6-point sweep whose stored stats and report match six individual
# runs; a failing point recorded as failed while the others finish; collecting again
# changes nothing; report and plot outputs.
T=local
. "$(dirname "$0")/lib.sh"
cd "$WORK"
cat > s.sweep <<SPEC
config   $CONFIG
baseline base
seeds    1
variant  base
variant  lat gpgpu_l1_latency=60
workload stream as s1 n=4096 group small
workload stream as s2 n=8192 group small
workload stream as s3 n=16384 group big
SPEC
"$BIN" sweep plan s.sweep > plan.txt
"$BIN" sweep run s.sweep -j 2 > run.out 2> run.err
rc=$?
check "sweep run exits 0" [ $rc -eq 0 ]
check "progress lines, one per point" [ "$(grep -c '^\[[0-9]*/6\] ok ' run.err)" -eq 6 ]
"$BIN" sweep export s.db > export.csv
check "export has rows" [ "$(wc -l < export.csv)" -gt 6 ]

# the six points run one by one, by hand
i=0
same=0
for v in base lat; do
    for w in s1:4096 s2:8192 s3:16384; do
        label=${w%%:*}; n=${w#*:}
        set -- --config "$CONFIG"
        [ $v = lat ] && set -- "$@" --set gpgpu_l1_latency=60
        "$BIN" run "$@" --workload stream --set n=$n --seed 1 --stats-json "one_${v}_$label.json" --quiet > /dev/null 2> one.err ||
            echo "individual run failed: $(cat one.err)"
        id=$(plan_id plan.txt $v $label 1)
        json_totals "one_${v}_$label.json" > a.txt
        export_totals export.csv "$id" > b.txt
        if [ -s a.txt ] && cmp -s a.txt b.txt; then same=$((same + 1)); else diff a.txt b.txt | head -5; fi
        i=$((i + 1))
    done
done
check "stored stats equal the 6 individual runs" [ "$same" -eq 6 ]

# the report: normalised values from the individual runs' gpu_tot_ipc
"$BIN" report s.db --metric gpu_tot_ipc --csv > rep.csv 2> rep.err
check "report --csv exits 0" [ $? -eq 0 ]
ok_rows=0
for label in s1 s2 s3; do
    b=$(json_totals "one_base_$label.json" | awk '$1 == "gpu_tot_ipc" { print $2 }')
    l=$(json_totals "one_lat_$label.json" | awk '$1 == "gpu_tot_ipc" { print $2 }')
    got=$(awk -F, -v w=$label '$1 == w { print $4 }' rep.csv)
    if awk -v b="$b" -v l="$l" -v g="$got" 'BEGIN { e = l / b; d = g - e; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-7 * e) }'; then
        ok_rows=$((ok_rows + 1))
    else
        echo "  $label: base $b lat $l report $got"
    fi
done
check "report rows = individual lat/base ratios" [ "$ok_rows" -eq 3 ]
gm=$(awk -F, '$1 == "geomean" && $2 == "all" { print $4 }' rep.csv)
want=$(for label in s1 s2 s3; do
    b=$(json_totals "one_base_$label.json" | awk '$1 == "gpu_tot_ipc" { print $2 }')
    l=$(json_totals "one_lat_$label.json" | awk '$1 == "gpu_tot_ipc" { print $2 }')
    echo "$b $l"; done | awk '{ s += log($2 / $1) } END { printf "%.9g", exp(s / NR) }')
check "report geomean = geomean of the ratios" awk -v a="$gm" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-7 * b) }'
check "report groups" grep -q "^geomean,small," rep.csv
"$BIN" report s.sweep > rep.md
check "markdown report" grep -q "^| \*\*geomean\*\* | all |" rep.md

# collecting again changes nothing
"$BIN" sweep collect s.sweep > col.out
check "re-collect adds nothing" grep -q "0 new ok, 0 new failed, 6 already stored" col.out
"$BIN" sweep export s.db > export2.csv
"$BIN" sweep export s.db --runs | awk -F, 'NR > 1 { print $1, $6 }' > runs2.txt
check "re-collect: same stats" cmp -s export.csv export2.csv
check "re-collect: one run per point" [ "$(wc -l < runs2.txt)" -eq 6 ]
"$BIN" sweep run s.sweep -j 2 > /dev/null 2> rerun.err
check "run again: nothing to do" grep -q "6 done, 0 to run" rerun.err

# a failing point is recorded as failed while the others finish
cat >> s.sweep <<SPEC
workload stream as bad n=4096 block=2000
SPEC
"$BIN" sweep run s.sweep -j 2 > /dev/null 2> fail.err
rc=$?
check "a failed point: exit 1" [ $rc -eq 1 ]
check "the failure is reported" grep -q "FAILED .*bad" fail.err
"$BIN" sweep status s.sweep > st.txt
check "status: 6 done, 2 failed" sh -c "grep -q 'done     6' st.txt && grep -q 'failed   2' st.txt"
check "status shows the error" grep -q "failed .* / bad / seed 1: .*block" st.txt
"$BIN" report s.db --csv > rep2.csv
check "report shows failed, not 0" grep -q "^bad,,failed,failed" rep2.csv
check "old rows unchanged" [ "$(grep '^s1,' rep.csv)" = "$(grep '^s1,' rep2.csv)" ]

# 'kernel_stats totals': result files keep each kernel's name but not its statistics; the
# stored totals are the individual run's
mkdir kt && cat > kt/k.sweep <<SPEC
config   $CONFIG
kernel_stats totals
variant  base
workload stream as s1 n=4096
SPEC
"$BIN" sweep run kt/k.sweep > /dev/null 2> kt/run.err
check "kernel_stats totals: sweep runs" grep -q "1 run in" kt/run.err
kf=$(ls kt/k.results/*.json 2>/dev/null | head -1)
check "kernel_stats totals: the kernel's name is kept" grep -q '"name":"_Z6vecAddPKfS0_Pfi"' "$kf"
check "kernel_stats totals: no per-kernel stats" sh -c "! grep -q 'gpu_sim_cycle' '$kf'"
id=$(awk -F'"' '/"point_id"/ { print $4; exit }' "$kf")
"$BIN" sweep export kt/k.db > kt/export.csv
export_totals kt/export.csv "$id" > kt/b.txt
json_totals one_base_s1.json > kt/a.txt
check "kernel_stats totals: totals as an individual run's" cmp -s kt/a.txt kt/b.txt

# two runners on the same new store at once: both open it (the second waits for the first's
# schema), and each point runs once (a point's marker is taken exclusively before it starts)
mkdir two && cat > two/t.sweep <<SPEC
config   $CONFIG
variant  base
variant  lat gpgpu_l1_latency={10|20|40}
workload stream as s1 n=4096
workload stream as s2 n=8192
workload gather as g1 n=4096
SPEC
"$BIN" sweep run two/t.sweep > two/a.out 2> two/a.err &
"$BIN" sweep run two/t.sweep > two/b.out 2> two/b.err
wait
check "two runners: no store error" sh -c "! grep -q -i 'schema\|error' two/a.err two/b.err"
check "two runners: every point ran once" [ "$(cat two/a.err two/b.err | grep -c '\] ok ')" -eq 12 ]

# figures (gnuplot)
if command -v gnuplot > /dev/null 2>&1; then
    "$BIN" report s.db --plot bars.png > /dev/null 2>&1
    check "report --plot png" [ -s bars.png ]
    "$BIN" report s.db --plot bars.svg > /dev/null 2>&1
    check "report --plot svg" grep -q "<svg" bars.svg
    "$BIN" plot s.db --metric gpu_tot_ipc --x n --out lines.png 2> plot.err
    check "plot lines" [ -s lines.png ]
    check "plot: one line per workload and other setting" grep -q "4 line(s)" plot.err
    "$BIN" plot s.db --x gpgpu_l1_latency --baseline base --out norm.png 2> norm.err
    check "plot normalised to a baseline" [ -s norm.png ]
    check "plot normalised: the four workloads at latency 60 (bad: failed)" grep -q "4 line(s), 4 point(s)" norm.err
    "$BIN" plot s.db --x n --baseline base --out bad.png 2> bad.err
    check "plot --baseline needs a config setting as x" grep -q "need x to be a config setting" bad.err
    # a series inside one run's output: MDB's chosen L per SM against the cycle (15 SMs)
    "$BIN" run --config "$ROOT/configs/gtx480.config" --workload gather --set n=262144 -gms_l1d_bypass mdb-local > mdb.txt 2> /dev/null
    "$BIN" plot series mdb.txt --y 'gms_mdb_series[sm*][*]_L' --x 'gms_mdb_series[sm*][*]_cycle' --out mdbL.svg 2> series.err
    check "plot series: one line per SM" grep -q "wrote mdbL.svg: 15 line(s)" series.err
    check "plot series: an svg" grep -q "<svg" mdbL.svg
else
    skip_ci_service "figures (gnuplot not installed: apt-get install gnuplot-nox)"
fi
summary
