# Helpers for the sweep harness tests (POSIX sh). Source after setting T (the test's name).
# GMS_BIN: the gpumemsim under test (default build/gpumemsim), made absolute.
# Each check prints "ok   NAME" or "FAIL NAME: why"; summary prints
# "N passed, N failed, N skipped".
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${GMS_BIN:-build/gpumemsim}
case "$BIN" in /*) ;; *) BIN="$ROOT/$BIN" ;; esac
CONFIG="$ROOT/configs/qv100.config"
PASS=0
FAILN=0
SKIPN=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gms-harness-$T.XXXXXX")
[ -n "${GMS_KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
ok()   { PASS=$((PASS + 1)); echo "ok   $T: $1"; }
bad()  { FAILN=$((FAILN + 1)); echo "FAIL $T: $1"; }
# check NAME COMMAND...: passes when the command succeeds
check() { n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }
# skip WHY: a check that cannot run here (a missing optional tool), counted as skipped
skip() { SKIPN=$((SKIPN + 1)); echo "skip $T: $1"; }
# skip_ci_service WHY: the same for want of something CI provides (the local Slurm that
# .ci/slurm-up.sh starts, gnuplot that .ci/run installs): under CI=true it must have run,
# so there the skip is a failure
skip_ci_service() {
    if [ "${CI:-}" = true ]; then bad "skipped under CI=true, which provides what it needs: $1"
    else skip "$1"; fi
}
summary() { echo "$PASS passed, $FAILN failed, $SKIPN skipped"; [ "$FAILN" -eq 0 ]; }
# Host-timing stats (wall seconds, rates) differ between two runs of the same point: the
# comparisons below leave them out.
HOST_STATS='^gms_wall|_per_second$'
# the total stats of a run's --stats-json file, one "name value" line each, sorted
# (the "total" object holds only numbers, so the text up to its first '}' is all of it)
json_totals() {
    tr -d '\n' < "$1" | sed -e 's/.*"total"[ ]*:[ ]*{//' -e 's/}.*//' | tr ',' '\n' |
        sed -n 's/^[ ]*"\([^"]*\)"[ ]*:[ ]*\([^ ]*\)[ ]*$/\1 \2/p' | awk -v h="$HOST_STATS" '$1 !~ h' | sort
}
# the total stats of one point from `sweep export` CSV, same format
export_totals() {  # $1 = export csv, $2 = point id
    awk -F, -v id="$2" -v h="$HOST_STATS" '$1 == id && $8 == "0" && $9 !~ h { print $9, $10 }' "$1" | sort
}
# `sweep export` CSV without the host-timing stats
export_sim() { "$BIN" sweep export "$1" | awk -F, -v h="$HOST_STATS" '$9 !~ h'; }
# the point id of VARIANT WORKLOAD SEED from `sweep plan` output
plan_id() { awk -v v="$2" -v w="$3" -v s="$4" '$3 == v && $4 == w && $5 == s { print $2 }' "$1"; }
