#!/bin/sh
# Generation rate of heartwall and leukocyte (issue 22) against the full simulation's: the set 'rodinia3' of
# bench/gen_rate.sh, which measures every set. Usage: [GMS_BIN=...] bench/gen_rate_rodinia3.sh [CONFIG]
exec "$(dirname "$0")/gen_rate.sh" "${1:-configs/qv100.config}" rodinia3
