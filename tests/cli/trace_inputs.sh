# trace front end inputs and the trace subcommands' arguments (sourced by tests/cli_tests.sh:
# uses BIN, T, ok, bad, expect_ok, expect_fail)
TI="$T/ti"
mkdir -p "$TI"
# ti_trace NAME SED-EXPR: a one-kernel trace (a MOV, a load, an EXIT) edited by SED-EXPR
ti_trace() {
    mkdir -p "$TI/$1"
    printf 'kernel-1.traceg\n' > "$TI/$1/kernelslist.g"
    sed "$2" > "$TI/$1/kernel-1.traceg" <<'TRACE'
-kernel name = k
-kernel id = 1
-grid dim = (1,1,1)
-block dim = (32,1,1)
-shmem = 0
-nregs = 12
-binary version = 70
-cuda stream id = 0
-accelsim tracer version = 4
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate

#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 3
0000 ffffffff 1 R1 MOV 0 0 0
0010 ffffffff 1 R2 LDG.E 1 R1 4 1 0x7f0000000000 4
0020 ffffffff 0 EXIT 0 0 0
#END_TB
TRACE
}
ti_trace good 's/^//'
expect_ok  trace_inputs_good_reads                 $BIN trace stat "$TI/good/kernelslist.g"

# 1. a failed convert leaves --out as it was: the old trace whole, no temporaries, no
#    shorter trace (a two-kernel input whose second kernel is bad)
ti_trace badop 's/ MOV / FOOBAR /'
mkdir -p "$TI/twok"
cp "$TI/good/kernel-1.traceg" "$TI/twok/kernel-1.traceg"
cp "$TI/badop/kernel-1.traceg" "$TI/twok/kernel-2.traceg"
printf 'kernel-1.traceg\nkernel-2.traceg\n' > "$TI/twok/kernelslist.g"
expect_ok  trace_convert_writes                    $BIN trace convert "$TI/good/kernelslist.g" --out "$TI/out"
cp -r "$TI/out" "$TI/out.before"
expect_fail trace_convert_bad_opcode_fails "FOOBAR" $BIN trace convert "$TI/badop/kernelslist.g" --out "$TI/out"
if diff -r "$TI/out" "$TI/out.before" >/dev/null && [ "$(ls -A "$TI/out" | wc -l)" -eq 2 ]; then
    ok trace_convert_failure_keeps_out_dir; else bad trace_convert_failure_keeps_out_dir; fi
expect_fail trace_convert_second_kernel_fails "kernel-2.traceg" $BIN trace convert "$TI/twok/kernelslist.g" --out "$TI/out"
if diff -r "$TI/out" "$TI/out.before" >/dev/null && [ "$(ls -A "$TI/out" | wc -l)" -eq 2 ]; then
    ok trace_convert_failure_leaves_no_shorter_trace; else bad trace_convert_failure_leaves_no_shorter_trace; fi
expect_fail trace_convert_fails_new_dir "FOOBAR"   $BIN trace convert "$TI/badop/kernelslist.g" --out "$TI/new/sub"
if [ ! -e "$TI/new/sub" ]; then ok trace_convert_failure_removes_new_dir; else bad trace_convert_failure_removes_new_dir; fi
expect_ok  trace_convert_twok_good                 $BIN trace convert "$TI/good/kernelslist.g" --out "$TI/out2"
if [ "$(ls -A "$TI/out2" | wc -l)" -eq 2 ] && $BIN trace stat "$TI/out2/kernelslist.g" | grep -q '^warp_insts *3$'; then
    ok trace_convert_success_no_temporaries; else bad trace_convert_success_no_temporaries; fi

# 5. arguments: --help to stdout (exit 0), a problem named in one line (exit 2)
for sub in "stat" "convert X" "export"; do
    $BIN trace $sub --help >"$T/out" 2>"$T/err"; rc=$?
    n=trace_help_$(echo "$sub" | cut -d' ' -f1)
    if [ $rc -eq 0 ] && grep -q "^usage: gpumemsim trace ${sub%% *}" "$T/out" && [ ! -s "$T/err" ]; then ok "$n"; else bad "$n (rc=$rc)"; fi
done
# expect_fail2 NAME PATTERN CMD...: exit status exactly 2, the first stderr line matching PATTERN
expect_fail2() {
    name=$1; pat=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 2 ] && head -1 "$T/err" | grep -q -- "$pat"; then ok "$name"; else bad "$name (rc=$rc)"; fi
}
expect_fail2 trace_convert_out_needs_value  "--out needs a value"        $BIN trace convert X --out
expect_fail2 trace_convert_needs_out        "--out is required"          $BIN trace convert X
expect_fail2 trace_convert_unknown_option   "unknown option '--bogus'"   $BIN trace convert X --bogus --out d
expect_fail2 trace_export_unknown_option    "unknown option '--bogus'"   $BIN trace export --workload stream --bogus
expect_fail2 trace_stat_unknown_option      "unknown option '--bogus'"   $BIN trace stat X --bogus
expect_fail2 trace_stat_no_file             "no KERNELSLIST given"       $BIN trace stat
expect_fail2 trace_no_subcommand            "no subcommand"              $BIN trace

# 2. a seed past 2^64 - 1 is refused as run --seed refuses it
expect_fail2 trace_export_seed_too_large "--seed '99999999999999999999999' is not an unsigned 64-bit integer" \
    $BIN trace export --workload stream --set n=1024 --seed 99999999999999999999999 --out "$TI/exp"
if [ ! -e "$TI/exp" ]; then ok trace_export_seed_refused_writes_nothing; else bad trace_export_seed_refused_writes_nothing; fi

# 3. malformed fields
ti_trace immbad   's/MOV 0 0 0$/MOV 0 0 zzz/'
ti_trace tracer99 's/tracer version = 4/tracer version = 99/'
ti_trace dupgrid  's/^-grid dim = (1,1,1)$/&\n-grid dim = (2,1,1)/'
expect_fail trace_immediate_garbage      ":20: field 'immediate'.*got 'zzz'"           $BIN trace stat "$TI/immbad/kernelslist.g"
awk '{ if ($0 ~ /MOV 0 0 0$/) { sub(/0$/, ""); printf "%s", $0; for (i = 0; i < 20000; i++) printf "7777777777"; print "" } else print }' \
    "$TI/good/kernel-1.traceg" > "$T/imm.traceg"
mkdir -p "$TI/immhuge"; mv "$T/imm.traceg" "$TI/immhuge/kernel-1.traceg"; cp "$TI/good/kernelslist.g" "$TI/immhuge/"
expect_fail trace_immediate_200k_chars   "field 'immediate'.*'7777777777.*\.\.\.'"   $BIN trace stat "$TI/immhuge/kernelslist.g"
expect_fail trace_tracer_version_99      ":9: -accelsim tracer version: '99' is not a version this reader knows (1 to 5" \
    $BIN trace stat "$TI/tracer99/kernelslist.g"
expect_fail trace_repeated_header_key    ":4: -grid dim appears a second time (first on line 3)" $BIN trace stat "$TI/dupgrid/kernelslist.g"
expect_fail trace_run_immediate_garbage  "field 'immediate'" $BIN run --config configs/qv100.config --quiet --trace "$TI/immbad/kernelslist.g"

# 4. errors name the field and say "out of range"
ti_trace pcbad     's/^0000 ffffffff 1 R1 MOV 0 0 0$/zz00 ffffffff 1 R1 MOV 0 0/'
ti_trace gridbig   's/^-grid dim = (1,1,1)$/-grid dim = (1099511627776,1,1)/'
ti_trace shmembig  's/^-shmem = 0$/-shmem = 99999999999/'
ti_trace binverbig 's/^-binary version = 70$/-binary version = 99999999999999999999/'
ti_trace instsbig  's/^insts = 3$/insts = 99999999999999/'
ti_trace addr40    's/4 1 0x7f0000000000 4$/4 0 0x7f0000000000 0x7f0000000004 0x7f0000000008 0x7f000000000c 0x7f0000000010 0x7f0000000014 0x7f0000000018 0x7f000000001c 0x7f0000000020 0x7f0000000024 0x7f0000000028 0x7f000000002c 0x7f0000000030 0x7f0000000034 0x7f0000000038 0x7f000000003c 0x7f0000000040 0x7f0000000044 0x7f0000000048 0x7f000000004c 0x7f0000000050 0x7f0000000054 0x7f0000000058 0x7f000000005c 0x7f0000000060 0x7f0000000064 0x7f0000000068 0x7f000000006c 0x7f0000000070 0x7f0000000074 0x7f0000000078 0x7f000000007c 0x7f0000000080 0x7f0000000084 0x7f0000000088 0x7f000000008c 0x7f0000000090 0x7f0000000094 0x7f0000000098 0x7f000000009c/'
expect_fail trace_bad_pc_named          ":20: field 'pc': expected a hex PC, got 'zz00'"         $BIN trace stat "$TI/pcbad/kernelslist.g"
expect_fail trace_grid_out_of_range     ":3: -grid dim: '(1099511627776,1,1)' is out of range (at most 4294967295)" \
    $BIN trace stat "$TI/gridbig/kernelslist.g"
expect_fail trace_shmem_out_of_range    ":5: -shmem: '99999999999' is out of range (at most 4294967295)" \
    $BIN trace stat "$TI/shmembig/kernelslist.g"
expect_fail trace_binver_out_of_range   ":7: -binary version: '99999999999999999999' is out of range (at most 10000)" \
    $BIN trace stat "$TI/binverbig/kernelslist.g"
expect_fail trace_insts_out_of_range    "'insts = 99999999999999' is out of range (at most 4294967295)" \
    $BIN trace stat "$TI/instsbig/kernelslist.g"
expect_fail trace_cut_quote_has_ellipsis ":21: unexpected field '0x7f0000000084 0x7f0000000088\.\.\.' after the immediate" \
    $BIN trace stat "$TI/addr40/kernelslist.g"

# 6. export with managed memory or prefetches: one warning naming what the trace cannot hold
$BIN trace export --workload stream --set n=1024 --set uvm=1 --out "$TI/uvm" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q "warning: trace export: .*no line for managed allocations (uvm=1)" "$T/err"; then
    ok trace_export_uvm_warns; else bad "trace_export_uvm_warns (rc=$rc)"; fi
$BIN trace export --workload stream --set n=1024 --out "$TI/plain" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$T/err" ]; then ok trace_export_plain_no_warning; else bad "trace_export_plain_no_warning (rc=$rc)"; fi
