#!/bin/sh
# Generation rate of barnes-hut (issue 22) against the full simulation's: the set 'lonestar' of
# bench/gen_rate.sh, which measures every set. Usage: [GMS_BIN=...] bench/gen_rate_lonestar.sh [CONFIG]
exec "$(dirname "$0")/gen_rate.sh" "${1:-configs/qv100.config}" lonestar
