# A run that fails part way still writes the statistics it has (for a post-mortem), and says in
# them that they are partial: the JSON has an "error" field (no such field on a good run), the
# text output's totals line says so, and the exit status is 1 with the error on stderr
# (the ratio alone gives at least one page since 2026-12; the reserve takes it)
$BIN run --workload stream --set n=65536 --set uvm=1 --config configs/gtx1080ti.config --quiet \
    -uvm_oversub_ratio 1000000 -uvm_reserved_bytes 4KB --stats-json "$T/fail.json" >"$T/fail.txt" 2>"$T/err"; rc=$?
if [ $rc -eq 1 ] && grep -q '"error": "uvm: device capacity for managed pages is below one page' "$T/fail.json" &&
   grep -q -- '----- totals (stream), partial: the run failed -----' "$T/fail.txt" &&
   [ "$(grep -c 'below one page' "$T/err")" -eq 1 ]; then ok failed_run_stats_say_partial
else bad "failed_run_stats_say_partial (rc=$rc)"; fi
$BIN run --workload stream --set n=4096 --config configs/qv100.config --quiet --stats-json "$T/good.json" >/dev/null 2>&1
if ! grep -q '"error"' "$T/good.json"; then ok good_run_stats_have_no_error_field
else bad good_run_stats_have_no_error_field; fi

# a copy of 4 GiB or more fills the L2 sector by sector (GPGPU-Sim's perf_memcpy_to_gpu) for
# seconds of host time: one note says so rather than a silent wait (a 1 TiB copy looked hung)
mkdir -p "$T/bigcpy"
$BIN trace export --workload stream --set n=1024 --out "$T/bigcpy" >/dev/null 2>&1
k=$(grep -v '^Memcpy' "$T/bigcpy/kernelslist.g" | head -1)
printf 'MemcpyHtoD,0x7f0000000000,4294967296\n%s\n' "$k" > "$T/bigcpy/kernelslist.g"
$BIN run --trace "$T/bigcpy/kernelslist.g" --config configs/qv100.config -gms_trace_memcpy instant --quiet >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'note: filling the L2 with a 4.0 GiB copy (-gpgpu_perf_sim_memcpy 1' "$T/err"; then ok huge_copy_fill_said
else bad "huge_copy_fill_said (rc=$rc)"; fi
