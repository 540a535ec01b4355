#!/bin/sh
# Speed benchmark (not a test): warp instructions per second, simulated cycles per second and
# peak memory for stream, gather and transpose on the qv100 and gtx480 presets, and on qv100
# only, callgrind host instructions per simulated warp instruction (one serial run of the same
# size under valgrind; --quick for the smaller sizes).
# "cycles" is gpu_tot_sim_cycle, the kernels' cycles as Accel-Sim counts them (not
# gms_elapsed_core_cycles, which includes the simulated copies: gather on qv100 at n=65536 is
# 11,855,490 elapsed against 14,565 kernel cycles), and "cycles/s" those cycles per wall second
# of the fastest run. Exits 1 if any run failed (after the table).
# Usage: bench/speed.sh [--no-callgrind] [--quick] [--best N] [--cpu all|none|LIST]
# --best N: run each case N times (default 3) and report the fastest: on a shared VM the same
# binary's wall time varies by tens of percent from run to run; the statistics never do.
# --cpu LIST: each of the N runs once pinned to each CPU of LIST (taskset), the fastest CPU's
# rate reported and every CPU's best in the last column. Pinned to one CPU a run is serial: the
# memory side's second host thread (-gms_host_pipeline, on by default) needs a second CPU. On
# the 2-vCPU VM this was developed on the vCPUs differ (one ran stream qv100 serially at about
# 1.0 M warp insts/s while the other ran it at 0.5-0.6 M: its L3 share is smaller), which is
# most of the run-to-run "noise" of single-CPU runs (bench/README.md). Default `none`:
# unpinned, every CPU this shell may use (`all`: pinned to each of them in turn).
# Target (issue 2): >= 1,000,000 warp instructions/s on stream with qv100.
set -u
case ${GMS_BIN:-/} in /*) ;; *) GMS_BIN=$PWD/$GMS_BIN ;; esac   # the caller's, before the cd
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
CALLGRIND=1
QUICK=0
BEST=3
CPUSPEC=none
while [ $# -gt 0 ]; do
    case $1 in
    --no-callgrind) CALLGRIND=0 ;;
    --quick) QUICK=1 ;;
    --best) shift; BEST=${1:-}
            case $BEST in ''|*[!0-9]*|0) echo "bench/speed.sh: --best needs a count >= 1" >&2; exit 2 ;; esac ;;
    --cpu) shift; CPUSPEC=${1:-}
           case $CPUSPEC in all|none) ;; ''|*[!0-9,]*) echo "bench/speed.sh: --cpu needs all, none or a list like 0,1" >&2; exit 2 ;; esac ;;
    *) echo "bench/speed.sh: unknown argument '$1' (--no-callgrind, --quick, --best N, --cpu all|none|LIST)" >&2; exit 2 ;;
    esac
    shift
done
# build the default binary only when no other one is named
if [ -z "${GMS_BIN:-}" ]; then make -s build/gpumemsim || exit 1; fi
# the CPUs to pin to ("-": unpinned)
CPUS=-
if [ "$CPUSPEC" != none ] && command -v taskset >/dev/null 2>&1; then
    if [ "$CPUSPEC" = all ]; then
        # this shell's affinity list, e.g. "0-3,6" -> 0 1 2 3 6
        CPUS=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//' | tr ',' '\n' |
               awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | tr '\n' ' ')
        [ -n "$CPUS" ] || CPUS=-
    else
        CPUS=$(echo "$CPUSPEC" | tr ',' ' ')
    fi
elif [ "$CPUSPEC" != none ] && [ "$CPUSPEC" != all ]; then
    echo "bench/speed.sh: --cpu $CPUSPEC needs taskset (util-linux)" >&2; exit 2
fi
if [ $QUICK = 1 ]; then SIZES="stream:n=1048576 gather:n=65536 transpose:N=1024"
else SIZES="stream:n=4194304 gather:n=262144 transpose:N=2048"; fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-10s %-8s %14s %12s %14s %14s %10s %14s  %s\n' workload preset warp_insts cycles winst/s cycles/s peak_MiB host_ins/winst \
    'best winst/s per CPU'
failed=0
for preset in qv100 gtx480; do
    for wl in $SIZES; do
        name=${wl%%:*}; param=${wl#*:}
        get() { grep "\"$1\":" "$T/s.json" | head -1 | sed -E 's/.*: ([0-9.e+-]+).*/\1/'; }
        rate=0; crate=0; ok=1; : > "$T/percpu"
        for k in $(seq "$BEST"); do
            for cpu in $CPUS; do
                pin=""; [ "$cpu" = - ] || pin="taskset -c $cpu"
                $pin /usr/bin/time -f '%M' -o "$T/mem" "$BIN" run --config configs/$preset.config --workload $name \
                    --set $param --quiet --stats-json "$T/s.json" >/dev/null 2>"$T/err" ||
                    { echo "$name/$preset failed: $(tail -1 $T/err)"; ok=0; failed=1; break 2; }
                r=$(get gms_warp_insts_per_second)
                echo "$cpu $r" >> "$T/percpu"
                if awk -v a="$r" -v b="$rate" 'BEGIN{exit !(a > b)}'; then
                    rate=$r
                    crate=$(awk -v c="$(get gpu_tot_sim_cycle)" -v w="$(get gms_wall_seconds)" 'BEGIN{print (w > 0) ? c / w : 0}')
                fi
            done
        done
        [ $ok = 1 ] || continue
        wi=$(get gpgpu_n_tot_w_icount); cyc=$(get gpu_tot_sim_cycle)
        mem=$(awk '{printf "%.1f", $1/1024}' "$T/mem")
        hipw=-
        if [ $CALLGRIND = 1 ] && command -v valgrind >/dev/null 2>&1 && [ "$preset" = qv100 ]; then
            # serial (valgrind runs one thread at a time; the count is the host work of one thread),
            # the timed runs' size (bench/README.md's per-warp-instruction figures are of these sizes)
            rm -f "$T/cg" "$T/c.json"
            valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$BIN" run --config configs/$preset.config \
                --workload $name --set "$param" --set gms_host_pipeline=0 --quiet --stats-json "$T/c.json" >/dev/null 2>"$T/cgerr" ||
                { echo "$name/$preset callgrind run failed: $(grep -v '^==' "$T/cgerr" | tail -1)"; failed=1; }
            ir=$(grep -E '^(summary|totals):' "$T/cg" 2>/dev/null | head -1 | awk '{print $2}')
            cwi=$(grep '"gpgpu_n_tot_w_icount":' "$T/c.json" 2>/dev/null | sed -E 's/.*: ([0-9]+).*/\1/')
            [ -n "$ir" ] && [ -n "$cwi" ] && hipw=$(awk -v a="$ir" -v b="$cwi" 'BEGIN{printf "%.0f", a/b}')
        fi
        percpu=$(awk '{ if (!($1 in b) || $2 > b[$1]) b[$1] = $2; if (!($1 in o)) { o[$1] = ++n; k[n] = $1 } }
                      END { for (i = 1; i <= n; i++) printf "%s%s:%.0f", (i > 1 ? " " : ""), (k[i] == "-" ? "any" : "cpu" k[i]), b[k[i]] }' "$T/percpu")
        printf '%-10s %-8s %14s %12s %14.0f %14.0f %10s %14s  %s\n' $name $preset "$wi" "$cyc" "$rate" "$crate" "$mem" "$hipw" "$percpu"
    done
done
[ $failed = 0 ]
