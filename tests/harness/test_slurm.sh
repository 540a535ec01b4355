#!/bin/sh
# The Slurm runner against the real local Slurm (.ci/slurm-up.sh starts it): an 8-point
# sweep submitted as a job array, waited for and collected, gives the same stored stats as
# the local runner. Skipped, saying why, when no Slurm controller answers; under CI=true
# (CI starts the Slurm) that is a failure.
T=slurm
. "$(dirname "$0")/lib.sh"
if ! command -v sbatch > /dev/null 2>&1 || ! command -v squeue > /dev/null 2>&1; then
    skip_ci_service "Slurm is not installed (run .ci/slurm-up.sh as root)"; summary; exit
fi
if ! timeout 20 sinfo -h -o '%T' 2> /dev/null | grep -qE '^(idle|mixed|allocated)'; then
    skip_ci_service "no Slurm controller or node answers (run .ci/slurm-up.sh as root)"; summary; exit
fi
cd "$WORK"
for kind in local slurm; do
    cat > $kind.sweep <<SPEC
config   $CONFIG
seeds    1 2
variant  base
variant  lat gpgpu_l1_latency=60
workload stream as s1 n=4096
workload stream as s2 n=8192
SPEC
done
"$BIN" sweep run local.sweep -j 2 > /dev/null 2>&1
check "local run" [ $? -eq 0 ]
"$BIN" sweep run slurm.sweep --slurm --wait --poll 0.5 --time 10 > slurm.out 2> slurm.err
rc=$?
check "sweep run --slurm --wait exits 0" [ $rc -eq 0 ] || cat slurm.err
check "submitted one job array of 8 tasks" grep -q "submitted Slurm job array [0-9]*: 8 task(s) for 8 point(s)" slurm.err
check "collected 8" grep -q "collected: 8 new ok, 0 new failed" slurm.err
export_sim local.db > local.csv
export_sim slurm.db > slurm.csv
check "same stored stats as the local runner" cmp -s local.csv slurm.csv
check "stats are not empty" [ "$(grep -c ',total,0,' slurm.csv)" -ge 8 ]
check "task logs written" [ "$(ls slurm.results/slurm/logs/*.log | wc -l)" -eq 8 ]
# submitting again has nothing to do
"$BIN" sweep run slurm.sweep --slurm > again.out 2> again.err
check "resubmit: nothing to submit" grep -q "8 done, 0 queued or running, 0 to submit" again.err
# run-point is idempotent: a repeated (requeued) task skips a point that is done
list=$(ls slurm.results/slurm/*.list | head -1)
"$BIN" sweep run-point "$WORK/slurm.sweep" --list "$list" --index 0 > rp.out 2>&1
check "a repeated task skips its done point" grep -q "already done, skipped" rp.out
"$BIN" sweep collect slurm.sweep > col.out
check "collect after that adds nothing" grep -q "0 new ok, 0 new failed, 8 already stored" col.out

# repro on Slurm: the array's tasks write where `repro run --out` collects (they wrote into the
# study's own folder, and every claim came out "no data"), and the next step names that output
mkdir -p studies/tiny
cat > studies/tiny/quick.sweep <<SPEC
config   $CONFIG
baseline base
variant  base
variant  slow gpgpu_l1_latency=200
workload stream as s1 n=4096
SPEC
cat > studies/tiny/claims <<'CLAIMS'
claim T1
  says "a slower L1 lowers IPC"
  paper "lower"
  metric speedup(gpu_tot_ipc, slow, base)
  holds < 1
CLAIMS
"$BIN" repro run tiny --slurm --wait --repro-dir studies --out rout > rs.out 2> rs.err
rc=$?
check "repro run --slurm --wait exits 0 (exit $rc)" [ $rc -eq 0 ] || cat rs.err
check "repro on Slurm: the claim has its data" [ "$(tail -n 1 rs.out)" = "tiny: 1 of 1 claims hold, 0 not yet runnable" ]
check "repro on Slurm: results under --out" [ "$(ls rout/tiny-quick.results/*.json 2> /dev/null | wc -l)" -eq 2 ]
check "repro on Slurm: nothing in the study's folder" [ ! -e studies/tiny/quick.results ]
"$BIN" repro run tiny --slurm --repro-dir studies --out rout2 > rs2.out 2> rs2.err
check "repro submit without --wait says how to report" grep -q "then: gpumemsim repro report tiny --quick --out .*rout2 --repro-dir" rs2.err
jid=$(sed -n 's/^submitted Slurm job array \([0-9]*\).*/\1/p' rs2.err)
[ -n "$jid" ] && scancel "$jid" 2> /dev/null
"$BIN" repro run tiny --slurm --dry-run --repro-dir studies --out rout3 > rs3.out 2> rs3.err
check "repro --slurm --dry-run writes the script only" grep -q "dry run: would submit" rs3.err
check "the script names the --out results" grep -q -- "--results .*rout3/tiny-quick.results" rout3/tiny-quick.results/slurm/*.sh
summary
