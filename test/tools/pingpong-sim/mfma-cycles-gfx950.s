# gfx950 MFMA pipe times: v_mfma_f32_16x16x128_f8f6f4 takes 32 clocks if A or B
# is FP8/BF8 (cbsz/blgp 0 or 1, the default) and 16 if both are FP4/FP6
# (cbsz:4 blgp:4) (CDNA4 ISA Table 28). LLVM's MC sched model gives 16 for the
# FP8 form (SISchedule.td TODO), so the table decides and the mismatch is reported.
#
# Hand computation: four independent MFMAs (32, 32, 16, 16 clocks of XDL), the
# branch in a free turn: 32 + 32 + 16 + 16 = 96 clocks per iteration, 100 % busy.
#
# RUN: pingpong-sim run %s --waves-per-simd 1 --iterations 8 | FileCheck %s
# CHECK: cycles per iteration: 96.0
# CHECK: MFMA pipe busy: 100.0 %
# CHECK: MFMA cycles for v_mfma_f32_16x16x128_f8f6f4: sched model 16 vs table 32, using 32
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl f8f6f4
	.type f8f6f4,@function
f8f6f4:
.LBB0_1:
	v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3]
	v_mfma_f32_16x16x128_f8f6f4 v[20:23], v[4:11], v[12:15], v[20:23] cbsz:1 blgp:4
	v_mfma_f32_16x16x128_f8f6f4 v[24:27], v[4:7], v[12:15], v[24:27] cbsz:4 blgp:4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[28:31], v[4:7], v[12:15], v[28:31], v32, v33 op_sel_hi:[0,0,0] cbsz:4 blgp:4
	s_cbranch_scc0 .LBB0_1
	s_endpgm
