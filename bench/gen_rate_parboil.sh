#!/bin/sh
# Generation rate of the Parboil workloads (issue 22) against the full simulation's: the set 'parboil' of
# bench/gen_rate.sh, which measures every set. Usage: [GMS_BIN=...] bench/gen_rate_parboil.sh [CONFIG]
exec "$(dirname "$0")/gen_rate.sh" "${1:-configs/qv100.config}" parboil
