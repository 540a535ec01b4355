# Multiprogrammed runs (--workload / --trace given two or three times, docs/cke.md): options that
# do not apply are refused in one line, a user's apps= / args= beside the command line's are
# refused or merged, a trace application's offset is checked, and -NAME VALUE is reported as
# written. Sourced by tests/cli_tests.sh (BIN, T, ok, bad, expect_ok, expect_fail).

# mp_one_line NAME PATTERN CMD...: exit status 1..127 and stderr one line matching PATTERN
mp_one_line() {
    name=$1; pat=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q -- "$pat" "$T/err"; then
        ok "$name"; else bad "$name (rc=$rc)"; fi
}
MP="--workload stream --workload transpose --set scale=0.05 -gms_cke_window 20000 --quiet"
MPQ="--config configs/qv100.config --quiet -gms_cke_window 20000"
MPF='^gms_engine_|wall|per_second|^gpgpu_simulation_|^gpgpu_silicon'
$BIN trace export --workload stream --set n=16384 --out "$T/mpA" >/dev/null 2>&1
$BIN trace export --workload hotspot --set rows=64 --out "$T/mpB" >/dev/null 2>&1
MA="$T/mpA/kernelslist.g"; MB="$T/mpB/kernelslist.g"

# the cycle and instruction limits end no multiprogrammed run (its window does): refused, as
# -gpgpu_max_cta is (they were accepted, did not end the run, and changed its isolated runs)
mp_one_line mp_max_cycle_refused '^gpumemsim: -gpgpu_max_cycle is set, but it has no effect unless the run is one application' \
    $BIN run $MP -gpgpu_max_cycle 20000
mp_one_line mp_max_insn_refused '^gpumemsim: -gpgpu_max_insn is set, but it has no effect unless the run is one application' \
    $BIN run $MP --set gpgpu_max_insn=100000
expect_ok   mp_max_insn_issue_per_warp_kept $BIN run $MP -gpgpu_max_insn_issue_per_warp 1

# a user's apps= (or pair=) naming other applications than --workload / --trace: refused (it
# was replaced silently); the same list is accepted
mp_one_line mp_apps_beside_traces_refused \
    '^gpumemsim: --set apps=stream+stream+stream: the applications are the --workload and --trace options given (apps=trace0+trace1)' \
    $BIN run $MPQ --trace "$MA" --trace "$MB" --set apps=stream+stream+stream
mp_one_line mp_pair_beside_workloads_refused '^gpumemsim: -pair hs+pf: the applications are the --workload and --trace' \
    $BIN run $MP -pair hs+pf
expect_ok   mp_same_apps_accepted $BIN run $MP --set apps=stream+transpose
# a user's args= group of a --trace: merged, its offset= counts (it was overridden by the command
# line's): the same statistics as the run written out with workload cke, others than without it
$BIN run $MPQ --trace "$MA" --trace "$MA" 2>/dev/null | grep -v -E "$MPF" > "$T/mp0"
$BIN run $MPQ --trace "$MA" --trace "$MA" --set args=trace1:offset=0x100000000000 2>/dev/null | grep -v -E "$MPF" > "$T/mp1"
$BIN run $MPQ --workload cke --set apps=trace0+trace1 \
    --set "args=trace0:path=$MA,offset=0x100000000000;trace1:path=$MA,offset=0x100000000000" 2>/dev/null |
    grep -v -E "$MPF" > "$T/mp2"
if grep -q '^gms_cke_stp = ' "$T/mp1" && cmp -s "$T/mp1" "$T/mp2" && ! cmp -s "$T/mp0" "$T/mp1"; then
    ok mp_user_trace_offset_merged; else bad mp_user_trace_offset_merged; fi
# ... but its path is the --trace's
mp_one_line mp_user_trace_path_refused "^gpumemsim: --set args=trace0:path=$MB: trace0 is --trace $MA; its path is given there only" \
    $BIN run $MPQ --trace "$MA" --trace "$MB" --set "args=trace0:path=$MB"

# --no-timing: refused for any run with a trace application, as for one trace
mp_one_line mp_no_timing_two_traces '^gpumemsim run: --no-timing works with built-in workloads only' \
    $BIN run $MPQ --trace "$MA" --trace "$MB" --no-timing
mp_one_line mp_no_timing_trace_beside_workload '^gpumemsim run: --no-timing works with built-in workloads only' \
    $BIN run $MPQ --workload stream --trace "$MB" --no-timing
mp_one_line mp_no_timing_cke_trace_app '^gpumemsim run: --no-timing works with built-in workloads only' \
    $BIN run $MPQ --workload cke --set apps=stream+trace1 --set "args=trace1:path=$MB" --no-timing

# a trace application's offset=: whole 128-byte lines, and no address carried past 2^64 - 1
mp_one_line mp_trace_offset_unaligned "trace application $MA: offset=3 is not a multiple of 128 bytes" \
    $BIN run $MPQ --trace "$MA" --trace "$MB" --set args=trace0:offset=3
mp_one_line mp_trace_offset_wraps "trace application $MB: offset=0xffffffffffffff80 moves its address 0x[0-9a-f]* past 2^64 - 1" \
    $BIN run $MPQ --workload cke --set apps=trace0+trace1 --set "args=trace0:path=$MA;trace1:path=$MB,offset=0xffffffffffffff80"

# -NAME VALUE longer than its buffer: refused, not cut (it ran with "5")
mp_one_line mp_long_dash_value_refused '^gpumemsim: -gms_mshr_dump_at: its name and value are 539 characters, more than the 511' \
    $BIN run --workload stream --set n=4096 --quiet -gms_mshr_dump_at "5$(printf '%520s' '')x"

# -gms_mshr_dump_at in a multiprogrammed run: one dump, of the shared run and labelled so (the
# isolated runs dumped too, unlabelled); a dump after the end said once; --no-timing says it
$BIN run $MP -gms_mshr_dump_at 5000 >/dev/null 2>"$T/mpd"
if [ "$(grep -c 'MSHR tables at core cycle' "$T/mpd")" -eq 1 ] &&
   grep -q '^gpumemsim: MSHR tables at core cycle 5000 (the shared run of the multiprogrammed run; its isolated and profile runs are not dumped):$' "$T/mpd"; then
    ok mp_mshr_dump_shared_run_only; else bad mp_mshr_dump_shared_run_only; fi
$BIN run $MP -gms_mshr_dump_at 999999 >/dev/null 2>"$T/mpd"
[ "$(grep -c 'gms_mshr_dump_at 999999: the run ended at core cycle 20000, before it; no dump' "$T/mpd")" -eq 1 ] &&
    ok mp_mshr_dump_late_warned_once || bad mp_mshr_dump_late_warned_once
$BIN run $MP -gms_mshr_dump_at 5000 --no-timing >"$T/out" 2>"$T/mpd"; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l < "$T/mpd")" -eq 1 ] &&
    grep -q '^gpumemsim: warning: -gms_mshr_dump_at 5000 has no effect with --no-timing' "$T/mpd" &&
    ok mp_mshr_dump_no_timing_said || bad mp_mshr_dump_no_timing_said

# -NAME VALUE is named as written, not "--set -NAME"
mp_one_line mp_dash_option_named_as_written "^gpumemsim: -gms_mshr_dump_at: 'abc' is not an unsigned 64-bit integer" \
    $BIN run --workload stream --set n=4096 --quiet -gms_mshr_dump_at abc
mp_one_line mp_dash_unknown_named_as_written '^gpumemsim: -gms_no_such_knob: not a parameter of workload stream' \
    $BIN run --workload stream --set n=4096 --quiet -gms_no_such_knob 1
mp_one_line mp_set_still_named_set "^gpumemsim: --set -gms_mshr_dump_at: 'abc'" \
    $BIN run --workload stream --set n=4096 --quiet --set gms_mshr_dump_at=abc
