#!/bin/sh
# Build the trace-reader fuzzer (clang, libFuzzer + ASan + UBSan) and run it.
#   fuzz/run.sh [seconds]      default 300; run from the repository root
# New interesting inputs go to fuzz/corpus/; crashes to fuzz/crash-* (turn each one into a
# case in tests/unit/test_trace_fuzz_regress.c).
set -e
SECS=${1:-300}
OUT=${FUZZ_BUILD:-build/fuzz}
mkdir -p "$OUT"
SRC="$(ls src/frontend/trace*.c src/frontend/opcodes*.c src/frontend/decompress.c | grep -v trace_export.c) \
     src/frontend/inst.c src/frontend/program.c src/util/err.c"
clang -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
      -Iinclude -Isrc -o "$OUT/fuzz_trace" fuzz/fuzz_trace.c $SRC -llzma -lzstd
"$OUT/fuzz_trace" -max_total_time="$SECS" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix=fuzz/ fuzz/corpus
