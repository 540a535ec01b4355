#!/bin/sh
# Trace parse throughput (MB/s of plain text): the Accel-Sim reference traces, read
# plain (decompressed to a temp dir) and as the original .xz, then all of them as one plain
# trace. The reference directory: $GMS_REF, else reference/accelsim in $GMS_SHARED_DIR
# (default ../shared, beside the project root). The parser is built into $BENCH_BUILD (default
# build/bench inside the repository, which .gitignore leaves out). Usage: sh bench/trace_parse.sh
set -e
# a relative BENCH_BUILD is the caller's, not the repository's
case ${BENCH_BUILD:-/} in /*) ;; *) BENCH_BUILD=$PWD/$BENCH_BUILD ;; esac
cd "$(dirname "$0")/.."
REF=${GMS_REF:-${GMS_SHARED_DIR:-../shared}/reference/accelsim}
[ -d "$REF" ] || { echo "no reference directory $REF (set GMS_REF or GMS_SHARED_DIR)"; exit 1; }
OUT=${BENCH_BUILD:-build/bench}
TMP=$(mktemp -d /tmp/gms_trace_bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
SRC="$(ls src/frontend/trace*.c src/frontend/opcodes*.c src/frontend/decompress.c | grep -v trace_export.c) \
     src/frontend/inst.c src/frontend/program.c src/frontend/warp_refill.c src/util/err.c"
${CC:-gcc} -std=c11 -D_GNU_SOURCE -O2 -Iinclude -Isrc -o "$OUT/trace_parse" bench/trace_parse.c $SRC -llzma -lzstd
echo "parse throughput (best of 3; MB = decompressed plain text)"
names=""
for d in "$REF"/*/; do
    [ -f "$d/kernelslist.g" ] || continue
    n=$(basename "$d")
    names="$names $n"
    mkdir -p "$TMP/$n"
    xz -dc "$d/kernel-1.traceg.xz" > "$TMP/$n/kernel-1.traceg"
    echo kernel-1.traceg > "$TMP/$n/kernelslist.g"
    bytes=$(wc -c < "$TMP/$n/kernel-1.traceg")
    "$OUT/trace_parse" "$TMP/$n/kernelslist.g" "$bytes"
    "$OUT/trace_parse" "$d/kernelslist.g" "$bytes" | sed 's/^/(xz) /'
done
# all of them as one plain trace
if [ -n "$names" ]; then
    : > "$TMP/all.list"; all=0
    for n in $names; do
        # absolute paths: a list line is read as a path only when it starts with "kernel" or "/"
        echo "$TMP/$n/kernel-1.traceg" >> "$TMP/all.list"
        all=$((all + $(wc -c < "$TMP/$n/kernel-1.traceg")))
    done
    "$OUT/trace_parse" "$TMP/all.list" "$all"
fi
