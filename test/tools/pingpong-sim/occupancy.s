# The register occupancy warning. gfx942 / gfx950 have one VGPR file per lane
# for arch and acc registers: the metadata's .vgpr_count is already their
# total (.agpr_count is the acc part of it), allocated in granules of 8, and
# 512 per lane are shared by the SIMD's waves.
#
# Triton's mm_fp8_tn_128x128x128_w4_ns2_gfx942_pp0: .vgpr_count 198 (104 arch
# + 94 acc), LLVM's occupancy 2: two waves per SIMD fit (200 + 200 <= 512), no
# warning. (Before, the warning added .agpr_count again: "kernel uses 296
# VGPRs: only 1 waves fit".)
# RUN: pingpong-sim run %s --kernel unified --waves-per-simd 2 --iterations 4 | FileCheck %s --check-prefix=FITS --implicit-check-not="waves fit"
# FITS: waves: 1 workgroup(s) x 8 waves (2 per SIMD)
#
# .vgpr_count 264: 264 allocated, one wave per SIMD fits. `run` refuses to
# time what cannot run (exit 1, saying what limits it and what to do);
# --occupancy ignore simulates it anyway, with the warning.
# RUN: not pingpong-sim run %s --kernel big --waves-per-simd 2 --iterations 4 2>&1 | FileCheck %s --check-prefix=BIG
# BIG: error: one workgroup of 8 waves does not fit on a CU: 264 VGPRs per wave: 1 wave per SIMD (512 per lane)
# RUN: pingpong-sim run %s --kernel big --waves-per-simd 2 --iterations 4 --occupancy ignore | FileCheck %s --check-prefix=IGNORE
# IGNORE: 1 workgroup of 8 waves does not fit on a CU (264 VGPRs per wave: 1 wave per SIMD (512 per lane)): only 0 fit, simulating 1 (--occupancy ignore)
#
# Two 4-wave workgroups at 264 VGPRs: one fits. check: an error naming the
# way out; fit: one runs, and the CU's time for two workgroups' iterations
# is twice its cycles (the JSON carries both).
# RUN: not pingpong-sim run %s --kernel big --waves-per-workgroup 4 --workgroups-per-cu 2 --iterations 8 2>&1 | FileCheck %s --check-prefix=CHECK2
# CHECK2: error: 2 workgroups of 4 waves do not fit on a CU (264 VGPRs per wave: 1 wave per SIMD (512 per lane)): only 1 fit; --occupancy fit runs those
# RUN: pingpong-sim run %s --kernel big --waves-per-workgroup 4 --workgroups-per-cu 2 --iterations 8 --occupancy fit --json %t.fit.json | FileCheck %s --check-prefix=FIT
# FIT: waves: 1 workgroup(s) x 4 waves (1 per SIMD)
# FIT: cycles per iteration: [[C:[0-9.]+]]
# FIT-NEXT: occupancy: 1 of the 2 workgroups asked fit on the CU (264 VGPRs per wave: 1 wave per SIMD (512 per lane)); the CU's time for 2 workgroups' iterations:
# RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['workgroups']==1 and r['workgroups_asked']==2 and r['workgroups_fit']==1, r; assert abs(r['cycles_per_iteration_at_asked_occupancy']-2*r['cycles_per_iteration'])<1e-6, r; print('fit json ok')" %t.fit.json | FileCheck %s --check-prefix=FITJSON
# FITJSON: fit json ok
#
# Dynamic LDS: 'unified' (198 VGPRs: two waves per SIMD fit) with 40 KiB of dynamic
# LDS per workgroup: one 4-wave workgroup fits in gfx942's 64 KiB; with
# 20 KiB two do.
# RUN: not pingpong-sim run %s --kernel unified --waves-per-workgroup 4 --workgroups-per-cu 2 --iterations 4 --lds-bytes 40960 2>&1 | FileCheck %s --check-prefix=LDSFIT
# LDSFIT: error: 2 workgroups of 4 waves do not fit on a CU (40960 B of LDS per workgroup (65536 per CU)): only 1 fit
# RUN: pingpong-sim run %s --kernel unified --waves-per-workgroup 4 --workgroups-per-cu 2 --iterations 4 --lds-bytes 20480 | FileCheck %s --check-prefix=LDS2 --implicit-check-not=occupancy:
# LDS2: waves: 2 workgroup(s) x 4 waves (2 per SIMD)
# Static LDS (.group_segment_fixed_size from the metadata): 'shared' declares
# 40 KiB, so two 4-wave workgroups do not share a 64 KiB gfx942 CU, and
# --lds-bytes adds to it (the static size was once dropped on the way from
# the metadata to the kernel, and two such workgroups ran).
# RUN: not pingpong-sim run %s --kernel shared --waves-per-workgroup 4 --workgroups-per-cu 2 --iterations 4 2>&1 | FileCheck %s --check-prefix=STATIC
# STATIC: error: 2 workgroups of 4 waves do not fit on a CU (40960 B of LDS per workgroup (65536 per CU)): only 1 fit
# RUN: not pingpong-sim run %s --kernel shared --waves-per-workgroup 4 --iterations 4 --lds-bytes 30000 2>&1 | FileCheck %s --check-prefix=STATICDYN
# STATICDYN: error: one workgroup of 4 waves does not fit on a CU: 70960 B of LDS per workgroup (65536 per CU)
# RUN: not pingpong-sim run %s --occupancy most 2>&1 | FileCheck %s --check-prefix=BADOPT
# BADOPT: for the --occupancy option: Cannot find option named 'most'!
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl unified
	.type unified,@function
unified:
	s_mov_b32 s2, 0
.Lunified_loop:
	v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], a[0:3]
	s_add_u32 s2, s2, 1
	s_cmp_lt_u32 s2, 8
	s_cbranch_scc1 .Lunified_loop
	s_endpgm
.Lfunc_end0:
	.globl big
	.type big,@function
big:
	s_mov_b32 s2, 0
.Lbig_loop:
	v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]
	s_add_u32 s2, s2, 1
	s_cmp_lt_u32 s2, 8
	s_cbranch_scc1 .Lbig_loop
	s_endpgm
.Lfunc_end1:
	.globl shared
	.type shared,@function
shared:
	s_mov_b32 s2, 0
.Lshared_loop:
	v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]
	s_add_u32 s2, s2, 1
	s_cmp_lt_u32 s2, 8
	s_cbranch_scc1 .Lshared_loop
	s_endpgm
.Lfunc_end2:
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     94
    .name:           unified
    .vgpr_count:     198
  - .agpr_count:     0
    .name:           big
    .vgpr_count:     264
  - .agpr_count:     0
    .group_segment_fixed_size: 40960
    .name:           shared
    .vgpr_count:     64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
