# Sourced by fuzz/combo_sweep.sh and fuzz/trace_sweep.sh (from the repository root): the
# binary, the scratch directory, what counts as a finding and the statistics the host-speed
# options may change.
set -u
ROOT=$(pwd)
BIN=${GMS_BIN:-build/gpumemsim}
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
TMAX=${TMAX:-60}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# is_finding RC ERRFILE: a crash, a time-out, a watchdog or sanitizer report, or a failed exit
# whose last line is not gpumemsim's one error line
is_finding() {
    [ "$1" -ge 124 ] || grep -q -E 'watchdog|AddressSanitizer|runtime error|LeakSanitizer|Assertion' "$2" ||
        { [ "$1" -ne 0 ] && { [ "$1" -ne 1 ] || ! tail -n 1 "$2" | grep -q '^gpumemsim: '; }; }
}

# statistics without what host speed may change: the wall clock, the engine's own edge and
# tick counts, and the digest of the config (which holds the host options)
strip_host() { grep -v -E '"(gms_wall_seconds|[a-z_]*_per_second|gms_engine_edges|gms_engine_ticks|config_digest)"' "$1"; }
