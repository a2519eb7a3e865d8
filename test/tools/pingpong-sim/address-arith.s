# Issue 8: the address arithmetic pingpong-sim follows, one kernel per
# instruction family. Each kernel builds an LDS address from v0 (lane +
# 64*wave) with the instructions under test, every lane writes 4 bytes there,
# and every wave then reads the 4 bytes at the address the hand computation
# says one lane of one wave writes. verify reports the cross-wave race on
# exactly those bytes only if the model computed the address; if it did not,
# the address is unknown (all of LDS) and the bytes printed differ; if it
# computed a wrong one, there is no race at those bytes.
#
# mbcnt lane id: lane 63 writes 4*63 = 0xfc.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel mbcnt --waves-per-workgroup 2 | FileCheck %s --check-prefix=MBCNT
# MBCNT: LDS addresses computed for 4 of 4 LDS accesses
# MBCNT: on LDS bytes [0xfc, 0x100): {{.*}}both in barrier phase 0
# v_perm_b32 selector 0x0c0c0001 swaps the two low bytes: lane 5 of wave 0 writes 0x500.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel perm --waves-per-workgroup 2 | FileCheck %s --check-prefix=PERM
# PERM: on LDS bytes [0x500, 0x504):
# v_mul_hi_u32 by 2^30 is v0 >> 2: lanes 100-103 (wave 1) write 16*25 = 0x190.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel mulhi --waves-per-workgroup 2 | FileCheck %s --check-prefix=MULHI
# MULHI: on LDS bytes [0x190, 0x194):
# v_cndmask_b32 on a v_cmp mask: lanes 0-31 of wave 0 get 0x2000 + 4*lane (lane 7: 0x201c).
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel cndmask --waves-per-workgroup 2 | FileCheck %s --check-prefix=CND
# CND: on LDS bytes [0x201c, 0x2020):
# An address parked in an AGPR and read back: 8*v0, v0 = 70 writes 0x230.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel agpr --waves-per-workgroup 2 | FileCheck %s --check-prefix=AGPR
# AGPR: on LDS bytes [0x230, 0x234):
# An address spilled to scratch and reloaded: 32*v0, v0 = 65 writes 0x820.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel spill --waves-per-workgroup 2 | FileCheck %s --check-prefix=SPILL
# SPILL: on LDS bytes [0x820, 0x824):
# v_readfirstlane + s_mul_hi_u32: wave 1 gets s3 = 64/2 = 32, lane 9 writes (32 << 8) + 36 = 0x2024.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel smulhi --waves-per-workgroup 2 | FileCheck %s --check-prefix=SMULHI
# SMULHI: on LDS bytes [0x2024, 0x2028):
# v_add_co_u32 / v_addc_co_u32: the carry of v0 + 0xfffffff0 is set for v0 >= 16; lane 20 writes 0x400 + 80 = 0x450.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel carry --waves-per-workgroup 2 | FileCheck %s --check-prefix=CARRY
# CARRY: on LDS bytes [0x450, 0x454):
# v_mad_u32_u24: 12*v0 + 64, v0 = 66 writes 0x358.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel mad24 --waves-per-workgroup 2 | FileCheck %s --check-prefix=MAD24
# MAD24: on LDS bytes [0x358, 0x35c):
# LLVM's unsigned division by a register (float reciprocal + corrections):
# v0 / 3 with the divisor in s4; lanes 99-101 (wave 1) write 4*33 = 0x84 +
# 0x1000 = 0x1084.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel udiv --waves-per-workgroup 2 | FileCheck %s --check-prefix=UDIV
# UDIV: on LDS bytes [0x1084, 0x1088):
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl mbcnt
	.type mbcnt,@function
mbcnt:
	v_mbcnt_lo_u32_b32 v1, -1, 0
	v_mbcnt_hi_u32_b32 v1, -1, v1
	v_lshlrev_b32 v1, 2, v1
	v_mov_b32 v2, 0
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0xfc
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end0:
	.globl perm
	.type perm,@function
perm:
	s_mov_b32 s2, 0x0c0c0001
	v_perm_b32 v1, 0, v0, s2
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x500
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end1:
	.globl mulhi
	.type mulhi,@function
mulhi:
	v_mov_b32 v2, 0x40000000
	v_mul_hi_u32 v1, v0, v2
	v_lshlrev_b32 v1, 4, v1
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x190
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end2:
	.globl cndmask
	.type cndmask,@function
cndmask:
	v_cmp_gt_u32 vcc, 32, v0
	v_mov_b32 v2, 0x2000
	v_mov_b32 v5, 0x1000
	v_cndmask_b32 v1, v5, v2, vcc
	v_lshl_add_u32 v1, v0, 2, v1
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x201c
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end3:
	.globl agpr
	.type agpr,@function
agpr:
	v_lshlrev_b32 v1, 3, v0
	v_accvgpr_write_b32 a5, v1
	v_mov_b32 v1, 0
	s_nop 1
	v_accvgpr_read_b32 v1, a5
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x230
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end4:
	.globl spill
	.type spill,@function
spill:
	v_lshlrev_b32 v1, 5, v0
	scratch_store_dword off, v1, off offset:16
	v_mov_b32 v1, 0
	s_waitcnt vmcnt(0)
	scratch_load_dword v1, off, off offset:16
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x820
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end5:
	.globl smulhi
	.type smulhi,@function
smulhi:
	v_readfirstlane_b32 s2, v0
	s_mul_hi_u32 s3, s2, 0x80000000
	v_and_b32 v3, 63, v0
	v_lshlrev_b32 v3, 2, v3
	v_lshl_add_u32 v1, s3, 8, v3
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x2024
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end6:
	.globl carry
	.type carry,@function
carry:
	v_mov_b32 v2, 0xfffffff0
	v_add_co_u32 v1, vcc, v2, v0
	v_mov_b32 v4, 0
	v_addc_co_u32 v5, vcc, 0, v4, vcc
	v_lshlrev_b32 v5, 10, v5
	v_lshl_add_u32 v1, v0, 2, v5
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x450
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end7:
	.globl mad24
	.type mad24,@function
mad24:
	v_mad_u32_u24 v1, v0, 12, 64
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x358
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end8:
	.globl udiv
	.type udiv,@function
udiv:
	s_mov_b32 s4, 3
	v_cvt_f32_u32 v1, s4
	s_sub_i32 s5, 0, s4
	v_rcp_iflag_f32 v1, v1
	v_mul_f32 v1, 0x4f7ffffe, v1
	v_cvt_u32_f32 v1, v1
	v_mul_lo_u32 v2, s5, v1
	v_mul_hi_u32 v2, v1, v2
	v_add_u32 v1, v1, v2
	v_mul_hi_u32 v1, v0, v1
	v_mul_lo_u32 v2, v1, s4
	v_sub_u32 v2, v0, v2
	v_add_u32 v3, 1, v1
	v_cmp_le_u32 vcc, s4, v2
	v_cndmask_b32 v1, v1, v3, vcc
	v_subrev_u32 v3, s4, v2
	v_cndmask_b32 v2, v2, v3, vcc
	v_add_u32 v3, 1, v1
	v_cmp_le_u32 vcc, s4, v2
	v_cndmask_b32 v1, v1, v3, vcc
	v_lshlrev_b32 v1, 2, v1
	v_add_u32 v1, 0x1000, v1
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x1084
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end9:
