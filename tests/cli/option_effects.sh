# Options whose value would not take effect as given: a knob set for a design the run does not
# use is named (warning) with the option that chooses that design; a setting that would be
# silently changed (DL-MSHR's sets) or that has nothing to act on (no L1D, instant eviction, more
# SMs than the GPU has) is refused with one line naming the option(s); a number out of range is
# quoted as given.

OE_Q="--workload stream --set n=4096 --config configs/qv100.config --quiet"
OE_F="--workload stream --set n=4096 --config configs/gtx480.config --quiet"
OE_L1="N:32:128:4,L:L:m:N:H"

# oe_refused NAME PATTERN CMD...: exit 1 or 2 (not a signal), stderr exactly one line matching
# PATTERN, and no statistics on stdout
oe_refused() {
    name=$1; pat=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q -- "$pat" "$T/err" &&
       [ ! -s "$T/out" ]; then ok "$name"; else bad "$name (rc=$rc)"; fi
}

# 1. an L2 DL-MSHR knob names the L2's design option and the L2's choice, not the L1D's
$BIN run $OE_Q -gms_l1d_mshr dlmshr -gms_l2_dlmshr 4:50:1:1 >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'warning: -gms_l2_dlmshr is set, but it has no effect unless -gms_l2_mshr is dlmshr (this run: conventional)$' "$T/err" &&
   ! grep -q 'gms_l1d_mshr' "$T/err"; then
    ok oe_l2_dlmshr_warning_names_l2_mshr; else bad oe_l2_dlmshr_warning_names_l2_mshr; fi
$BIN run $OE_Q -gms_l2_mshr dlmshr -gms_l1d_dlmshr 4:50:1:1 >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'warning: -gms_l1d_dlmshr is set, but it has no effect unless -gms_l1d_mshr is dlmshr (this run: conventional)$' "$T/err"; then
    ok oe_l1d_dlmshr_warning_names_l1d_mshr; else bad oe_l1d_dlmshr_warning_names_l1d_mshr; fi
$BIN run $OE_Q -gms_l2_mshr dlmshr -gms_l2_dlmshr 4:50:1:1 >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && ! grep -q 'gms_l2_dlmshr is set' "$T/err"; then
    ok oe_l2_dlmshr_in_use_no_warning; else bad oe_l2_dlmshr_in_use_no_warning; fi

# 2. DL-MSHR keeps the cache string's entries x max_merge slots, in sets of S: S above the
# total (it built one set of S: 16x the slots, no reserve), S not dividing it (85 x 3 = 255 of
# 256) and a reserve that comes to no set are refused, naming both options
oe_refused oe_dlmshr_set_larger_than_slots \
    '^gpumemsim: -gms_l1d_dlmshr 64:50:1:1: 64 slots per set is more than the 4 MSHR slots of -gpgpu_cache:dl1 (2 entries x 2 merges)' \
    $BIN run $OE_Q -gms_l1d_mshr dlmshr -gms_l1d_dlmshr 64:50:1:1 -gpgpu_cache:dl1 "$OE_L1,A:2:2,8"
oe_refused oe_dlmshr_set_not_dividing_slots \
    '^gpumemsim: -gms_l1d_dlmshr 3:50:1:1: 3 slots per set does not divide the 256 MSHR slots of -gpgpu_cache:dl1 (32 entries x 8 merges)' \
    $BIN run $OE_F -gms_l1d_mshr dlmshr -gms_l1d_dlmshr 3:50:1:1
oe_refused oe_dlmshr_l2_set_not_dividing_slots \
    '^gpumemsim: -gms_l2_dlmshr 5:50:1:1: 5 slots per set does not divide the .* MSHR slots of -gpgpu_cache:dl2' \
    $BIN run $OE_Q -gms_l2_mshr dlmshr -gms_l2_dlmshr 5:50:1:1
oe_refused oe_dlmshr_reserve_no_set \
    '^gpumemsim: -gms_l1d_dlmshr 2:50:1:1: 50% of the 1 set (-gpgpu_cache:dl1: 2 MSHR slots / 2 per set) is no set to reserve' \
    $BIN run $OE_Q -gms_l1d_mshr dlmshr -gpgpu_cache:dl1 "$OE_L1,A:1:2,8"
# a split that keeps the slots is built as given
$BIN config --config configs/gtx480.config --dump -gms_l1d_mshr dlmshr -gms_l1d_dlmshr 4:50:1:1 >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'L1D MSHR design: dlmshr: 64 sets x 4 slots (the string.s 32 x 8), 32 reserved as heads' "$T/out"; then
    ok oe_dlmshr_dividing_split_as_given; else bad oe_dlmshr_dividing_split_as_given; fi

# 3. options with nothing to act on
oe_refused oe_mdb_monitor_needs_global \
    '^gpumemsim: -gms_mdb_monitor is set, but it has no effect unless -gms_l1d_bypass mdb-global' \
    $BIN run $OE_Q -gms_l1d_bypass mdb-local -gms_mdb_monitor 5
for pol in mdb-local pdp static; do
    oe_refused oe_bypass_${pol}_needs_l1d \
        "^gpumemsim: -gms_l1d_bypass $pol is set, but it has no effect unless the L1D exists (-gpgpu_cache:dl1 is none" \
        $BIN run $OE_Q -gms_l1d_bypass $pol -gpgpu_cache:dl1 none
done
oe_refused oe_l1d_dlmshr_needs_l1d \
    '^gpumemsim: -gms_l1d_mshr is set, but it has no effect unless the L1D exists' \
    $BIN run $OE_Q -gms_l1d_mshr dlmshr -gpgpu_cache:dl1 none
oe_refused oe_l2_dlmshr_needs_l2 \
    '^gpumemsim: -gms_l2_mshr is set, but it has no effect unless the L2 exists' \
    $BIN run $OE_Q -gms_l2_mshr dlmshr -gpgpu_cache:dl2 none
# the L2's design without an L1D is the study's nol1-dlmshr variant: still accepted
expect_ok oe_l2_dlmshr_without_l1d $BIN run $OE_Q -gms_l2_mshr dlmshr -gpgpu_cache:dl1 none
oe_refused oe_evict_serial_with_instant \
    '^gpumemsim: -gms_uvm_evict_serial and -gms_uvm_evict_instant are both 1: with instant eviction nothing is written back' \
    $BIN run $OE_Q -uvm_runtime batch -gms_uvm_evict_serial 1 -gms_uvm_evict_instant 1
oe_refused oe_active_sms_above_gpu \
    "^gpumemsim: -gms_uvm_active_sms: 1000 is more than the GPU's 15 SMs" \
    $BIN run $OE_F -gms_uvm_active_sms 1000
oe_refused oe_active_sms_one_above_gpu \
    "^gpumemsim: -gms_uvm_active_sms: 16 is more than the GPU's 15 SMs" \
    $BIN run $OE_F -gms_uvm_active_sms 16
expect_ok oe_active_sms_every_sm $BIN run $OE_F -gms_uvm_active_sms 15

# 5. a number past 64 bits is quoted as given, not as the saturated 18446744073709551615
oe_refused oe_l2q_cart_out_of_range_as_given \
    '^gpumemsim: -gms_l2q_cart: nR (rows per bank) must be 1..32, got 1180591620717411303424$' \
    $BIN run $OE_Q -gms_l2q_cart 1180591620717411303424:2:2

# -uvm_oversub_ratio on a run with no managed memory: the run proceeds and says the option did
# nothing (it aborted on "device capacity for managed pages is below one page (footprint 0)")
$BIN run --workload stream --set n=4096 --config configs/qv100.config --quiet -uvm_oversub_ratio 1.25 >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "warning: -uvm_oversub_ratio 1.25 has no effect: the run allocated no managed memory" "$T/err" &&
   ! grep -q "below one page" "$T/err"; then ok oe_oversub_without_managed_memory_said
else bad "oe_oversub_without_managed_memory_said (rc=$rc)"; fi

# UVM policy options on a run that allocated no managed memory (uvm=1 forgotten) are named once
# after the run; the presets' own UVM settings and a UVM run are not
$BIN run --workload stream --set n=4096 --config configs/qv100.config --quiet -uvm_eviction hpe -gms_uvm_to 1 -uvm_runtime batch >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c 'allocated no managed memory' "$T/err")" -eq 1 ] &&
   grep -q 'no effect: -uvm_runtime, -uvm_eviction, -gms_uvm_to (' "$T/err"; then ok oe_uvm_options_without_managed_memory_named
else bad "oe_uvm_options_without_managed_memory_named (rc=$rc)"; fi
$BIN run --workload stream --set n=4096 --config configs/gtx1080ti.config --quiet >"$T/out" 2>"$T/err"
if ! grep -q 'allocated no managed memory' "$T/err"; then ok oe_preset_uvm_settings_not_named; else bad oe_preset_uvm_settings_not_named; fi
$BIN run --workload stream --set n=65536 --set uvm=1 --config configs/gtx1080ti.config --quiet -uvm_eviction lru4k >"$T/out" 2>"$T/err"
if ! grep -q 'allocated no managed memory' "$T/err"; then ok oe_uvm_run_options_not_named; else bad oe_uvm_run_options_not_named; fi

# a knob two families claim (-gms_cke_profile_window: Warped-Slicer's profiles, SMK-W's rates)
# is named only when neither family's chosen member reads it, and then with both families
CKE2="--config configs/gtx480.config --workload stream --workload transpose --set scale=0.05 --set gms_cke_window=20000 --set gms_cke_profile_window=20000 --quiet"
$BIN run $CKE2 --set gms_cke_tb=ws --set gms_cke_mi=dmil >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && ! grep -q 'gms_cke_profile_window is set' "$T/err"; then ok oe_knob_of_two_families_used_by_one
else bad "oe_knob_of_two_families_used_by_one (rc=$rc)"; fi
$BIN run $CKE2 --set gms_cke_tb=spatial --set gms_cke_mi=qbmi >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'gms_cke_profile_window is set, but it has no effect unless -gms_cke_tb is ws or ws-ucp (this run: spatial), or -gms_cke_mi is smkw (this run: qbmi)$' "$T/err"; then
    ok oe_knob_of_two_families_used_by_neither; else bad "oe_knob_of_two_families_used_by_neither (rc=$rc)"; fi
