# s_setprio: two waves per SIMD (waves w and w+4) compete for the VALU slot.
# In kernel "prio" the younger waves 4-7 raise their priority with s_setprio 1
# and win every VALU turn although they are younger; in "noprio" (s_nop 0
# instead) the older waves 0-3 win. gfx942, --waves-per-simd 2.
#
# Hand computation, SIMD0 (turns at 4k), loop = 4 x v_mov + branch (5 turns):
# prio:  w0 prologue 0,8,12,16 (branch taken), loop VALU 20,24,28.
#        w4 loses the VALU turn 0 to the older w0, then 4,16,20,24, s_setprio at 28.
#        From 32 w4 (prio 1) issues VALU every turn: iterations start 32+20k,
#        iteration 2 at 72, iteration 7 at 172 -> 20.0 per iteration, no stall.
#        w0 only gets the VALU turn when w4 issues its branch (48+20k):
#        iteration starts 20, 68, 148, then w4 ends (s_endpgm 192) and w0 runs at
#        20 per iteration: 200, 220, 240, 260, 280 -> (280-148)/5 = 26.4.
#        w0 loses to the higher priority in [148,280): VALU2 turns 152..164 and
#        VALU3 turns 172..184: 8 turns = 32 clocks.
# noprio: w0 wins: iterations 20+20k (7th at 160). w4 gets VALU at w0's branch
#        turns 36, 56, 76, 96(+branch 100), 116, ... then alone: 184, 204, ..., 284.
#
# RUN: pingpong-sim run %s --kernel prio --waves-per-simd 2 --iterations 8 --loop .LBB0_1 | FileCheck %s --check-prefix=PRIO
# RUN: pingpong-sim run %s --kernel noprio --waves-per-simd 2 --iterations 8 --loop .LBB1_1 | FileCheck %s --check-prefix=NOPRIO
# PRIO: wave          start   window  cyc/iter   vmcnt  lgkmcnt barrier mfmabusy  dep  arb-prio arb-age
# PRIO: wg0 w0  s0       20      280      26.4       0        0       0        0    0        32       0
# PRIO: wg0 w4  s0       32      172      20.0       0        0       0        0    0         0       0
# NOPRIO: wg0 w0  s0       20      160      20.0       0        0       0        0    0         0       0
# NOPRIO: wg0 w4  s0       36      284      20.0
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl prio
	.type prio,@function
prio:
	v_readfirstlane_b32 s0, v0
	s_lshr_b32 s0, s0, 8
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc1 .LBB0_1
	s_setprio 1
.LBB0_1:
	v_mov_b32 v10, 0
	v_mov_b32 v11, 0
	v_mov_b32 v12, 0
	v_mov_b32 v13, 0
	s_cbranch_scc0 .LBB0_1
	s_endpgm
	.globl noprio
	.type noprio,@function
noprio:
	v_readfirstlane_b32 s0, v0
	s_lshr_b32 s0, s0, 8
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc1 .LBB1_1
	s_nop 0
.LBB1_1:
	v_mov_b32 v10, 0
	v_mov_b32 v11, 0
	v_mov_b32 v12, 0
	v_mov_b32 v13, 0
	s_cbranch_scc0 .LBB1_1
	s_endpgm
