#!/bin/sh
# Generation rate of the Rodinia and data-cache workloads (issue 22) against the full simulation's: the set 'rodinia2' of
# bench/gen_rate.sh, which measures every set. Usage: [GMS_BIN=...] bench/gen_rate_rodinia2.sh [CONFIG]
exec "$(dirname "$0")/gen_rate.sh" "${1:-configs/qv100.config}" rodinia2
