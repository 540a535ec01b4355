# A run that fails part way still writes the statistics it has (for a post-mortem), and says in
# them that they are partial: the JSON has an "error" field (no such field on a good run), the
# text output's totals line says so, and the exit status is 1 with the error on stderr
$BIN run --workload stream --set n=65536 --set uvm=1 --config configs/gtx1080ti.config --quiet \
    -uvm_oversub_ratio 1000000 --stats-json "$T/fail.json" >"$T/fail.txt" 2>"$T/err"; rc=$?
if [ $rc -eq 1 ] && grep -q '"error": "uvm: device capacity for managed pages is below one page' "$T/fail.json" &&
   grep -q -- '----- totals (stream), partial: the run failed -----' "$T/fail.txt" &&
   [ "$(grep -c 'below one page' "$T/err")" -eq 1 ]; then ok failed_run_stats_say_partial
else bad "failed_run_stats_say_partial (rc=$rc)"; fi
$BIN run --workload stream --set n=4096 --config configs/qv100.config --quiet --stats-json "$T/good.json" >/dev/null 2>&1
if ! grep -q '"error"' "$T/good.json"; then ok good_run_stats_have_no_error_field
else bad good_run_stats_have_no_error_field; fi
