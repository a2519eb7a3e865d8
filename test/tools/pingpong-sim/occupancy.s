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
# .vgpr_count 264: 264 allocated, one wave per SIMD fits.
# RUN: pingpong-sim run %s --kernel big --waves-per-simd 2 --iterations 4 | FileCheck %s --check-prefix=BIG
# BIG: kernel uses 264 VGPRs: only 1 waves fit per SIMD, simulating 2
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
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     94
    .name:           unified
    .vgpr_count:     198
  - .agpr_count:     0
    .name:           big
    .vgpr_count:     264
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
