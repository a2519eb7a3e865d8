# Asymmetric pingpong sync, both styles the plugin / HipKittens / Triton emit:
#  kernel "scalar": v_readfirstlane + s_lshr + s_cmp + s_cbranch_scc around s_barrier
#  kernel "exec":   v_lshrrev + v_cmp + s_and_saveexec_b64 + s_cbranch_execz
# Waves 4-7 (v0 >> 8 == 1) run one extra s_barrier before the loop, waves 0-3
# one after it; every wave runs the same number of barriers, so the run ends.
# 8 waves (2 per SIMD): waves w and w+4 share SIMD w.
#
# Hand computation for the prologue of "scalar" on SIMD0 (turns at 4k):
#   t=0  w0 v_readfirstlane (w4 loses the VALU slot to the older w0)
#   t=4  w4 v_readfirstlane;      t=8  w0 s_lshr (VALU latency 8)
#   t=12 w0 s_cmp, w4 s_lshr loses the SALU slot; t=16 w0 branch (taken), w4 s_lshr
#   t=20 w0 loop header = s_barrier #1 (waits), w4 s_cmp; t=24 w4 branch (not taken)
#   t=28 w4 extra s_barrier #1 (waits). The last wave to arrive at barrier #1 is
#   on SIMD3 (clock 31), so w0 passes its loop-header barrier #1 at 32: the start
#   of its iteration 0. The loop header is an s_barrier, so a wave's iteration
#   starts when that barrier releases it.
#   w0: s_setprio 1 at 36, MFMAs at 40, 56, 72, 88 (16 clocks of XDL each),
#   s_setprio 0 at 92, arrives at barrier #2 at 96; w3 (SIMD3) arrives at 99,
#   the last one. w4-w7 wait at their loop-header barrier #2, released at their
#   next turn: w7 at 99, w4 at 100 (start of their iteration 0).
#
# RUN: pingpong-sim run %s --kernel scalar --waves-per-simd 2 --iterations 8 | FileCheck %s
# RUN: pingpong-sim run %s --kernel exec --waves-per-simd 2 --iterations 8 | FileCheck %s --check-prefix=EXEC
# CHECK: 4 MFMA per wave per iteration
# CHECK: 2 per SIMD
# CHECK: C0@{{[0-9]+}} barrier
# CHECK: C1@{{[0-9]+}} prio1 4mfma
# CHECK: C2@{{[0-9]+}} prio0
# CHECK: C3@{{[0-9]+}} barrier 4ds
# CHECK: wg0 w0  s0       32
# CHECK: wg0 w4  s0      100
# CHECK: wg0 w7  s3       99
# CHECK-NOT: data-dependent
# EXEC: C1@{{[0-9]+}} prio1 4mfma
# EXEC: wg0 w0  s0       32
# EXEC: wg0 w4  s0      100
# EXEC-NOT: data-dependent
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl scalar
	.type scalar,@function
scalar:
	v_readfirstlane_b32 s0, v0
	s_lshr_b32 s0, s0, 8
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc1 .LBB0_1
	s_barrier
.LBB0_1:
	s_barrier
	s_setprio 1
	v_mfma_f32_16x16x16_f16 v[40:43], v[16:17], v[18:19], v[40:43]
	v_mfma_f32_16x16x16_f16 v[4:7], v[16:17], v[18:19], v[4:7]
	v_mfma_f32_16x16x16_f16 v[8:11], v[16:17], v[18:19], v[8:11]
	v_mfma_f32_16x16x16_f16 v[12:15], v[16:17], v[18:19], v[12:15]
	s_setprio 0
	s_barrier
	ds_read_b128 v[16:19], v20
	ds_read_b128 v[24:27], v21
	ds_read_b128 v[28:31], v22
	ds_read_b128 v[32:35], v23
	s_waitcnt lgkmcnt(0)
	s_cmp_lg_u32 s1, 0
	s_cbranch_scc0 .LBB0_1
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc0 .LBB0_3
	s_barrier
.LBB0_3:
	s_endpgm

	.globl exec
	.type exec,@function
exec:
	v_lshrrev_b32_e32 v1, 8, v0
	v_cmp_eq_u32_e32 vcc, 1, v1
	s_and_saveexec_b64 s[2:3], vcc
	s_cbranch_execz .LBB1_2
	s_barrier
.LBB1_2:
	s_or_b64 exec, exec, s[2:3]
.LBB1_1:
	s_barrier
	s_setprio 1
	v_mfma_f32_16x16x16_f16 v[40:43], v[16:17], v[18:19], v[40:43]
	v_mfma_f32_16x16x16_f16 v[4:7], v[16:17], v[18:19], v[4:7]
	v_mfma_f32_16x16x16_f16 v[8:11], v[16:17], v[18:19], v[8:11]
	v_mfma_f32_16x16x16_f16 v[12:15], v[16:17], v[18:19], v[12:15]
	s_setprio 0
	s_barrier
	ds_read_b128 v[16:19], v20
	ds_read_b128 v[24:27], v21
	ds_read_b128 v[28:31], v22
	ds_read_b128 v[32:35], v23
	s_waitcnt lgkmcnt(0)
	s_cmp_lg_u32 s1, 0
	s_cbranch_scc0 .LBB1_1
	v_lshrrev_b32_e32 v1, 8, v0
	v_cmp_eq_u32_e32 vcc, 0, v1
	s_and_saveexec_b64 s[2:3], vcc
	s_cbranch_execz .LBB1_3
	s_barrier
.LBB1_3:
	s_endpgm
