# gpumemsim plot series RUN.txt --y PATTERN [--x PATTERN] --out F: a bad value, a bad file or
# a bad argument gives one error line (naming file, line and statistic) and a non-zero exit.

# expect_one_line NAME RC PATTERN CMD...: exit status RC, and stderr is one line matching
# PATTERN (for a missing argument, the usage text may follow that line)
expect_one_line() {
    name=$1; want=$2; pat=$3; shift 3
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    case $name in *missing*) nl=1 ;; *) nl=$(wc -l < "$T/err") ;; esac
    if [ $rc -eq "$want" ] && [ "$nl" -eq 1 ] && head -1 "$T/err" | grep -q -- "$pat"; then
        ok "$name"; else bad "$name (rc=$rc)"; fi
}

printf 'v[0] = 1\nv[1] = \nv[2] = 3\n' > "$T/ps_empty.txt"
expect_one_line plot_series_empty_value 1 "ps_empty.txt:2: v\[1\]: '' is not a number\$" \
    $BIN plot series "$T/ps_empty.txt" --y 'v[*]' --out "$T/ps.svg"
for v in nan inf -inf; do
    printf 'v[0] = 1\nv[1] = %s\nv[2] = 3\n' "$v" > "$T/ps_nan.txt"
    expect_one_line "plot_series_refuses_$v" 1 "ps_nan.txt:2: v\[1\]: '$v' is not a number\$" \
        $BIN plot series "$T/ps_nan.txt" --y 'v[*]' --out "$T/ps.svg"
done
printf 'v[0] = 1\nv[1] = 2 junk\n' > "$T/ps_junk.txt"
expect_one_line plot_series_junk_one_line 1 "ps_junk.txt:2: v\[1\]: '2 junk' is not a number\$" \
    $BIN plot series "$T/ps_junk.txt" --y 'v[*]' --out "$T/ps.svg"
printf 'v[0] = 1\nv[1] = 1e400\n' > "$T/ps_range.txt"
expect_one_line plot_series_out_of_range 1 "ps_range.txt:2: v\[1\]: '1e400' is out of range" \
    $BIN plot series "$T/ps_range.txt" --y 'v[*]' --out "$T/ps.svg"
# '*' alone on a real run's output: its first non-number, on one line
$BIN run --config configs/qv100.config --set n=8192 --quiet --workload stream --stats-text "$T/ps_run.txt" >/dev/null 2>&1
expect_one_line plot_series_star_on_run_one_line 1 "ps_run.txt:[0-9]*: .*is not a number\$" \
    $BIN plot series "$T/ps_run.txt" --y '*' --out "$T/ps.svg"

# a line of over 1023 characters: its tail is no statistic, and the lines after it keep their numbers
long=$(awk 'BEGIN { s = ""; for (i = 0; i < 1009; i++) s = s "y"; print s }')
printf 'v[0] = 1\nkernel_name = %sv[7] = 5\nv[1] = x\n' "$long" > "$T/ps_long.txt"
expect_one_line plot_series_long_line_numbers 1 "ps_long.txt:3: v\[1\]: 'x' is not a number\$" \
    $BIN plot series "$T/ps_long.txt" --y 'v[*]' --out "$T/ps.svg"
if command -v gnuplot >/dev/null 2>&1; then
    printf 'v[0] = 1\nkernel_name = %sv[7] = 5\nv[1] = 2\n' "$long" > "$T/ps_long.txt"
    expect_one_line plot_series_long_line_no_extra_point 0 "wrote .*ps.svg: 1 line(s), 2 point(s)\$" \
        $BIN plot series "$T/ps_long.txt" --y 'v[*]' --out "$T/ps.svg"
    printf 'v[0] = 1\nv[1] = 2  \r\nv[2] = 3\n' > "$T/ps_good.txt"
    expect_one_line plot_series_good_file 0 "wrote .*ps.svg: 1 line(s), 3 point(s)\$" \
        $BIN plot series "$T/ps_good.txt" --y 'v[*]' --out "$T/ps.svg"
fi

# messages: --x matching nothing, or none of --y's points; a directory; a long '*' match
printf 'v[0] = 1\nv[1] = 2\n' > "$T/ps_x.txt"
expect_one_line plot_series_x_matches_nothing 1 "--x w\[\*\] matches no statistic of .*ps_x.txt\$" \
    $BIN plot series "$T/ps_x.txt" --y 'v[*]' --x 'w[*]' --out "$T/ps.svg"
printf 's[sm1][0]_L = 1\nc[sm1][0] = 100\n' > "$T/ps_xl.txt"
expect_one_line plot_series_x_other_lines 1 "--x c\[\*\]\[\*\] matches statistics of .*ps_xl.txt, but none of the same line and point as --y" \
    $BIN plot series "$T/ps_xl.txt" --y 's[sm*][*]_L' --x 'c[*][*]' --out "$T/ps.svg"
mkdir -p "$T/ps_dir"
expect_one_line plot_series_directory 1 "ps_dir: is a directory" \
    $BIN plot series "$T/ps_dir" --y 'v[*]' --out "$T/ps.svg"
awk 'BEGIN { s = ""; for (i = 0; i < 100; i++) s = s "a"; printf "s[%s][0] = 4\ns[%s][1] = zz\n", s, s }' > "$T/ps_star.txt"
expect_one_line plot_series_long_star_matches 1 "ps_star.txt:2: s\[a*\]\[1\]: 'zz' is not a number\$" \
    $BIN plot series "$T/ps_star.txt" --y 's[*][*]' --out "$T/ps.svg"

# arguments: what is missing, named on the first line; an option given twice
expect_one_line plot_series_missing_run 2 "^gpumemsim plot series: missing RUN.txt" \
    $BIN plot series --y 'v[*]' --out "$T/ps.svg"
expect_one_line plot_series_missing_y 2 "^gpumemsim plot series: missing --y PATTERN\$" \
    $BIN plot series "$T/ps_x.txt" --out "$T/ps.svg"
expect_one_line plot_series_missing_out 2 "^gpumemsim plot series: missing --out FILE\$" \
    $BIN plot series "$T/ps_x.txt" --y 'v[*]'
expect_one_line plot_series_missing_all 2 "^gpumemsim plot series: missing RUN.txt (the run's text output), --y PATTERN and --out FILE\$" \
    $BIN plot series
expect_one_line plot_series_y_twice 2 "^gpumemsim plot series: --y given twice ('v\[\*\]', then 'w\[\*\]')\$" \
    $BIN plot series "$T/ps_x.txt" --y 'v[*]' --y 'w[*]' --out "$T/ps.svg"
expect_one_line plot_series_x_twice 2 "^gpumemsim plot series: --x given twice" \
    $BIN plot series "$T/ps_x.txt" --y 'v[*]' --x 'v[*]' --x 'w[*]' --out "$T/ps.svg"
expect_one_line plot_series_out_twice 2 "^gpumemsim plot series: --out given twice ('a.svg', then 'b.svg')\$" \
    $BIN plot series "$T/ps_x.txt" --y 'v[*]' --out a.svg -o b.svg
