# Concurrent kernels, audit of 2026-12-06 (docs/cke.md): kernels that cannot share an SM are one
# clear error under the partition schemes that give every kernel a block (Warped-Slicer, SMK-P),
# naming the kernels and the resource. Sourced by tests/cli_tests.sh (BIN, T, ok, bad, expect_fail).

# one block slot per SM: bp and ks each fit alone, not together
CK1="--config configs/maxwell-sound-baseline.config --workload cke --set apps=bp+ks --set scale=0.1 -gms_cke_window 5000 -gms_cke_profile_window 2000 -gpgpu_shader_cta 1 --quiet"
expect_fail cke_kernels_cannot_coreside_ws 'gms_cke_tb ws: the kernels of bp+ks cannot share an SM: one block of each needs 2 block slots (an SM has 1)' \
           $BIN run $CK1 -gms_cke_tb ws
expect_fail cke_kernels_cannot_coreside_smk 'gms_cke_tb smk: the kernels of bp+ks cannot share an SM: one block of each needs 2 block slots (an SM has 1)' \
           $BIN run $CK1 -gms_cke_tb smk
