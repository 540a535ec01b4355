# Sweep harness and report/plot/list/config command lines: bad result files, bad spec values
# and bad arguments each get one clear line (sourced by tests/cli_tests.sh: BIN, T, ok, bad,
# expect_ok, expect_fail). No simulation runs here: result files are written by hand.
H="$T/hin"
mkdir -p "$H"
cat > "$H/c.sweep" <<EOS
config $PWD/configs/qv100.config
db c.db
results c.results
variant a
variant b gpgpu_l1_latency=40
workload stream n=4096
workload stream as s2 n=8192
EOS
$BIN sweep plan "$H/c.sweep" > "$H/plan.txt" 2>"$T/err"
set -- $(awk 'NR > 1 && NF == 5 && length($2) == 16 { print $2 }' "$H/plan.txt")
if [ $# -eq 4 ]; then
    mkdir -p "$H/c.results"
    hin_res() {   # ID POINT_ID STATUS EXTRA: a result file as the runner writes it
        printf '{"format": "gpumemsim-sweep-point 1", "point_id": "%s", "attempt": "t:%s", "status": "%s", "exit_code": 0, "error": ""%s}\n' \
            "$2" "$1" "$3" "$4" > "$H/c.results/$1.json"
    }
    hin_res "$1" "$1" ok ''                                                   # ok without stats
    hin_res "$2" "$2" weird ', "stats": {"total": {"x": 1}}'                   # unknown status
    hin_res "$3" "$3" ok ', "stats": {"total": {"x": 2, "name": "abc"}}'       # a string stat
    hin_res "$4" "$3" ok ', "stats": {"total": {"x": 3}}'                      # another point's id
    $BIN sweep collect "$H/c.sweep" > "$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ] && grep -q '1 new ok, 0 new failed' "$T/out" \
       && grep -q "$1.json: status \"ok\" but no \"stats\" object" "$T/err" \
       && grep -q "$2.json: field \"status\" is \"weird\"" "$T/err" \
       && grep -q "$3.json: stat \"name\" has a string value" "$T/err" \
       && grep -q "$4.json: the file holds point $3, not $4; not collected" "$T/err" \
       && [ "$(wc -l < "$T/err")" -eq 4 ]; then
        ok sweep_collect_warns_bad_results_and_keeps_the_rest; else bad "sweep_collect_warns_bad_results_and_keeps_the_rest (rc=$rc)"; fi
    $BIN sweep export "$H/c.sweep" > "$T/out" 2>"$T/err"
    if grep -q "^$3,.*,ok,total,0,x,2$" "$T/out" && ! grep -q ',name,' "$T/out" && [ "$(grep -c ',ok,' "$T/out")" -eq 1 ]; then
        ok sweep_collect_stores_only_good_results; else bad sweep_collect_stores_only_good_results; fi
    $BIN sweep status "$H/c.sweep" > "$T/out" 2>"$T/err"
    if grep -q '^  done     1$' "$T/out" && grep -q '^  failed   3$' "$T/out"; then
        ok sweep_status_ok_without_stats_not_done; else bad sweep_status_ok_without_stats_not_done; fi
    # a result file without its attempt: warned and skipped, the others stay collected
    printf '{"format": "gpumemsim-sweep-point 1", "point_id": "%s", "status": "ok", "stats": {"total": {"x": 4}}}\n' \
        "$4" > "$H/c.results/$4.json"
    $BIN sweep collect "$H/c.sweep" > "$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ] && grep -q "$4.json: result without attempt; not collected" "$T/err" \
       && $BIN sweep export "$H/c.sweep" 2>/dev/null | grep -q "^$3,.*,ok,total,0,x,2$"; then
        ok sweep_collect_skips_result_without_attempt; else bad "sweep_collect_skips_result_without_attempt (rc=$rc)"; fi
    # a baseline that sets x itself would normalise every point to itself
    expect_fail plot_baseline_setting_x_refused "baseline b sets gpgpu_l1_latency=40 itself" \
        $BIN plot "$H/c.db" --metric x --x gpgpu_l1_latency --baseline b --out "$H/p.svg"
else
    bad "sweep_collect_warns_bad_results_and_keeps_the_rest (plan has $# points, not 4)"
fi

# a setting equal to the config's own value (qv100: gpgpu_l1_latency 20) runs the base
# simulation: a warning naming both variants, and both are planned
v=$(grep -E '^-?gpgpu_l1_latency' configs/qv100.config | awk '{print $2}')
printf 'config %s/configs/qv100.config\nvariant a\nvariant b gpgpu_l1_latency=%s\nworkload stream n=4096\n' "$PWD" "$v" > "$H/same.sweep"
$BIN sweep plan "$H/same.sweep" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "warning: .*same.sweep:3: variants 'a' and 'b' run exactly the same simulation.*both are run" "$T/err" &&
   grep -q '2 points' "$T/out"; then ok sweep_same_sim_config_value_warned
else bad "sweep_same_sim_config_value_warned (rc=$rc)"; fi
for t in inf 1e20 99999999999999999999; do
    printf 'config %s/configs/qv100.config\ntimeout %s\nvariant a\nworkload stream n=4096\n' "$PWD" "$t" > "$H/to.sweep"
    expect_fail "sweep_timeout_${t}_refused" "to.sweep:2: timeout '$t' is out of range" $BIN sweep plan "$H/to.sweep"
done
printf 'config %s/configs/qv100.config\ntimeout 0\nvariant a\nworkload stream n=4096\n' "$PWD" > "$H/to0.sweep"
expect_ok sweep_timeout_0_is_no_limit $BIN sweep plan "$H/to0.sweep"

# a --bin that cannot run: one error, no point started
printf 'config %s/configs/qv100.config\ndb r.db\nresults r.results\nvariant a\nworkload stream n=4096\n' "$PWD" > "$H/r.sweep"
expect_fail sweep_run_missing_bin_refused "^gpumemsim sweep: --bin $H/nobin: No such file" $BIN sweep run "$H/r.sweep" --bin "$H/nobin"
if [ "$(wc -l < "$T/err")" -eq 1 ] && ! ls "$H/r.results/"*.json >/dev/null 2>&1; then
    ok sweep_run_missing_bin_runs_nothing; else bad sweep_run_missing_bin_runs_nothing; fi
: > "$H/noexec"
expect_fail sweep_run_bin_not_executable "not executable" $BIN sweep run "$H/r.sweep" --bin "$H/noexec"

# status refuses a db that is not SQLite, as run and collect do
echo 'not a database' > "$H/text.db"
printf 'config %s/configs/qv100.config\ndb text.db\nvariant a\nworkload stream n=4096\n' "$PWD" > "$H/t.sweep"
expect_fail sweep_status_not_sqlite_refused "text.db" $BIN sweep status "$H/t.sweep"
expect_fail sweep_collect_not_sqlite_refused "text.db" $BIN sweep collect "$H/t.sweep"

# one line naming what is missing or wrong, no usage dump
one_line() { [ "$(wc -l < "$T/err")" -eq 1 ] && ok "$1" || bad "$1 ($(wc -l < "$T/err") lines)"; }
expect_fail plot_missing_x        "missing --x SETTING (gpumemsim plot --help" $BIN plot "$H/c.db" --out "$H/p.svg"; one_line plot_missing_x_one_line
expect_fail plot_missing_out      "missing --out FILE"  $BIN plot "$H/c.db" --x gpgpu_l1_latency; one_line plot_missing_out_one_line
expect_fail list_workloads_bogus  "list workloads: unexpected argument '--bogus'" $BIN list workloads --bogus
expect_fail list_workloads_extra  "list workloads: unexpected argument 'extra'" $BIN list workloads extra
expect_fail list_workloads_details_twice "given twice" $BIN list workloads --details --details
expect_fail list_presets_details  "list presets: unexpected argument '--details'" $BIN list presets --details
expect_fail list_options_details  "list options: unexpected argument '--details'" $BIN list options --details
expect_fail list_no_argument      "which list?" $BIN list
expect_ok   list_workloads_details $BIN list workloads --details
expect_fail config_nothing_to_do  "give --dump or --check" $BIN config --config configs/qv100.config
expect_fail config_dump_and_check "--dump and --check together" $BIN config --config configs/qv100.config --dump --check
expect_fail report_bogus_one_line "report: unknown option '--bogus' (gpumemsim report --help" $BIN report --bogus; one_line report_bogus_is_one_line
expect_fail sweep_unknown_command "sweep: unknown command 'frob' (gpumemsim sweep --help" $BIN sweep frob; one_line sweep_unknown_command_one_line
