# s_barrier: wave 0 is delayed by s_nop 15 before the barrier, waves 1-3 wait.
# The wave id comes from v0 = lane + 64 x wave (v_readfirstlane, s_lshr 6) and
# decides the branch, so this also checks the scalar semantics.
# gfx942, --waves-per-simd 1: one workgroup of 4 waves, wave w on SIMD w.
#
# Hand computation (SIMD w has its turns at clocks 4k + w):
#   wave 0: v_readfirstlane 0, s_lshr 8 (VALU result after 8), s_cmp 12,
#     s_cbranch_scc0 16 (not taken: id 0), s_nop 15 at 20 -> 16 turns -> next at
#     84: s_barrier arrives last and passes; loop header at 88.
#   wave w>0: same prologue +w, branch taken at 16+w, s_barrier arrives at 20+w,
#     waits turns 20+w .. 80+w (16 turns = 64 clocks), passes at 84+w,
#     loop header at 88+w.
#
# RUN: pingpong-sim run %s --waves-per-simd 1 --iterations 4 --json %t.json | FileCheck %s
# RUN: FileCheck %s --check-prefix=JSON < %t.json
# CHECK: wg0 w0  s0       88
# CHECK: wg0 w1  s1       89
# CHECK: wg0 w2  s2       90
# CHECK: wg0 w3  s3       91
# JSON: "wave": 0,
# JSON: "stalls_total": {
# JSON: "barrier": 0,
# JSON: "wave": 1,
# JSON: "stalls_total": {
# JSON: "barrier": 64,
# JSON: "wave": 3,
# JSON: "stalls_total": {
# JSON: "barrier": 64,
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl barrier2
	.type barrier2,@function
barrier2:
	v_readfirstlane_b32 s0, v0
	s_lshr_b32 s0, s0, 6
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc0 .LBB0_2
	s_nop 15
.LBB0_2:
	s_barrier
.LBB0_1:
	v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]
	s_cbranch_scc0 .LBB0_1
	s_endpgm
