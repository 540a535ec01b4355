#!/bin/sh
# Trace parse throughput (MB/s of plain text): the six Accel-Sim reference traces, read
# plain (decompressed to a temp dir) and as the original .xz, plus a generated 200 MB trace
# of short lines. Run from the repository root: sh bench/trace_parse.sh
set -e
REF=${GMS_REF:-/work/shared/reference/accelsim}
OUT=${BENCH_BUILD:-build/bench}
TMP=$(mktemp -d /tmp/gms_trace_bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
SRC="$(ls src/frontend/trace*.c src/frontend/opcodes*.c src/frontend/decompress.c | grep -v trace_export.c) \
     src/frontend/inst.c src/frontend/program.c src/util/err.c"
${CC:-gcc} -std=c11 -D_GNU_SOURCE -O2 -Iinclude -Isrc -o "$OUT/trace_parse" bench/trace_parse.c $SRC -llzma -lzstd
echo "parse throughput (best of 3; MB = decompressed plain text)"
total=0
for d in "$REF"/*/; do
    [ -f "$d/kernelslist.g" ] || continue
    n=$(basename "$d")
    mkdir -p "$TMP/$n"
    xz -dc "$d/kernel-1.traceg.xz" > "$TMP/$n/kernel-1.traceg"
    echo kernel-1.traceg > "$TMP/$n/kernelslist.g"
    bytes=$(wc -c < "$TMP/$n/kernel-1.traceg")
    "$OUT/trace_parse" "$TMP/$n/kernelslist.g" "$bytes"
    "$OUT/trace_parse" "$d/kernelslist.g" "$bytes" | sed 's/^/(xz) /'
done
# all six as one plain trace
if [ -d "$TMP/vecadd" ]; then
    : > "$TMP/all.list"; all=0
    for n in vecadd strided gather transpose reuse matvec_row; do
        echo "$n/kernel-1.traceg" >> "$TMP/all.list"
        all=$((all + $(wc -c < "$TMP/$n/kernel-1.traceg")))
    done
    "$OUT/trace_parse" "$TMP/all.list" "$all"
fi
