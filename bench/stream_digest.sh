#!/bin/sh
# Digest of every built-in workload's instruction stream (issue 22, the wl_*/rw_* merge):
# for each workload of `gpumemsim list workloads` and each parameter set, the sha256 of its
# exported Accel-Sim trace (every warp instruction with its PC, mask, registers and lane
# addresses) and of its `run --no-timing` statistics and stderr (clamp notes, sizes), the
# wall-clock lines removed. Run before and after a change that must not alter any stream and
# diff the two outputs.
# A trace file above 64 MiB (ulimit -f 131072: POSIX sh counts 512-byte blocks, so run it with
# sh, not bash) or an export over TMAX (60) s is recorded as `big` (kmeans' text trace at
# scale=0.1 is 21 GB): such a workload is then compared by its statistics alone at that size.
# Usage: [GMS_BIN=...] [WLS="a b"] bench/stream_digest.sh OUTFILE [SETS...]
#        (default sets: scale=0.02 "scale=0.05 uvm=1"; OUTFILE and GMS_BIN relative to the
#        caller's directory)
set -u
[ $# -gt 0 ] || { echo "usage: [GMS_BIN=...] [WLS=\"a b\"] bench/stream_digest.sh OUTFILE [SETS...]" >&2; exit 2; }
OUT=$1; shift
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
case ${GMS_BIN:-/} in /*) ;; *) GMS_BIN=$PWD/$GMS_BIN ;; esac
cd "$(dirname "$0")/.."
BIN=${GMS_BIN:-build/gpumemsim}
FBLOCKS=131072   # 64 MiB in 512-byte blocks
[ $# -gt 0 ] || set -- "scale=0.02" "scale=0.05 uvm=1"
ALL=$("$BIN" list workloads | awk 'NR>1{printf "%s ", $1}')
[ -n "$ALL" ] || { echo "bench/stream_digest.sh: no workload list from $BIN (make, or GMS_BIN=...)" >&2; exit 1; }
bad=""
for wl in ${WLS:-}; do
    case " $ALL" in *" $wl "*) ;; *) bad="$bad $wl" ;; esac
done
[ -z "$bad" ] || { echo "bench/stream_digest.sh: unknown workload(s) in WLS:$bad (see $BIN list workloads)" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
: >"$OUT"
for wl in ${WLS:-$ALL}; do
    for params in "$@"; do
        sets=""; for kv in $params; do sets="$sets --set $kv"; done
        rm -rf "$T/tr"
        # the subshell, not this script, reports a death by SIGXFSZ (into $T/o): no exec, and a
        # command after the export so that dash does not exec it either
        # shellcheck disable=SC2086
        (ulimit -f $FBLOCKS; timeout ${TMAX:-60} "$BIN" trace export --workload "$wl" $sets --out "$T/tr"; exit $?) >"$T/o" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then
            tr=$(cat "$T/tr"/* | sha256sum | cut -c1-16)
        # 124: timeout; 153: killed by SIGXFSZ at the size limit (or a file stopped at it)
        elif [ $rc -eq 124 ] || [ $rc -eq 153 ] ||
             [ -n "$(find "$T/tr" -type f -size +$((FBLOCKS - 1)) 2>/dev/null)" ]; then
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
