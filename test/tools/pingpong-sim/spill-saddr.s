# Spilled LDS addresses in LLVM's SGPR-address scratch form: when the frame
# offset does not fit the immediate, LLVM spills with `scratch_store_dword
# off, vN, sK offset:M` / `scratch_load_dword vN, off, sK offset:M` and sets
# sK with s_movk_i32. The value tracker keeps the slot at sK + M (sK known),
# as it does for the `off, off offset:M` form, so the reloaded address is
# known. Before, every such reload was unknown (1392 of 2240 LDS accesses of
# checker-spill-reload.test's kernel).
#
# Each wave writes 4 bytes per lane at 32*v0 through a spilled and reloaded
# address, then reads 4 bytes at 0x820 (lane 1 of wave 1 writes there,
# v0 = 65): verify reports the race on exactly those bytes only if the
# reloaded address is computed.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel saddr --waves-per-workgroup 2 | FileCheck %s --check-prefix=SADDR
# SADDR: LDS addresses computed for 4 of 4 LDS accesses
# SADDR: on LDS bytes [0x820, 0x824):
#
# The slot is the SGPR's value plus the offset: a reload through another SGPR
# holding the same address (0x1000 + 16 = 0x1008 + 8) finds it; a reload of a
# slot never stored (0x1000 + 20) is unknown (all of LDS: cannot prove).
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel alias --waves-per-workgroup 2 | FileCheck %s --check-prefix=ALIAS
# ALIAS: LDS addresses computed for 4 of 4 LDS accesses
# ALIAS: on LDS bytes [0x820, 0x824):
# RUN: %python %S/Inputs/expect-rc.py 3 pingpong-sim verify %s --kernel other --waves-per-workgroup 2 | FileCheck %s --check-prefix=OTHER
# OTHER: LDS addresses computed for 2 of 4 LDS accesses; 2 unknown
#
# An SGPR address the model does not know (s7 is never set): the store
# cannot be placed, the reload is unknown.
# RUN: %python %S/Inputs/expect-rc.py 3 pingpong-sim verify %s --kernel unknown_sgpr --waves-per-workgroup 2 | FileCheck %s --check-prefix=UNK
# UNK: LDS addresses computed for 2 of 4 LDS accesses; 2 unknown
#
# LLVM's own spill code: the 256x256x64 bf16 kernel of
# checker-spill-reload.test reloads its LDS addresses with the SGPR form;
# every LDS address is computed (all N of N, 0 unknown).
# RUN: %hipcc --offload-arch=gfx942 -DBK=64 -DBM=256 -DBN=256 -DDTYPE=bf16 -DLOADS=buffer -DMFMA=32 -DWAVES=8 %kernels/neg_small_tile.hip -o %t.ll
# RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O3 %t.ll -o %t.s
# RUN: FileCheck %s --check-prefix=ASM < %t.s
# ASM: scratch_load_dword{{.*}}, off, s{{[0-9]+}}
# RUN: %python %S/Inputs/expect-rc.py 0 pingpong-sim verify %t.s | FileCheck %s --check-prefix=LLC
# LLC: verify: buffer rule: LDS addresses computed for [[N:[0-9]+]] of [[N]] LDS accesses; 0 unknown
# LLC: verify: in the loop: LDS addresses computed for [[L:[0-9]+]] of [[L]] ds accesses
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl saddr
	.type saddr,@function
saddr:
	s_movk_i32 s11, 0x1000
	v_lshlrev_b32 v1, 5, v0
	scratch_store_dword off, v1, s11 offset:16
	v_mov_b32 v1, 0
	s_waitcnt vmcnt(0)
	scratch_load_dword v1, off, s11 offset:16
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x820
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end0:
	.globl alias
	.type alias,@function
alias:
	s_movk_i32 s11, 0x1000
	s_movk_i32 s12, 0x1008
	v_lshlrev_b32 v1, 5, v0
	scratch_store_dword off, v1, s11 offset:16
	v_mov_b32 v1, 0
	s_waitcnt vmcnt(0)
	scratch_load_dword v1, off, s12 offset:8
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x820
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end1:
	.globl other
	.type other,@function
other:
	s_movk_i32 s11, 0x1000
	v_lshlrev_b32 v1, 5, v0
	scratch_store_dword off, v1, s11 offset:16
	v_mov_b32 v1, 0
	s_waitcnt vmcnt(0)
	scratch_load_dword v1, off, s11 offset:20
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x820
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end2:
	.globl unknown_sgpr
	.type unknown_sgpr,@function
unknown_sgpr:
	v_lshlrev_b32 v1, 5, v0
	scratch_store_dword off, v1, s7 offset:16
	v_mov_b32 v1, 0
	s_waitcnt vmcnt(0)
	scratch_load_dword v1, off, s7 offset:16
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2
	v_mov_b32 v3, 0x820
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end3:
