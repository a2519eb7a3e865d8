# pingpong-sim verify: one small kernel per rule (docs/waits-and-barriers.md,
# "pingpong-sim verify"). No kernel has an MFMA loop: verify runs them straight.
# Two waves: v0 = lane + 64*wave, so v1 = 4*v0 is the wave's own 256-byte slot
# of LDS ([0, 0x100) for wave 0, [0x100, 0x200) for wave 1) and v3 = v1 ^ 0x100
# the other wave's slot: the exchange only races if the model computes both.
#
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel race_same_phase --waves-per-workgroup 2 | FileCheck %s --check-prefix=RACE
# The exchange kernel starts at line 86 of this file: its write is line 89, the read 90.
# RACE: LDS addresses computed for 4 of 4 LDS accesses; 0 unknown
# RACE: verify: finding: LDS race: wave 0 (waves 0-1) vs wave 1 (waves 0-1) on LDS bytes [0x100, 0x200): read at line 90 'ds_read_b32 v4, v3' and write at line 89 'ds_write_b32 v1, v2': both in barrier phase 0
#
# RUN: %python %S/Inputs/expect-rc.py 0 pingpong-sim verify %s --kernel clean_exchange --waves-per-workgroup 2 | FileCheck %s --check-prefix=CLEAN
# CLEAN: verify: 2 waves, 1 barriers each, 2 LDS pairs checked, 0 findings
#
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel missing_drain --waves-per-workgroup 2 | FileCheck %s --check-prefix=DRAIN
# DRAIN: finding: LDS race: wave 1 (waves 0-1) vs wave 0 (waves 0-1) on LDS bytes [0x100, 0x200): write at line {{[0-9]+}} 'ds_write_b32 v1, v2' and read at line {{[0-9]+}} 'ds_read_b32 v4, v3': the write (phase 0) is not complete before its wave's s_barrier #1 that closes phase 0: the s_waitcnt that completes it comes 1 barrier(s) later
#
# Overwrite after read: the read of the other wave's slot is not drained
# before the barrier, and the other wave then overwrites the slot.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel read_not_drained --waves-per-workgroup 2 | FileCheck %s --check-prefix=WAR
# WAR: finding: LDS race: {{.*}}: read at line {{[0-9]+}} 'ds_read_b32 v4, v3' and write at line {{[0-9]+}} 'ds_write_b32 v1, v2': the read (phase 0) is not complete before its wave's s_barrier #1
#
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel unequal_barriers --waves-per-workgroup 2 | FileCheck %s --check-prefix=BARS
# BARS: finding: barrier count: wave 1 (waves 0-1) executes 1 s_barrier, wave 0 (waves 0-1) executes 0: the workgroup hangs at wave 1 (waves 0-1)'s barrier #1, line {{[0-9]+}} 's_barrier'
#
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel read_without_wait --waves-per-workgroup 2 | FileCheck %s --check-prefix=REG
# vmcnt(1) completes the older load (in order): v2 is fine, v5 is not.
# REG: finding: register wait: wave 0 (waves 0-1): line {{[0-9]+}} 'v_add_u32_e32 v6, v5, v5' reads a register the load at line {{[0-9]+}} 'buffer_load_dword v5, v1, s[0:3], 0 offen offset:4' writes
#
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel smem_out_of_order --waves-per-workgroup 2 | FileCheck %s --check-prefix=SMEM
# SMEM: finding: register wait: wave 0 (waves 0-1): line {{[0-9]+}} 's_add_u32 s5, s4, 1' reads a register the load at line {{[0-9]+}} 's_load_dword s4, s[0:1], 0x0' writes
#
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel lds_order --waves-per-workgroup 2 | FileCheck %s --check-prefix=LDSORD
# lgkmcnt(1) completes the older ds_read (LDS in order): v4 is fine, v5 is not.
# LDSORD: finding: register wait: wave 0 (waves 0-1): line {{[0-9]+}} 'v_add_u32_e32 v7, v5, v5' reads a register the load at line {{[0-9]+}} 'ds_read_b32 v5, v1 offset:4' writes
#
# The DMA's address (M0 from an argument register) is unknown: the rules
# (lib/Sync) cannot prove the bytes differ, and say so -- exit 3, never a race.
# RUN: %python %S/Inputs/expect-rc.py 3 pingpong-sim verify %s --kernel lds_dma_same_wave --waves-per-workgroup 2 | FileCheck %s --check-prefix=DMA1
# DMA1: LDS addresses computed for 2 of 4 LDS accesses; 2 unknown
# DMA1: verify: 2 waves, 0 barriers each, {{[0-9]+}} LDS pairs checked, 0 findings
# DMA1: verify: cannot prove: {{[1-9][0-9]*}} LDS pair(s) not proven ordered; first: LDS DMA wait: wave 0 (waves 0-1): line {{[0-9]+}} 'ds_read_b32 v4, v1' accesses LDS bytes [0x0, 0x100) and an unknown address that the LDS DMA at line {{[0-9]+}} 'buffer_load_dword v1, s[0:3], 0 offen lds' writes
# With M0 = 0 the DMA's bytes are known ([0, 0x100) for 64 lanes x 4 B): the
# same wave's read of them before vmcnt is a finding.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel lds_dma_same_wave_known --waves-per-workgroup 2 | FileCheck %s --check-prefix=DMA1K
# DMA1K: finding: LDS DMA wait: wave 0 (waves 0-1): line {{[0-9]+}} 'ds_read_b32 v4, v1' accesses LDS bytes [0x0, 0x100) that the LDS DMA at line {{[0-9]+}} 'buffer_load_dword v1, s[0:3], 0 offen lds' writes
#
# RUN: %python %S/Inputs/expect-rc.py 3 pingpong-sim verify %s --kernel lds_dma_cross --waves-per-workgroup 2 | FileCheck %s --check-prefix=DMA2
# The DMA's address (M0) is unknown: cannot prove (exit 3), with the pair named.
# DMA2: verify: cannot prove: {{[1-9][0-9]*}} LDS pair(s) not proven ordered; first: LDS pair: wave 0 (waves 0-1) vs wave 1 (waves 0-1) on LDS bytes [0x100, 0x200) and an unknown address: LDS DMA write at line {{[0-9]+}} 'buffer_load_dword v1, s[0:3], 0 offen lds' and read at line {{[0-9]+}} 'ds_read_b32 v4, v1': both in barrier phase 0
# M0 = 0: both waves' DMAs write [0, 0x100), which wave 0 reads: a race.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel lds_dma_cross_known --waves-per-workgroup 2 | FileCheck %s --check-prefix=DMA2K
# DMA2K: finding: LDS race: wave {{[01]}} (waves 0-1) vs wave {{[01]}} (waves 0-1) on LDS bytes [0x0, 0x100): {{.*}}LDS DMA write at line {{[0-9]+}} 'buffer_load_dword v1, s[0:3], 0 offen lds'{{.*}}: both in barrier phase 0
#
# RUN: %python %S/Inputs/expect-rc.py 0 pingpong-sim verify %s --kernel lds_dma_clean --waves-per-workgroup 2 | FileCheck %s --check-prefix=DMA3
# Two DMAs of one wave are ordered (both in order on vmcnt): no DMA-wait finding.
# DMA3: verify: 2 waves, 1 barriers each, 4 LDS pairs checked, 0 findings
#
# write/write (lib/Sync): two different stores of two waves to one word in one
# phase are a race; the same store run by both waves onto the same bytes is
# the replicated-value idiom (Triton's layout conversions: the waves that
# share a row store the same value) -- "cannot prove", exit 3, not a race.
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel two_stores --waves-per-workgroup 2 | FileCheck %s --check-prefix=WW
# WW: verify: finding: LDS race: wave 0 (waves 0-1) vs wave 1 (waves 0-1) on LDS bytes [0x0, 0x4): write at line {{[0-9]+}} 'ds_write_b32 v1, {{v[23]}}' and write at line {{[0-9]+}} 'ds_write_b32 v1, {{v[23]}}': both in barrier phase 0
# RUN: %python %S/Inputs/expect-rc.py 3 pingpong-sim verify %s --kernel same_store --waves-per-workgroup 2 | FileCheck %s --check-prefix=SAME
# SAME: verify: 2 waves, 0 barriers each, 1 LDS pairs checked, 0 findings
# SAME: verify: cannot prove: 1 LDS pair(s) not proven ordered; first: LDS pair: wave 0 (waves 0-1) vs wave 1 (waves 0-1) on LDS bytes [0x0, 0x4): write at line {{[0-9]+}} 'ds_write_b32 v1, v2' and write at line {{[0-9]+}} 'ds_write_b32 v1, v2': both in barrier phase 0 (no s_barrier between them) (the same store in both waves: the replicated-value idiom, the order may not matter)
#
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel spin --waves-per-workgroup 2 | FileCheck %s --check-prefix=HANG
# HANG: verify: finding: hang: a wave executed more than 280000 instructions (endless loop?) at line {{[0-9]+}}
#
# Usage: 2 for a bad command line, 1 for bad input (as run).
# RUN: %python %S/Inputs/expect-rc.py 2 pingpong-sim verify %s --json %t.json 2>&1 | FileCheck %s --check-prefix=USAGE
# USAGE: --json and --timeline are options of 'run', not 'verify'
# RUN: %python %S/Inputs/expect-rc.py 2 pingpong-sim verify 2>&1 | FileCheck %s --check-prefix=NOFILE
# NOFILE: error: no input file
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %S/Inputs/does-not-exist.s 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: error: cannot read
# RUN: pingpong-sim verify --help | FileCheck %s --check-prefix=HELP
# HELP: SUBCOMMAND 'verify': wait/barrier soundness checker
# HELP: (4) pacing
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl race_same_phase
	.type race_same_phase,@function
race_same_phase:
	v_lshlrev_b32 v1, 2, v0
	v_xor_b32 v3, 0x100, v1
	ds_write_b32 v1, v2
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end0:
	.globl clean_exchange
	.type clean_exchange,@function
clean_exchange:
	v_lshlrev_b32 v1, 2, v0
	v_xor_b32 v3, 0x100, v1
	ds_write_b32 v1, v2
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end1:
	.globl missing_drain
	.type missing_drain,@function
missing_drain:
	v_lshlrev_b32 v1, 2, v0
	v_xor_b32 v3, 0x100, v1
	ds_write_b32 v1, v2
	s_barrier
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end2:
	.globl read_not_drained
	.type read_not_drained,@function
read_not_drained:
	v_lshlrev_b32 v1, 2, v0
	v_xor_b32 v3, 0x100, v1
	ds_read_b32 v4, v3
	s_barrier
	ds_write_b32 v1, v2
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end3:
	.globl unequal_barriers
	.type unequal_barriers,@function
unequal_barriers:
	v_readfirstlane_b32 s0, v0
	s_lshr_b32 s0, s0, 6
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc1 .LBB4_1
	s_barrier
.LBB4_1:
	s_endpgm
.Lfunc_end4:
	.globl read_without_wait
	.type read_without_wait,@function
read_without_wait:
	buffer_load_dword v2, v1, s[0:3], 0 offen
	buffer_load_dword v5, v1, s[0:3], 0 offen offset:4
	s_waitcnt vmcnt(1)
	v_add_u32 v3, v2, v2
	v_add_u32 v6, v5, v5
	s_endpgm
.Lfunc_end5:
	.globl smem_out_of_order
	.type smem_out_of_order,@function
smem_out_of_order:
	s_load_dword s4, s[0:1], 0x0
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(1)
	s_add_u32 s5, s4, 1
	s_endpgm
.Lfunc_end6:
	.globl lds_order
	.type lds_order,@function
lds_order:
	v_lshlrev_b32 v1, 2, v0
	ds_read_b32 v4, v1
	ds_read_b32 v5, v1 offset:4
	s_waitcnt lgkmcnt(1)
	v_add_u32 v6, v4, v4
	v_add_u32 v7, v5, v5
	s_endpgm
.Lfunc_end7:
	.globl lds_dma_same_wave
	.type lds_dma_same_wave,@function
lds_dma_same_wave:
	s_mov_b32 m0, s8
	v_lshlrev_b32 v1, 2, v0
	buffer_load_dword v1, s[0:3], 0 offen lds
	ds_read_b32 v4, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_endpgm
.Lfunc_end8:
	.globl lds_dma_cross
	.type lds_dma_cross,@function
lds_dma_cross:
	s_mov_b32 m0, s8
	v_lshlrev_b32 v1, 2, v0
	buffer_load_dword v1, s[0:3], 0 offen lds
	s_waitcnt vmcnt(0)
	ds_read_b32 v4, v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end9:
	.globl lds_dma_clean
	.type lds_dma_clean,@function
lds_dma_clean:
	s_mov_b32 m0, s8
	v_lshlrev_b32 v1, 2, v0
	buffer_load_dword v1, s[0:3], 0 offen lds
	buffer_load_dword v1, s[0:3], 0 offen offset:4 lds
	s_waitcnt vmcnt(0)
	s_barrier
	ds_read_b32 v4, v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end10:
	.globl spin
	.type spin,@function
spin:
	s_mov_b32 s0, 0
.LBB11_1:
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc1 .LBB11_1
	s_endpgm
.Lfunc_end11:
	.globl lds_dma_same_wave_known
	.type lds_dma_same_wave_known,@function
lds_dma_same_wave_known:
	s_mov_b32 m0, 0
	v_lshlrev_b32 v1, 2, v0
	v_and_b32 v1, 0xff, v1
	buffer_load_dword v1, s[0:3], 0 offen lds
	ds_read_b32 v4, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_endpgm
.Lfunc_end12:
	.globl lds_dma_cross_known
	.type lds_dma_cross_known,@function
lds_dma_cross_known:
	s_mov_b32 m0, 0
	v_lshlrev_b32 v1, 2, v0
	v_and_b32 v1, 0xff, v1
	buffer_load_dword v1, s[0:3], 0 offen lds
	s_waitcnt vmcnt(0)
	ds_read_b32 v4, v1
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end13:
	.globl two_stores
	.type two_stores,@function
two_stores:
	v_mov_b32 v1, 0
	ds_write_b32 v1, v2
	ds_write_b32 v1, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end14:
	.globl same_store
	.type same_store,@function
same_store:
	v_mov_b32 v1, 0
	ds_write_b32 v1, v2
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end15:
# ds_bpermute / ds_swizzle write their destination when they complete (lgkmcnt,
# in order with the DS pipe), though MCInstrDesc does not call them loads:
# reading it before the wait is a register finding (before: never checked, as
# in Triton's attention softmax reductions; the pass already checked it).
# RUN: %python %S/Inputs/expect-rc.py 1 pingpong-sim verify %s --kernel bpermute_read --waves-per-workgroup 2 | FileCheck %s --check-prefix=XBAR
# XBAR: finding: register wait: wave 0 (waves 0-1): line {{[0-9]+}} 'v_add_u32_e32 v5, v4, v4' reads a register the load at line {{[0-9]+}} 'ds_bpermute_b32 v4, v1, v2' writes
# RUN: %python %S/Inputs/expect-rc.py 0 pingpong-sim verify %s --kernel bpermute_wait --waves-per-workgroup 2 | FileCheck %s --check-prefix=XBAROK
# XBAROK: verify: 2 waves, 0 barriers each, 0 LDS pairs checked, 0 findings
	.globl bpermute_read
	.type bpermute_read,@function
bpermute_read:
	v_lshlrev_b32 v1, 2, v0
	ds_bpermute_b32 v4, v1, v2
	v_add_u32 v5, v4, v4
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end16:
	.globl bpermute_wait
	.type bpermute_wait,@function
bpermute_wait:
	v_lshlrev_b32 v1, 2, v0
	ds_bpermute_b32 v4, v1, v2
	s_waitcnt lgkmcnt(0)
	v_add_u32 v5, v4, v4
	s_endpgm
.Lfunc_end17:
