# Issue 8: LLVM's rotated loop layout (llc's code for Triton's attention at
# num_stages=4 has it): the body blocks are placed before the header, the
# preheader jumps to the header (s_branch .Lheader), the header's exit test
# branches back to the body (s_cbranch_scc0 .Lbody) and the body falls
# through into the header. The branch back to the earlier label closes the
# loop, but the loop's header -- where iterations start and the loop is
# entered -- is .Lheader, the header of the natural loop in the CFG.
#
# RUN: pingpong-sim run %s --waves-per-simd 1 --iterations 8 | FileCheck %s
# CHECK: loop: .Lheader (lines {{[0-9]+}}-{{[0-9]+}}), 2 MFMA per wave per iteration
# CHECK: iterations of loop .Lheader: every wave ran 8 of 8 (1 entry into the loop)
# CHECK: line {{[0-9]+}}: data-dependent 's_cbranch_scc0 .Lbody' leaves the loop: exits after the last iteration x4
# RUN: pingpong-sim verify %s --waves-per-simd 1 | FileCheck %s --check-prefix=VER
# VER: verify: iterations of loop .Lheader: every wave ran 4 of 4 (1 entry into the loop)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl rotated
	.type rotated,@function
rotated:
	s_mov_b32 s5, 0
	s_branch .Lheader
.Lbody:
	v_mfma_f32_16x16x16_f16 v[4:7], v[8:9], v[8:9], v[4:7]
	s_add_u32 s5, s5, 16
.Lheader:
	v_mfma_f32_16x16x16_f16 v[12:15], v[8:9], v[8:9], v[12:15]
	s_cmp_ge_u32 s5, s4
	s_cbranch_scc0 .Lbody
	s_endpgm
.Lfunc_end0:
