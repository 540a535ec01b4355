#!/bin/sh
# Digest of every built-in workload's instruction stream (issue 22, the wl_*/rw_* merge):
# for each workload of `gpumemsim list workloads` and each parameter set, the sha256 of its
# exported Accel-Sim trace (every warp instruction with its PC, mask, registers and lane
# addresses) and of its `run --no-timing` statistics and stderr (clamp notes, sizes), the
# wall-clock lines removed. Run before and after a change that must not alter any stream and
# diff the two outputs.
# A trace above 64 MiB or an export over TMAX (60) s is recorded as `big` (kmeans' text trace at
# scale=0.1 is 21 GB): such a workload is then compared by its statistics alone at that size.
# Usage: [GMS_BIN=...] [WLS="a b"] bench/stream_digest.sh OUTFILE [SETS...]
#        (default sets: scale=0.02 "scale=0.05 uvm=1")
set -u
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
OUT=$1; shift
[ $# -gt 0 ] || set -- "scale=0.02" "scale=0.05 uvm=1"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
: >"$OUT"
for wl in ${WLS:-$("$BIN" list workloads | awk 'NR>1{print $1}')}; do
    for params in "$@"; do
        sets=""; for kv in $params; do sets="$sets --set $kv"; done
        rm -rf "$T/tr"
        # shellcheck disable=SC2086
        (ulimit -f 65536; exec timeout ${TMAX:-60} "$BIN" trace export --workload "$wl" $sets --out "$T/tr") >"$T/o" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then
            tr=$(cat "$T/tr"/* | sha256sum | cut -c1-16)
        elif [ $rc -eq 124 ] || [ "$(du -sk "$T/tr" 2>/dev/null | cut -f1)" -ge 65000 ]; then
            tr=big
        else
            tr="fail:$(tail -1 "$T/o" | sha256sum | cut -c1-8)"
        fi
        # shellcheck disable=SC2086
        "$BIN" run --config configs/qv100.config --workload "$wl" $sets --no-timing >"$T/g" 2>&1
        rc=$?
        st=$(grep -v -e gms_wall_seconds -e _per_second "$T/g" | sha256sum | cut -c1-16)
        printf '%-16s %-22s trace=%s nt=%s rc=%s\n' "$wl" "$params" "$tr" "$st" "$rc" >>"$OUT"
    done
done
