#!/bin/sh
# Build a fuzzer (clang, libFuzzer + ASan + UBSan) and run it. Run from the repository root.
#   fuzz/run.sh [trace|config|spec] [seconds]    default: trace, 300 s
#   fuzz/run.sh 600                              the trace fuzzer for 600 s (as before)
#   FUZZ_RUNS=1000000 fuzz/run.sh config         stop after that many executions instead
# trace:  the trace reader (fuzz_trace.c), corpus fuzz/corpus/
# config: the config parser and every module's decoder (fuzz_config.c), seeds fuzz/seeds_config/
# spec:   the sweep-spec parser, check and plan (fuzz_spec.c), seeds fuzz/seeds_spec/
# The trace fuzzer adds new interesting inputs to fuzz/corpus/; config and spec keep theirs in
# $FUZZ_BUILD/corpus_<target>/ and only read the small seed directories. Crashes are written
# to fuzz/crash-*: turn each one into a case in tests/unit (test_trace_fuzz_regress.c,
# test_config_fuzz_regress.c) and keep it passing. docs/fuzzing.md has the details.
set -e
TARGET=trace
case "$1" in trace|config|spec) TARGET=$1; shift ;; esac
SECS=${1:-300}
OUT=${FUZZ_BUILD:-build/fuzz}
mkdir -p "$OUT"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
LIMIT="-max_total_time=$SECS"
[ -n "$FUZZ_RUNS" ] && LIMIT="-runs=$FUZZ_RUNS"
if [ "$TARGET" = trace ]; then
    SRC="$(ls src/frontend/trace*.c src/frontend/opcodes*.c src/frontend/decompress.c | grep -v trace_export.c) \
         src/frontend/inst.c src/frontend/program.c src/util/err.c"
    clang -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=fuzzer $SAN \
          -Iinclude -Isrc -o "$OUT/fuzz_trace" fuzz/fuzz_trace.c $SRC -llzma -lzstd
    exec "$OUT/fuzz_trace" $LIMIT -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
          -artifact_prefix=fuzz/ fuzz/corpus
fi
# config and spec reach most of the library: build all of it once, instrumented, with the
# project's own Makefile (its own build directory, no profile-guided build; gcc -Werror is
# the warning gate, clang's extra warnings would only stop the fuzzing)
make -s PGO=0 CC=clang BUILD="$OUT/lib" OPT="-O1 -g" WARN=-w XCFLAGS="-fsanitize=fuzzer-no-link $SAN" "$OUT/lib/libgpumemsim.a"
# option names, units and spec words help the mutator past the "unknown option" error
DICT="$OUT/$TARGET.dict"
if [ "$TARGET" = config ]; then
    sed -n 's/^ *[A-Z_]*(\("[a-z0-9_:]*"\),.*/\1/p' src/*/*_options.c | sort -u > "$DICT"
    printf '"-config"\n"#"\n"\\""\n"GB/s"\n"MB/s"\n"KB"\n"MB"\n"GB"\n"us"\n"0x"\n"4294967296"\n"N:32:128:4,L:L:m:N:H,A:32:8,8"\n' >> "$DICT"
else
    # libFuzzer dictionary syntax: "\xNN" escapes (here a backslash-newline continuation)
    for w in variant workload seeds exclude set config baseline db results timeout slurm as group \
             '{' '|' '}' .. = variant= workload= seed= chunk= parallel= 'config=' '\x5c\x0a' '\x22'; do
        printf '"%s"\n' "$w"
    done > "$DICT"
fi
clang -O1 -g -fsanitize=fuzzer $SAN -Iinclude -Isrc -o "$OUT/fuzz_$TARGET" "fuzz/fuzz_$TARGET.c" \
      "$OUT/lib/libgpumemsim.a" -llzma -lzstd -lsqlite3 -lm -pthread
mkdir -p "$OUT/corpus_$TARGET"
exec "$OUT/fuzz_$TARGET" $LIMIT -max_len=4096 -timeout=10 -rss_limit_mb=2048 -dict="$DICT" \
      -artifact_prefix=fuzz/ "$OUT/corpus_$TARGET" "fuzz/seeds_$TARGET"
