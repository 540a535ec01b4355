#!/bin/sh
# Random-trace sweep (no fuzzer needed): seeded random Accel-Sim traces (fuzz/trace_gen.c:
# every instruction class the reader knows, partial masks, the three address formats,
# barriers that warps skip by exiting early, several kernels and streams, addresses at the
# ends of the address space, and one kernel in seven malformed on purpose) run through the
# whole timing simulator on a random preset (or Accel-Sim's QV100 config) with a few
# mechanism options. The fuzzers test the reader alone and the combination sweep uses the
# built-in workloads and the reference traces; this puts what only a hand-written trace can
# hold in front of the SMs and the memory system. The expected outcome is a clean run or one
# error line (a malformed trace, a block too large for an SM); reported: a crash (signal), a
# time-out (TMAX seconds, default 60), a watchdog report, a sanitizer report, or a failed exit
# whose last line is not gpumemsim's error. Use a sanitizer build (GMS_BIN=build-asan/gpumemsim).
# DIFF=1: also rerun every clean run with the host-speed shortcuts off (-gms_sleep_blocked 0,
# one host thread, no pipeline), and the trace `trace convert` writes of it (version 5), and
# report any statistic that differs.
# Each finding prints the command line and keeps its trace (KEEP=DIR, default a directory under
# /tmp named in the finding). The last line is "N passed, N failed".
# Usage: [GMS_BIN=...] [TMAX=s] [DIFF=1] fuzz/trace_sweep.sh [N traces (default 50)] [seed (default 1)]
cd "$(dirname "$0")/.."
. fuzz/sweep_common.sh
N=${1:-50}
SEED=${2:-1}
KEEP=${KEEP:-$(mktemp -d /tmp/gms-trace-sweep.XXXXXX)}
GEN=$T/trace_gen
${CC:-cc} -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -Werror -o "$GEN" fuzz/trace_gen.c || { echo "cannot build fuzz/trace_gen.c"; echo "0 passed, 1 failed"; exit 1; }

REF=$ROOT/../shared/reference/accelsim/transpose
# Volta+ traces need Accel-Sim's specialised units (branches 1, texture 2, tensor 3, Turing's
# uniform datapath 4: without them Accel-Sim aborts, and so a run is refused); the presets
# other than the QV100 get them from spec.config
cat > "$T/spec.config" <<'EOF'
-specialized_unit_1 1,4,4,4,4,BRA
-specialized_unit_2 1,4,200,4,4,TEX
-specialized_unit_3 1,4,8,4,4,TENSOR
-specialized_unit_4 1,4,4,4,4,UDP
EOF
S=",--config,$T/spec.config"
CFGS="--config,$ROOT/configs/qv100.config --config,$ROOT/configs/gtx480.config$S --config,$ROOT/configs/gtx1080ti.config$S --config,$ROOT/configs/maxwell-sound-baseline.config$S --config,$ROOT/configs/dlmshr-28sm.config$S"
[ -f "$REF/gpgpusim.config" ] && CFGS="$CFGS --config,$REF/gpgpusim.config,--config,$REF/trace.config,--ignore-unknown"
# one alternative per line ('-' = none), two drawn per trace
cat > "$T/opts" <<'EOF'
-
-
-gms_l1d_mshr dlmshr
-gms_l2_mshr dlmshr
-gms_l2_input_queue cart
-gms_l1d_bypass mdb-global -gms_mdb_period 200
-gms_l1d_bypass pdp -gms_swl 2
-gms_mrpb 1
-gms_racb 3
-gpgpu_concurrent_kernel_sm 1
-gpgpu_gmem_skip_L1D 1
-gms_l1d_bypass_slots 1
-gpgpu_scheduler lrr
-gms_ccws 1
-gms_host_threads 2
-gms_partition_mapping ipoly
-gms_trace_memcpy pcie
-gpgpu_concurrent_kernel_sm 1 -gms_trace_memcpy pcie
-gpgpu_flush_l2_cache 1
-gpgpu_TB_launch_latency 7 -gpgpu_concurrent_kernel_sm 1
-gpgpu_n_clusters 4 -gpgpu_n_cores_per_cluster 3
-gpgpu_n_clusters 8 -gpgpu_n_cores_per_cluster 2 -gpgpu_simt_core_sim_order 0 -gms_host_threads 2
EOF
bad=0
i=0
while [ $i -lt "$N" ]; do
    s=$((SEED * 100003 + i))
    d=$T/tr
    rm -rf "$d"
    "$GEN" "$d" "$s" || { echo "trace_gen failed on seed $s"; bad=$((bad + 1)); i=$((i + 1)); continue; }
    cfg=$(echo $CFGS | awk -v s="$s" 'BEGIN { srand(s) } { print $(int(rand() * NF) + 1) }' | tr ',' ' ')
    opts=$(awk -v s="$s" 'BEGIN { srand(s + 1) } { l[NR] = $0 } END { a = l[int(rand() * NR) + 1]; b = l[int(rand() * NR) + 1];
        if (a == "-") a = ""; if (b == "-") b = ""; print a, b }' "$T/opts")
    cmd="$BIN run --trace $d/kernelslist.g $cfg $opts -gpgpu_max_cycle 3000000 --quiet --stats-json $T/s.json"
    [ -n "${V:-}" ] && echo "$i: $cmd"
    timeout "$TMAX" $cmd >/dev/null 2>"$T/err"
    rc=$?
    finding=
    if is_finding $rc "$T/err"; then
        finding="rc=$rc"
        head -c 400 "$T/err" > "$T/why"
    elif [ $rc -ne 0 ]; then
        echo "refused: $(tail -n 1 "$T/err" | sed "s|$d/||" | head -c 200)"
        # expected for a trace malformed on purpose, or a block no SM of the config can hold;
        # any other refusal of a well-formed trace is a finding
        if [ ! -e "$d/MALFORMED" ] && ! grep -q 'does not fit' "$T/err"; then
            finding="a well-formed trace refused, rc=$rc"
            tail -n 2 "$T/err" > "$T/why"
        fi
    elif [ -n "${DIFF:-}" ]; then
        strip_host "$T/s.json" > "$T/a.json"
        timeout "$TMAX" $cmd -gms_sleep_blocked 0 -gms_host_pipeline 0 -gms_host_threads 1 >/dev/null 2>"$T/err"
        rc=$?
        strip_host "$T/s.json" > "$T/b.json"
        if [ $rc -ne 0 ] || ! cmp -s "$T/a.json" "$T/b.json"; then
            finding="host options change the results, rc=$rc"
            diff "$T/a.json" "$T/b.json" | head -8 > "$T/why"
        else
            # `trace convert` is lossless: the trace it writes (version 5) runs the same
            rm -rf "$T/cv"
            "$BIN" trace convert "$d/kernelslist.g" --out "$T/cv" --version 5 >/dev/null 2>"$T/err"
            crc=$?
            if [ $crc -ne 0 ]; then
                # A run may end (-gpgpu_max_cycle) before it reaches the kernel malformed on
                # purpose; `trace convert` reads every kernel, so it must refuse that one
                # with gpumemsim's error, and that is all it may do
                if [ -e "$d/MALFORMED" ] && ! is_finding $crc "$T/err"; then
                    echo "refused by convert: $(tail -n 1 "$T/err" | sed "s|$d/||" | head -c 200)"
                else
                    finding="trace convert failed"
                    tail -n 2 "$T/err" > "$T/why"
                fi
            else
                timeout "$TMAX" $(echo "$cmd" | sed "s|$d/kernelslist.g|$T/cv/kernelslist.g|") >/dev/null 2>"$T/err"
                rc=$?
                strip_host "$T/s.json" | grep -v '"workload":' > "$T/c.json"
                grep -v '"workload":' "$T/a.json" > "$T/a2.json"
                if [ $rc -ne 0 ] || ! cmp -s "$T/a2.json" "$T/c.json"; then
                    finding="the converted trace runs differently, rc=$rc"
                    diff "$T/a2.json" "$T/c.json" | head -8 > "$T/why"
                fi
            fi
        fi
    fi
    if [ -n "$finding" ]; then
        rm -rf "$KEEP/$s"
        cp -r "$d" "$KEEP/$s"
        echo "FINDING ($finding), trace kept in $KEEP/$s: $(echo "$cmd" | sed "s|$d|$KEEP/$s|")"
        sed 's/^/    /' "$T/why"
        bad=$((bad + 1))
    fi
    i=$((i + 1))
done
[ "$bad" -eq 0 ] && rmdir "$KEEP" 2>/dev/null
echo "trace sweep: $N trace(s), $bad finding(s)"
echo "$((N - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
