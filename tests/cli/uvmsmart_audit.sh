# UVMSmart audit of 2026-12 (docs/uvm.md): -uvm_oversub_ratio in whole pages with the ratio
# the run got and one warning; -percentage_of_free_page_buffer as UVMSmart's float percent.
# Sourced by tests/cli_tests.sh (BIN, T, ok, bad, expect_ok, expect_fail).

# stream n=256K: 3 MiB managed; 2 MiB pages at 1.1: 1.36 pages -> 1, a ratio of 1.5
UA="--config configs/gtx1080ti.config --workload stream --set n=262144 --set uvm=1 --set page_size=2MB --quiet"
$BIN run $UA --set uvm_oversub_ratio=1.1 --stats-json "$T/ua.json" > /dev/null 2> "$T/ua.err"
if grep -q '"gms_uvm_oversub_ratio_effective": 1.5' "$T/ua.json" && grep -q '"Uvm_capacity_pages": 1' "$T/ua.json" \
   && [ "$(grep -c 'warning: -uvm_oversub_ratio 1.1 gives 1 pages of 2048 KiB .* ratio of 1.5' "$T/ua.err")" = 1 ]; then
    ok uvm_oversub_ratio_effective_and_one_warning; else bad uvm_oversub_ratio_effective_and_one_warning; fi
# 1.5 exactly: no warning
$BIN run $UA --set uvm_oversub_ratio=1.5 > /dev/null 2> "$T/ua2.err"
if ! grep -q 'warning: -uvm_oversub_ratio' "$T/ua2.err"; then
    ok uvm_oversub_ratio_exact_no_warning; else bad uvm_oversub_ratio_exact_no_warning; fi
# UVMSmart's config spells the buffer 0.0; fractions are percents
expect_ok   uvmsmart_free_page_buffer_float  $BIN run $UA --set uvm_oversub_ratio=1.5 --set percentage_of_free_page_buffer=2.5
expect_fail uvmsmart_free_page_buffer_range '-percentage_of_free_page_buffer: 100 must be in \[0, 100)' \
            $BIN run $UA --set percentage_of_free_page_buffer=100
$BIN config --config configs/gtx1080ti.config --set percentage_of_free_page_buffer=0.0 --dump > "$T/ua.dump" 2>&1
if grep -q 'UVM eviction trigger: projected occupancy above 100% of the frames; a write-back on the D2H lane counts as pending until it ends' "$T/ua.dump"; then
    ok uvmsmart_trigger_in_dump; else bad uvmsmart_trigger_in_dump; fi
