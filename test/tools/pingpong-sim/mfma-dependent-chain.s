# A dependent MFMA chain: every v_mfma_f32_16x16x32_f16 reads the accumulator
# the previous one wrote. gfx950, one wave per SIMD (4 independent waves).
#
# Hand computation (docs/cycle-model.md, Params.h):
#   16x16x32 f16 = 4 passes = 16 clocks of XDL (LLVM sched model; CDNA4 ISA Table 28)
#   result usable 16 + 2 (MfmaDepExtra) = 18 clocks after issue;
#   the SIMD's issue turns are 4 clocks apart, so the next MFMA issues at +20.
#   The branch issues at the turn after the 4th MFMA and does not delay the chain.
#   => 4 x 20 = 80 clocks per iteration; pipe busy 16/20 = 80 %.
#   Dependency stalls per iteration: MFMA 2..4 each wait the turns +4..+16
#   (4 turns = 16 clocks) = 48; MFMA 1 of the next iteration waits +8..+16 after
#   the branch (3 turns = 12). 60 per iteration; the steady window is iterations
#   2..7 (5 iterations): 5 x 60 = 300.
#
# RUN: pingpong-sim run %s --waves-per-simd 1 --iterations 8 | FileCheck %s
# CHECK: target: gfx950
# CHECK: 4 MFMA per wave per iteration
# CHECK: cycles per iteration: 80.0
# CHECK: MFMA pipe busy: 80.0 %
# Iteration k starts at 80k (+SIMD index): iteration 2 at 160, iteration 7 at 560.
# CHECK: wg0 w0  s0        0      560      80.0       0        0       0        0  300
# CHECK: wg0 w3  s3        3      563      80.0
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl dep_chain
	.type dep_chain,@function
dep_chain:
.LBB0_1:
	v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]
	v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]
	v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]
	v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]
	s_cbranch_scc0 .LBB0_1
	s_endpgm
