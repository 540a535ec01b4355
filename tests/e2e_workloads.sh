#!/bin/sh
# End to end: every built-in workload through the timing simulator (gtx1080ti preset, managed
# memory at 125% oversubscription, so far faults and eviction happen) at a small size. Each
# must finish (no watchdog, no leaked request) and verify its result against its CPU
# reference. Ends with "N passed, N failed".
BIN=${GMS_BIN:-build/gpumemsim}
pass=0; fail=0
# the loops below run what `list workloads` names: a listing that failed would test nothing
nwl=$("$BIN" list workloads | awk 'NR > 1' | wc -l)
if [ "$nwl" -ge 90 ]; then pass=$((pass + 1)); echo "ok   e2e list workloads ($nwl)"
else fail=$((fail + 1)); echo "FAIL e2e list workloads: $nwl workloads listed (101 on 2026-12-05)"; fi
faulted=0; evicted=0; oversub=0
for wl in $("$BIN" list workloads | awk 'NR > 1 { print $1 }'); do
    # cke runs other workloads side by side for a window, never to a checked end, without UVM
    # (tests/unit/test_cke_run.c, repro/cke)
    case $wl in cke) continue ;; esac
    case $wl in
        stream|strided|gather) p="n=16384" ;;
        matvec) p="N=1024" ;;
        pointer_chase) p="n=4096 steps=64 nodes=65536" ;;
        reduce) p="blocks=64" ;;
        transpose) p="N=256" ;;
        corr|covar) p="M=256 N=64" ;;
        backprop) p="input=4096" ;;
        bfs) p="vertices=4096 edges=12288" ;;
        gaussian) p="size=64" ;;
        hotspot) p="rows=128" ;;
        nw) p="dim=128" ;;
        pathfinder) p="cols=4096 rows=10" ;;
        srad) p="rows=128 cols=128 iter=1" ;;
        hotspot3d) p="rows=64 layers=4 iter=1" ;;
        kmeans) p="points=4096 reps=1" ;;
        knn) p="ref=256 query=256 iter=1" ;;
        lr) p="instances=1024 features=32 iter=1" ;;
        sc) p="k1=2 k2=3 dim=4 n=2048 chunksize=2048" ;;
        svm) p="train=128 test=32 M=16" ;;
        bn) p="nodes=8 data=40 iter=1" ;;
        cnn) p="" ;;
        dwt2d) p="width=128 height=128" ;;
        pfilter) p="x=32 y=32 z=2 np=100" ;;
        lud) p="size=256" ;;
        cfd) p="elements=2000 iterations=3" ;;
        kmeans-rodinia) p="points=8192 features=16" ;;
        hybridsort) p="size=65536 repeat=1" ;;
        histo-dc) p="bytes=1048576" ;;
        barnes-hut) p="nbodies=1000 timesteps=2 sms=28" ;;
        # at scale=0.0625 these allocate under one page, below what 125% oversubscription can hold
        binomialoptions) p="opt_n=4096 num_steps=128" ;;
        um-stencil) p="nx=64 ny=64 nz=8 iters=4" ;;
        *) p="scale=0.0625" ;;
    esac
    sets="--set uvm=1 --set uvm_oversub_ratio=1.25"
    # these allocate more after their first launch; the ratio applies to the footprint known
    # at the first launch (docs/uvm.md), so they run without oversubscription here
    case $wl in pfilter|bn) sets="--set uvm=1" ;; esac
    for kv in $p; do sets="$sets --set $kv"; done
    # shellcheck disable=SC2086
    out=$(timeout 300 "$BIN" run --config configs/gtx1080ti.config --workload "$wl" $sets --quiet 2>&1)
    rc=$?
    # the run's totals (the last of each counter, after the per-kernel blocks): managed memory
    # far-faults on first touch; under oversubscription most workloads also evict
    pf=$(printf '%s\n' "$out" | awk '/^Page_tot_fault = / { v = $3 } END { print v + 0 }')
    ev=$(printf '%s\n' "$out" | awk '/^Uvm_evictions = / { v = $3 } END { print v + 0 }')
    [ "$pf" -gt 0 ] && faulted=$((faulted + 1))
    case $sets in *oversub*) oversub=$((oversub + 1)); [ "$ev" -gt 0 ] && evicted=$((evicted + 1)) ;; esac
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^gms_workload_verified = 1' && [ "$pf" -gt 0 ]; then
        pass=$((pass + 1)); echo "ok   e2e $wl ($pf far faults, $ev evictions)"
    else
        fail=$((fail + 1)); echo "FAIL e2e $wl (rc=$rc, $pf far faults)"; printf '%s\n' "$out" | grep 'gpumemsim' | head -3 | sed 's/^/    /'
    fi
done
# at 125% of the footprint most runs must evict (some keep under it: tiny footprints rounded)
if [ "$oversub" -gt 0 ] && [ $((evicted * 4)) -ge $((oversub * 3)) ]; then
    pass=$((pass + 1)); echo "ok   e2e oversubscribed runs evict ($evicted of $oversub; $faulted runs far-faulted)"
else fail=$((fail + 1)); echo "FAIL e2e oversubscribed runs evict: $evicted of $oversub (want 3/4 or more)"; fi
# repeat=2 (UVMBench's data-reuse study) through the timing model with managed memory: each
# repetition resets its input only after the previous repetition's kernels have run, reuses
# the first repetition's allocations, and the result still verifies
for c in "pathfinder cols=4096 rows=10 pyramid=3" "hotspot rows=128 sim_time=4" "gaussian size=64" \
         "srad rows=128 cols=128 iter=1" "pfilter x=32 y=32 z=2 np=100" "lr instances=1024 features=32 iter=1"; do
    set -- $c
    wl=$1; shift
    sets="--set uvm=1 --set repeat=2"
    for kv in "$@"; do sets="$sets --set $kv"; done
    # shellcheck disable=SC2086
    out=$(timeout 300 "$BIN" run --config configs/gtx1080ti.config --workload "$wl" $sets --quiet 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^gms_workload_verified = 1'; then
        pass=$((pass + 1)); echo "ok   e2e $wl repeat=2"
    else
        fail=$((fail + 1)); echo "FAIL e2e $wl repeat=2 (rc=$rc)"; printf '%s\n' "$out" | grep 'gpumemsim' | head -3 | sed 's/^/    /'
    fi
done
# scale=0.01 is below the smallest valid problem of these: each clamps to it, says so in one
# line, reports the sizes used in the stats, and still verifies (bn: its scale shrinks nodes too)
for c in "corr M=256" "covar M=256 N=32" "dwt2d width=16 height=24" "hotspot3d rows=64" "srad rows=128 cols=128" \
         "svm M=126" "bn nodes=5"; do
    set -- $c
    wl=$1; shift
    # shellcheck disable=SC2086
    out=$(timeout 120 "$BIN" run --config configs/gtx1080ti.config --workload "$wl" --set scale=0.01 --quiet 2>&1)
    rc=$?
    ok=1
    [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^gms_workload_verified = 1' || ok=0
    [ "$(printf '%s\n' "$out" | grep -c "^gpumemsim: workload $wl: scale=0.01 is below the smallest valid problem; clamped")" = 1 ] || ok=0
    printf '%s\n' "$out" | grep -q '^gms_workload_clamped = [1-9]' || ok=0
    for kv in "$@"; do printf '%s\n' "$out" | grep -q "^gms_workload_size_${kv%%=*} = ${kv#*=}\$" || ok=0; done
    if [ $ok = 1 ]; then pass=$((pass + 1)); echo "ok   e2e $wl scale=0.01 (clamped: $*)"
    else fail=$((fail + 1)); echo "FAIL e2e $wl scale=0.01 (rc=$rc)"; printf '%s\n' "$out" | grep -E 'gpumemsim|gms_workload' | head -5 | sed 's/^/    /'; fi
done
# Every workload takes scale=0.01 and verifies there, with and without uvm=1 (gtx1080ti). The
# three slowest (kmeans 26 s, bfs 16 s, svm 13 s of CPU each, the timing model's own work: see
# docs/workloads.md) run only in the full loop, bench/scale001.sh; these 72 runs take about
# 25 s of CPU. Each must finish within a minute.
for wl in $("$BIN" list workloads | awk 'NR > 1 { print $1 }'); do
    case $wl in kmeans|bfs|svm|cke) continue ;; esac
    for u in 0 1; do
        out=$(timeout 60 "$BIN" run --config configs/gtx1080ti.config --workload "$wl" --set scale=0.01 --set uvm=$u --quiet 2>&1)
        rc=$?
        if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^gms_workload_verified = 1'; then
            pass=$((pass + 1)); echo "ok   e2e $wl scale=0.01 uvm=$u"
        else
            fail=$((fail + 1)); echo "FAIL e2e $wl scale=0.01 uvm=$u (rc=$rc)"; printf '%s\n' "$out" | grep 'gpumemsim' | head -3 | sed 's/^/    /'
        fi
    done
done
# Belady with no future file: a first run records the page sequence; the replay drifts from it with
# timing (docs/uvm.md: srad went 328 -> 343 against LRU's 330 -> 329 when the coalescer changed), so it
# is held to LRU's faults plus 10% (a walk-order future is 3.4x); the exact bound is the timing-free MIN, at most both
for c in "2mm scale=0.0625" "srad rows=128 cols=128 iter=2"; do
    set -- $c
    wl=$1; shift
    # without UVMSmart's write-back at device sync: the order Belady replays is recorded in a
    # first run under LRU and drifts with timing (docs/uvm.md); the sync's invalidations widen the
    # drift past the margin on srad (345 against LRU's 342), so the bound is checked without them
    sets="--set uvm=1 --set uvm_oversub_ratio=2 --set hardware_prefetch=0 --set hwprefetch_oversub=0 --set uvm_sync_writeback=0"
    for kv in "$@"; do sets="$sets --set $kv"; done
    # shellcheck disable=SC2086
    # the LRU run also counts MIN on the functional page-reference string (-gms_uvm_opt_bound):
    # a bound that does not depend on timing, below both runs
    lout=$(timeout 300 "$BIN" run --config configs/gtx1080ti.config --workload "$wl" $sets --set uvm_eviction=lru4k \
          --set gms_uvm_opt_bound=1 --quiet 2>&1)
    lru=$(printf '%s\n' "$lout" | awk '/^Page_tot_fault = / { v = $3 } END { print v }')
    opt=$(printf '%s\n' "$lout" | awk '/^gms_uvm_opt_faults = / { v = $3 } END { print v }')
    # shellcheck disable=SC2086
    out=$(timeout 300 "$BIN" run --config configs/gtx1080ti.config --workload "$wl" $sets --set uvm_eviction=belady --quiet 2>&1)
    bel=$(printf '%s\n' "$out" | awk '/^Page_tot_fault = / { v = $3 } END { print v }')
    if [ -n "$lru" ] && [ -n "$bel" ] && [ $((bel * 100)) -le $((lru * 110)) ] && [ -n "$opt" ] && [ "$opt" -le "$bel" ] &&
       ! printf '%s\n' "$out" | grep -q 'no future page sequence' &&
       printf '%s\n' "$out" | grep -q '^gms_workload_verified = 1'; then
        pass=$((pass + 1)); echo "ok   e2e $wl belady without a future file: $bel faults, lru4k $lru, MIN bound $opt"
    else
        fail=$((fail + 1)); echo "FAIL e2e $wl belady without a future file: '$bel' faults, lru4k '$lru', MIN bound '$opt'"
    fi
done
# with the preset's sync write-back, where the replayed order can drift past LRU (it gave 345
# against 342 on srad), the timing-free MIN bound (240) stays below both
for ev in lru4k belady; do
    out=$(timeout 300 "$BIN" run --config configs/gtx1080ti.config --workload srad --set rows=128 --set cols=128 --set iter=2 \
          --set uvm=1 --set uvm_oversub_ratio=2 --set hardware_prefetch=0 --set hwprefetch_oversub=0 \
          --set uvm_eviction=$ev --set gms_uvm_opt_bound=1 --quiet 2>&1)
    f=$(printf '%s\n' "$out" | awk '/^Page_tot_fault = / { v = $3 } END { print v }')
    opt=$(printf '%s\n' "$out" | awk '/^gms_uvm_opt_faults = / { v = $3 } END { print v }')
    if [ -n "$f" ] && [ -n "$opt" ] && [ "$opt" -le "$f" ]; then
        pass=$((pass + 1)); echo "ok   e2e srad $ev with sync write-back: $f faults, MIN bound $opt"
    else
        fail=$((fail + 1)); echo "FAIL e2e srad $ev with sync write-back: '$f' faults, MIN bound '$opt'"
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
