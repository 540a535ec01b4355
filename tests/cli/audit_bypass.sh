# DL-MSHR at the L2 (docs/dlmshr.md, "Statistics"): the table is searched only once the miss
# queue has room, and once per write-allocate miss, so every link stall is a merge-full
# reservation fail. alignedtypes' byte copies (type 1) on a small L2 table (A:8:4, a 4-entry
# miss queue) refuse merges and fill the miss queue; the total link stalls were 736 for 732
# merge fails.
ab_total() { sed -n '/"total"/,/"kernels"/p' "$1" | sed -n "s/^ *\"$2\": \\([0-9]*\\).*/\\1/p" | head -1; }
expect_ok  dlmshr_alignedtypes_small_l2 $BIN run --config configs/dlmshr-28sm.config --workload alignedtypes \
    --set mem_size=32768 --set type=1 --set iterations=1 -gms_l1d_mshr dlmshr -gms_l2_mshr dlmshr \
    -gpgpu_cache:dl2 N:64:128:16,L:B:m:W:L,A:8:4,4:0,32 --quiet --stats-json "$T/ab.json"
ab_ls=$(ab_total "$T/ab.json" gms_L2_mshr_link_stalls)
ab_mf=$(ab_total "$T/ab.json" gms_L2_mshr_rf_merge_full)
ab_mq=$(ab_total "$T/ab.json" 'L2_fail_breakdown\[GLOBAL_ACC_W\]\[MISS_QUEUE_FULL\]')
if [ -n "$ab_ls" ] && [ -n "$ab_mf" ] && [ -n "$ab_mq" ] && [ "$ab_mf" -gt 0 ] && [ "$ab_mq" -gt 0 ] &&
   [ "$ab_ls" -le "$ab_mf" ]; then
    ok dlmshr_link_stalls_are_merge_fails
else
    echo "    link stalls $ab_ls, merge-full fails $ab_mf, miss-queue-full fails $ab_mq"; bad dlmshr_link_stalls_are_merge_fails
fi
