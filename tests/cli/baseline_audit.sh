# Sound-baseline audit (spec 001 1.1, 3.2; docs/cache.md, docs/validation.md). The preset issues
# one instruction per warp per cycle and has 16 register banks, as the author's
# Maxwell-like/gpgpusim.config; the fork's set-index letters; BXOR's t shift; A-prime's prime.
SB=configs/maxwell-sound-baseline.config
$BIN config --config $SB --dump >"$T/sb.dump" 2>"$T/err"
if grep -q '^\*-gpgpu_max_insn_issue_per_warp  *1  *#' "$T/sb.dump" &&
   grep -q '^\*-gpgpu_num_reg_banks  *16  *#' "$T/sb.dump" &&
   grep -q '^Register banks: 16,' "$T/sb.dump" && grep -q 'up to 1 instruction(s) per warp per cycle' "$T/sb.dump"; then
    ok baseline_preset_issue1_banks16
else
    grep 'max_insn_issue_per_warp \|num_reg_banks \|^Register banks' "$T/sb.dump" | cut -c1-100 | sed 's/^/    /'
    bad baseline_preset_issue1_banks16
fi
# the fork's 3.x-form 'P' is PMOD, its 'I' I-Poly; 4.x's 'P' (type letter) I-Poly
$BIN config --config $SB -gpgpu_cache:dl1 32:128:4,L:L:f:N:P,A:128:8,128:0,64 --dump >"$T/sbp.dump" 2>"$T/err"
$BIN config --config $SB -gpgpu_cache:dl1 32:128:4,L:L:f:N:I,A:128:8,128:0,64 --dump >"$T/sbi.dump" 2>>"$T/err"
$BIN config --config $SB -gpgpu_cache:dl1 N:32:128:4,L:L:f:N:P,A:128:8,128:0,64 --dump >"$T/sb4.dump" 2>>"$T/err"
if grep -q '^L1D: .*PMOD (p=31) indexing' "$T/sbp.dump" && grep -q '^L1D: .*I-Poly indexing' "$T/sbi.dump" &&
   grep -q '^L1D: .*I-Poly indexing' "$T/sb4.dump"; then
    ok baseline_fork_index_letters
else
    bad baseline_fork_index_letters
fi
$BIN config --config $SB -gms_l1d_bxor_t_shift 14 --dump >"$T/sbx.dump" 2>"$T/err"
if grep -q '^L1D: .*BXOR (t = addr\[18:14\]) indexing' "$T/sbx.dump"; then ok baseline_bxor_t_shift_dump; else bad baseline_bxor_t_shift_dump; fi
expect_fail baseline_bxor_t_shift_overlap '-gms_l1d_bxor_t_shift 11: t = addr\[15:11\] must lie above the set bits x = addr\[11:7\]' \
    $BIN config --config $SB -gms_l1d_bxor_t_shift 11 --check
expect_fail baseline_aprime_prime_small '-gms_l1d_pmod_prime 31 must be larger than the number of sets (32) for A-prime' \
    $BIN config --config $SB -gpgpu_cache:dl1 N:32:128:4,L:L:f:N:A,A:128:8,128:0,64 -gms_l1d_pmod_prime 31 --check
# the L2's BXOR t shift: the fork's formula at the L2 too; refused on an L2 that is not BXOR
$BIN config --config $SB -gms_l2_bxor_t_shift 14 --dump >"$T/sbl.dump" 2>"$T/err"
if grep -q '^L2: .*BXOR (t = addr\[19:14\]) indexing' "$T/sbl.dump"; then ok baseline_l2_bxor_t_shift
else bad baseline_l2_bxor_t_shift; fi
expect_fail baseline_l2_bxor_t_shift_not_bxor '-gms_l2_bxor_t_shift 14: the L2 set index is not BXOR' \
    $BIN config --config configs/qv100.config -gms_l2_bxor_t_shift 14 --check
