# pingpong-sim verify: LDS DMA bytes from M0 (docs/waits-and-barriers.md,
# "pingpong-sim verify", buffer rule). Two waves, no barrier: every cross-wave
# (read, DMA write) pair on overlapping bytes is a race, so a kernel is clean
# only if the model puts each DMA exactly where it writes.
# v0 = lane + 64*wave; s3 = readfirstlane(v0) << 4 = 0x400*wave; v1 = 16*v0 is
# the wave's own 1 KiB slot [0x400*wave, +0x400).
#
# Disjoint: wave w DMAs 64 x 16 B at M0 = s3 -> [0x400w, +0x400), and 64 x 4 B
# at M0 = 0x100w + 0x7f0 with offset:16 -> [0x800 + 0x100w, +0x100); each wave
# reads only its own bytes after vmcnt(0). Clean only if the offset is added
# (M0 alone puts wave 0's second DMA at [0x7f0, 0x8f0), over wave 1's slot) and
# the lane stride is the size (16 B lanes would put wave 0's dword DMA over
# wave 1's [0x900, 0xa00)).
# RUN: %python %S/Inputs/expect-rc.py 0 pingpong-sim verify %s --kernel dma_disjoint --waves-per-workgroup 2 | FileCheck %s --check-prefix=DISJ
# DISJ: verify: buffer rule: LDS addresses computed for 8 of 8 LDS accesses; 0 unknown
# DISJ: verify: LDS DMA: address (M0 + offset + lane x size) computed for 4 of 4 LDS DMA; 0 with M0 unknown
# DISJ: verify: 2 waves, 0 barriers each, 0 LDS pairs checked, 0 findings
#
# Overlapping: M0 = s3 + 0x100, offset:256 -> wave w writes [0x400w + 0x200,
# +0x400); wave 0's DMA covers [0x400, 0x600) of wave 1's slot.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel dma_overlap --waves-per-workgroup 2 | FileCheck %s --check-prefix=OVER
# OVER: verify: LDS DMA: address (M0 + offset + lane x size) computed for 2 of 2 LDS DMA; 0 with M0 unknown
# OVER: verify: finding: LDS race: wave 0 (waves 0-1) vs wave 1 (waves 0-1) on LDS bytes [0x400, 0x600): LDS DMA write at line 72 'global_load_lds_dwordx4 v[2:3], off offset:256' and read at line 74 'ds_read_b128 v[4:7], v1': both in barrier phase 0 (no s_barrier between them)
#
# The same with exec = lanes 0-31 on the DMA (v_cmp + s_and_saveexec): wave 0
# writes [0x200, 0x400), no longer over wave 1's slot.
# RUN: %python %S/Inputs/expect-rc.py 0 pingpong-sim verify %s --kernel dma_half_exec --waves-per-workgroup 2 | FileCheck %s --check-prefix=HALF
# HALF: verify: 2 waves, 0 barriers each, 0 LDS pairs checked, 0 findings
#
# buffer_load ... lds with offset:N: both M0 + lane x 4 and M0 + N + lane x 4
# are taken (LLVM's LDS memory operand omits N). M0 = 0x400w + 0x300,
# offset:0x100: wave 0 touches [0x300, 0x400) and [0x400, 0x500).
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel dma_buffer_offset --waves-per-workgroup 2 | FileCheck %s --check-prefix=BUF
# BUF: verify: finding: LDS race: wave 0 (waves 0-1) vs wave 1 (waves 0-1) on LDS bytes [0x400, 0x500): LDS DMA write at line {{[0-9]+}} 'buffer_load_dword v1, s[4:7], 0 offen offset:256 lds'
#
# M0 from a kernel argument (s_load: unknown to the model): the rules
# (lib/Sync) cannot prove the DMA's bytes differ from the read's: "cannot
# prove" (exit 3), never a race.
# RUN: %python %S/Inputs/expect-rc.py 3 pingpong-sim verify %s --kernel dma_m0_unknown --waves-per-workgroup 2 | FileCheck %s --check-prefix=UNK
# UNK: verify: LDS DMA: address (M0 + offset + lane x size) computed for 0 of 2 LDS DMA; 2 with M0 unknown
# UNK: verify: 2 waves, 0 barriers each, {{[0-9]+}} LDS pairs checked, 0 findings, {{[1-9][0-9]*}} cannot prove
# UNK: verify: cannot prove: {{[1-9][0-9]*}} LDS pair(s) not proven ordered; first: LDS pair: wave 0 (waves 0-1) vs wave 1 (waves 0-1) on LDS bytes [0x400, 0x800) and an unknown address: LDS DMA write at line {{[0-9]+}} 'global_load_lds_dwordx4 v[2:3], off' and read at line {{[0-9]+}} 'ds_read_b128 v[4:7], v1': both in barrier phase 0
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl dma_disjoint
	.type dma_disjoint,@function
dma_disjoint:
	v_readfirstlane_b32 s2, v0
	s_lshl_b32 s3, s2, 4
	s_mov_b32 m0, s3
	v_lshlrev_b32 v1, 4, v0
	s_lshr_b32 s4, s3, 2
	v_lshlrev_b32 v8, 2, v0
	v_and_b32 v8, 0xff, v8
	v_add_u32 v8, s4, v8
	global_load_lds_dwordx4 v[2:3], off
	s_add_u32 m0, s4, 0x7f0
	global_load_lds_dword v[2:3], off offset:16
	s_waitcnt vmcnt(0)
	ds_read_b128 v[4:7], v1
	ds_read_b32 v9, v8 offset:2048
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end0:
	.globl dma_overlap
	.type dma_overlap,@function
dma_overlap:
	v_readfirstlane_b32 s2, v0
	s_lshl_b32 s3, s2, 4
	s_add_i32 m0, s3, 0x100
	v_lshlrev_b32 v1, 4, v0
	global_load_lds_dwordx4 v[2:3], off offset:256
	s_waitcnt vmcnt(0)
	ds_read_b128 v[4:7], v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end1:
	.globl dma_half_exec
	.type dma_half_exec,@function
dma_half_exec:
	v_readfirstlane_b32 s2, v0
	s_lshl_b32 s3, s2, 4
	s_add_i32 m0, s3, 0x100
	v_lshlrev_b32 v1, 4, v0
	v_and_b32 v9, 63, v0
	v_cmp_gt_u32 vcc, 32, v9
	s_and_saveexec_b64 s[4:5], vcc
	global_load_lds_dwordx4 v[2:3], off offset:256
	s_mov_b64 exec, s[4:5]
	s_waitcnt vmcnt(0)
	ds_read_b128 v[4:7], v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end2:
	.globl dma_buffer_offset
	.type dma_buffer_offset,@function
dma_buffer_offset:
	v_readfirstlane_b32 s2, v0
	s_lshl_b32 s3, s2, 4
	s_movk_i32 s8, 0x300
	s_add_u32 m0, s3, s8
	v_lshlrev_b32 v1, 4, v0
	buffer_load_dword v1, s[4:7], 0 offen offset:256 lds
	s_waitcnt vmcnt(0)
	ds_read_b128 v[4:7], v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end3:
	.globl dma_m0_unknown
	.type dma_m0_unknown,@function
dma_m0_unknown:
	s_load_dword s3, s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 m0, s3
	v_lshlrev_b32 v1, 4, v0
	global_load_lds_dwordx4 v[2:3], off
	s_waitcnt vmcnt(0)
	ds_read_b128 v[4:7], v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end4:
