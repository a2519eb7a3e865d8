# Four independent MFMAs (different accumulators): the SIMD's matrix pipe is
# the limit. gfx950, one wave per SIMD.
#
# Hand computation: 16x16x32 f16 keeps XDL busy 16 clocks (4 passes), so MFMA
# k+1 issues 16 clocks after MFMA k. The branch issues 4 clocks after MFMA 4
# (another category) and MFMA 1 of the next iteration issues when XDL frees,
# 16 after MFMA 4. => 4 x 16 = 64 clocks per iteration, pipe busy 100 %.
# MFMA-pipe stalls per iteration: MFMA 2..4 wait 3 turns each (36) + MFMA 1
# waits 2 turns after the branch (8) = 44; 5 steady iterations -> 220.
#
# RUN: pingpong-sim run %s --waves-per-simd 1 --iterations 8 | FileCheck %s
# CHECK: cycles per iteration: 64.0
# CHECK: MFMA pipe busy: 100.0 %
# CHECK: MFMA pipe busy 880 (
# Iteration k starts at 64k: iteration 7 at 448.
# CHECK: wg0 w0  s0        0      448      64.0       0        0       0      220    0
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl indep
	.type indep,@function
indep:
.LBB0_1:
	v_mfma_f32_16x16x32_f16 v[0:3], v[16:19], v[20:23], v[0:3]
	v_mfma_f32_16x16x32_f16 v[4:7], v[16:19], v[20:23], v[4:7]
	v_mfma_f32_16x16x32_f16 v[8:11], v[16:19], v[20:23], v[8:11]
	v_mfma_f32_16x16x32_f16 v[12:15], v[16:19], v[20:23], v[12:15]
	s_cbranch_scc0 .LBB0_1
	s_endpgm
