# pingpong-sim addresses (issue 12) on hand-written kernels: what one access
# is (kind, bytes per lane, lane addresses after the offsets; LDS DMA: M0 +
# offset + lane x size), what compares equal (order, ds_read2 vs two reads)
# and what does not (one lane's address, the exec mask), and the refusals
# (an unknown address VGPR or M0: exit 2; no LDS access: exit 1).
#
# v0 = lane + 64 x wave; v1 = 4 x v0. Wave 1, lane 2: v1 = 4 x 66 = 0x108.
# RUN: pingpong-sim addresses %s --kernel pair --waves-per-workgroup 2 --dump | FileCheck %s --check-prefix=DUMP
# DUMP: addresses: kernel pair, gfx950, no MFMA loop: straight run, 1 workgroup(s) x 2 waves
# DUMP: addresses: wave 0: 5 LDS instructions (5 distinct), 6 accesses: 4 read 1 write 1 dma-write
# DUMP: wave 0 straight line [[#@LINE+37]] write 4B exec 0xffffffffffffffff lanes 0-3: 0x0 0x4 0x8 0xc hash {{[0-9a-f]+}} 'ds_write_b32 v1, v2'
# DUMP: wave 0 straight line [[#@LINE+38]] dma-write 4B m0 0x2000 exec 0xffffffffffffffff lanes 0-3: 0x2010 0x2014 0x2018 0x201c
# DUMP: wave 0 straight line [[#@LINE+39]] read 4B exec 0xffffffffffffffff lanes 0-3: 0x0 0x4 0x8 0xc {{.*}}'ds_read_b32 v4, v1'
# DUMP: wave 0 straight line [[#@LINE+39]] read 4B exec 0xffffffffffffffff lanes 0-3: 0x100 0x104 0x108 0x10c {{.*}}'ds_read_b32 v5, v1 offset:256'
# DUMP: wave 0 straight line [[#@LINE+39]] read 4B exec 0xffffffffffffffff lanes 0-3: 0x40 0x44 0x48 0x4c {{.*}}'ds_read2_b32 v[6:7], v1 offset0:16 offset1:17'
# DUMP: wave 0 straight line [[#@LINE+38]] read 4B (2nd address) exec 0xffffffffffffffff lanes 0-3: 0x44 0x48 0x4c 0x50 {{.*}}'ds_read2_b32
# DUMP: addresses: wave 1: 5 LDS instructions (5 distinct), 6 accesses
# DUMP: wave 1 straight line [[#@LINE+30]] write 4B exec 0xffffffffffffffff lanes 0-3: 0x100 0x104 0x108 0x10c
# DUMP: addresses: 2 waves, 12 LDS accesses, all addresses known
#
# Equal: the same file; the two reads in the other order; the ds_read2 as two ds_read_b32.
# RUN: pingpong-sim addresses %s %s --kernel pair | FileCheck %s --check-prefix=SAME
# SAME: addresses: equal: {{.*}}: 48 LDS accesses each, the same (kind, width, lane addresses) per wave
# RUN: sed -e 's/^\tds_read_b32 v4, v1$/\tTMP/' -e 's/^\tds_read_b32 v5, v1 offset:256$/\tds_read_b32 v4, v1/' -e 's/^\tTMP$/\tds_read_b32 v5, v1 offset:256/' %s > %t.reorder.s
# RUN: pingpong-sim addresses %s %t.reorder.s --kernel pair | FileCheck %s --check-prefix=SAME
# RUN: sed -e 's/^\tds_read2_b32 v\[6:7\], v1 offset0:16 offset1:17$/\tds_read_b32 v7, v1 offset:68\n\tds_read_b32 v6, v1 offset:64/' %s > %t.split.s
# RUN: pingpong-sim addresses %s %t.split.s --kernel pair | FileCheck %s --check-prefix=SAME
#
# Differ: one lane's address (lane 5 reads 4 bytes further); the first difference
# is that access, with the nearest one of the other file and lanes 0-3 of both.
# RUN: sed -e 's/^pair:$/pair:\n\tv_cmp_eq_u32 vcc, 5, v0\n\tv_cndmask_b32 v9, 0, 4, vcc/' -e 's/^\tds_read_b32 v5, v1 offset:256$/\tv_add_u32 v10, v1, v9\n\tds_read_b32 v5, v10 offset:256/' %s > %t.lane.s
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim addresses %s %t.lane.s --kernel pair --waves-per-workgroup 1 | FileCheck %s --check-prefix=LANE
# LANE: addresses: differ: wave 0: an LDS access of {{.*}}addresses.s is missing from {{.*}}lane.s ({{.*}} has it 1 time(s), {{.*}} 0; the wave's accesses: 6 and 6)
# LANE-NEXT: addresses.s: line [[#@LINE+19]] 'ds_read_b32 v5, v1 offset:256' (straight run): read, 4 bytes per lane, lanes 0-3: 0x100 0x104 0x108 0x10c
# LANE-NEXT: nearest in {{.*}}lane.s: line {{[0-9]+}} 'ds_read_b32 v5, v10 offset:256' (straight run): lanes 0-3: 0x100 0x104 0x108 0x10c (1 of the active lanes differ)
# The exec mask is part of an access: the same addresses with lanes 32-63 off differ.
# RUN: sed -e 's/^\tds_read_b32 v4, v1$/\ts_mov_b64 exec, 0xffffffff\n\tds_read_b32 v4, v1\n\ts_mov_b64 exec, -1/' %s > %t.exec.s
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim addresses %s %t.exec.s --kernel pair | FileCheck %s --check-prefix=EXEC
# EXEC: addresses: differ: wave 0: an LDS access of {{.*}} is missing from {{.*}}exec.s
# EXEC: nearest in {{.*}}exec.s: {{.*}}'ds_read_b32 v4, v1' {{.*}}(32 of the active lanes differ)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl pair
	.type pair,@function
pair:
	v_lshlrev_b32 v1, 2, v0
	v_mov_b32 v2, 0
	ds_write_b32 v1, v2
	s_mov_b32 m0, 0x2000
	global_load_lds_dword v[2:3], off offset:16
	s_waitcnt vmcnt(0)
	ds_read_b32 v4, v1
	ds_read_b32 v5, v1 offset:256
	ds_read2_b32 v[6:7], v1 offset0:16 offset1:17
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end0:

# An address the model does not know (loaded from memory): exit 2, naming it.
# RUN: %python %S/Inputs/expect-rc.py 2 pingpong-sim addresses %s --kernel unknown_vgpr | FileCheck %s --check-prefix=UNK
# RUN: %python %S/Inputs/expect-rc.py 2 pingpong-sim addresses %s %s --kernel unknown_vgpr | FileCheck %s --check-prefix=UNK
# UNK: {{[0-9]+}} LDS access(es) with an address the model does not know (address VGPR unknown); first: wave 0, line [[#@LINE+7]] 'ds_read_b32 v4, v1'
# UNK-NOT: equal
	.globl unknown_vgpr
	.type unknown_vgpr,@function
unknown_vgpr:
	global_load_dword v1, v[2:3], off
	s_waitcnt vmcnt(0)
	ds_read_b32 v4, v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end1:

# An LDS DMA while M0 is unknown (M0 from a kernel argument no --arg gave).
# RUN: %python %S/Inputs/expect-rc.py 2 pingpong-sim addresses %s --kernel unknown_m0 | FileCheck %s --check-prefix=UNKM0
# UNKM0: LDS access(es) with an address the model does not know (M0 unknown); first: wave 0, line [[#@LINE+7]] 'global_load_lds_dword v[2:3], off'
	.globl unknown_m0
	.type unknown_m0,@function
unknown_m0:
	s_load_dword s2, s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 m0, s2
	global_load_lds_dword v[2:3], off
	s_waitcnt vmcnt(0)
	s_endpgm
.Lfunc_end2:

# No LDS access: nothing to compare (exit 1).
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim addresses %s --kernel no_lds 2>&1 | FileCheck %s --check-prefix=NOLDS
# NOLDS: error: kernel no_lds executed no LDS access: nothing to compare
	.globl no_lds
	.type no_lds,@function
no_lds:
	v_mov_b32 v1, 0
	s_endpgm
.Lfunc_end3:

# Address arithmetic in 64-bit pairs and s_mulk_i32 (Values.cpp): s2 = 3 x 0x50
# = 240; v[4:5] = v[2:3] = 4 x v0; v6 = (v[4:5] << 2) + 240 = 16 x v0 + 0xf0.
# RUN: pingpong-sim addresses %s --kernel ops64 --waves-per-workgroup 1 --dump | FileCheck %s --check-prefix=OPS64
# OPS64: wave 0 straight line [[#@LINE+13]] write 4B exec 0xffffffffffffffff lanes 0-3: 0xf0 0x100 0x110 0x120 {{.*}}'ds_write_b32 v6, v1'
	.globl ops64
	.type ops64,@function
ops64:
	s_mov_b32 s2, 3
	s_mulk_i32 s2, 0x50
	v_lshlrev_b32 v2, 2, v0
	v_mov_b32 v3, 0
	v_mov_b64 v[4:5], v[2:3]
	v_mov_b32 v8, s2
	v_mov_b32 v9, 0
	v_lshl_add_u64 v[6:7], v[4:5], 2, v[8:9]
	v_mov_b32 v1, 0
	ds_write_b32 v6, v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end4:
