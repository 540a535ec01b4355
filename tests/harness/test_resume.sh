#!/bin/sh
# Stopping and resuming: kill -9 of the runner midway, then `sweep run` again: every point is
# in the store exactly once and no torn file is left; SIGINT stops cleanly (exit 130, no
# child left running) and a second run finishes the rest.
T=resume
. "$(dirname "$0")/lib.sh"
cd "$WORK"
cat > s.sweep <<SPEC
config   $CONFIG
seeds    1..4
variant  base
variant  lat gpgpu_l1_latency=60
workload stream n=${GMS_RESUME_N:-65536}
SPEC
# wait until at least $2 result files exist (max 60 s)
wait_results() {
    for _ in $(seq 1 600); do
        [ "$(ls s.results/*.json 2> /dev/null | wc -l)" -ge "$1" ] && return 0
        sleep 0.1
    done
    return 1
}
"$BIN" sweep run s.sweep -j 2 > /dev/null 2> run1.err &
pid=$!
wait_results 2
kill -9 $pid
wait $pid 2> /dev/null
sleep 0.3
done1=$(ls s.results/*.json | wc -l)
check "killed midway ($done1 of 8 done)" [ "$done1" -ge 2 ] && [ "$done1" -lt 8 ]
left=$(ps -eo pid,args | grep -F "$WORK/s.results" | grep -v grep | wc -l)
check "no child left running after kill -9" [ "$left" -eq 0 ]
"$BIN" sweep run s.sweep -j 2 > /dev/null 2> run2.err
check "resume exits 0" [ $? -eq 0 ]
check "resume runs only the rest" grep -q "$done1 done, $((8 - done1)) to run" run2.err
"$BIN" sweep export s.db --runs > runs.csv
check "every point exactly once in the store" [ "$(awk -F, 'NR > 1 { print $1 }' runs.csv | sort -u | wc -l)" -eq 8 ] &&
    [ "$(awk -F, 'NR > 1 && $7 == "ok"' runs.csv | wc -l)" -eq 8 ]
check "no temporary files left" [ -z "$(find s.results -name '*.part' -o -name '*.stats.json' -o -name '*.running')" ]
check "no stale tmp directories" [ -z "$(find s.results/tmp -mindepth 1)" ]

# SIGINT: clean stop, then resume
rm -rf s.results s.db
"$BIN" sweep run s.sweep -j 2 > /dev/null 2> int.err &
pid=$!
wait_results 1
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130" [ $rc -eq 130 ]
check "SIGINT: says how to resume" grep -q "resumes" int.err
left=$(ps -eo pid,args | grep -F "$WORK/s.results" | grep -v grep | wc -l)
check "SIGINT: no child left running" [ "$left" -eq 0 ]
check "SIGINT: no temporary files left" [ -z "$(find s.results -name '*.part' -o -name '*.stats.json' -o -name '*.running' -o -name '*.stderr')" ]
"$BIN" sweep run s.sweep -j 2 > /dev/null 2>&1
"$BIN" sweep status s.sweep > st.txt
check "SIGINT then resume: all 8 done" grep -q "done     8" st.txt
"$BIN" sweep export s.db --runs > runs.csv
check "SIGINT then resume: one run per point" [ "$(awk -F, 'NR > 1' runs.csv | wc -l)" -eq 8 ]
summary
