# The latency floors beside the resource bound (docs/cycle-model.md, "Latency
# floor"), computed by hand. gfx942, one wave.
#
# Kernel floor_mem, per iteration: two global_load_dwordx4 (no L2 rule: both
# go to HBM, 650 clocks each), two ds_read_b128 (64 clocks each), four
# 32x32x8 f16 MFMAs into the same accumulator, a SALU add, and the waits
# lgkmcnt(0) and vmcnt(0) inside the iteration.
#  - dependence chain: the accumulator a[0:15] carries 4 MFMAs, each 32 pipe
#    clocks + 2 (the dependent extra) = 34: 136 clocks per iteration;
#  - VMEM in flight: vmcnt(0) leaves at most 2 loads outstanding; 2 requests x
#    650 clocks / 2 = 650 clocks per iteration;
#  - LDS in flight: lgkmcnt(0) after 2 reads: 2 x 64 / 2 = 64;
#  - resource bound: the CU's HBM share, 2 x 64 lanes x 16 B = 2048 B at
#    5.3 TB/s / 304 CUs / 2.1 GHz x 0.65 = 5.396 B/clk: 379.5 (MFMA pipe
#    4 x 32 = 128, issue turns 13 x 4 = 52).
#  The VMEM floor binds: 650. The run takes 848 (the second load waits
#  1024 / 5.396 = 190 clocks for the HBM share, then 650, then the wait's and
#  the branch's turns): 76.7 % of the floor.
# RUN: pingpong-sim run %s --kernel floor_mem --waves-per-workgroup 1 --iterations 8 --json %t.json | FileCheck %s --check-prefix=MEM
# RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); l=r['latency_floor']; v=l['vmem_in_flight']; print(l['kind'], l['cycles_per_iteration'], l['dependence_chain']['cycles_per_iteration'], v['cycles_per_iteration'], v['max_in_flight'], v['requests_per_iteration'], l['lgkm_in_flight']['cycles_per_iteration'], r['floor']['binds'], r['floor']['cycles_per_iteration'])" %t.json | FileCheck %s --check-prefix=MEMJSON
# MEM: cycles per iteration: 848.0
# MEM: resource bound: 379.5 cycles/iteration (HBM (the CU's share))
# MEM: latency floor: 650.0 cycles/iteration (VMEM in flight): dependence chain 136.0 (4 instructions per iteration: 4 MFMA, from line {{[0-9]+}} 'v_mfma_f32_32x32x8_f16 a[0:15]{{.*}}'); VMEM in flight 650.0 (2.0 requests per iteration, at most 2 outstanding per wave, 650 clocks each); LDS/SMEM in flight 64.0 (2.0 requests per iteration, at most 2 outstanding per wave, 64 clocks each)
# No s_barrier: no barrier-drain bound (barrier-drain-floor.s).
# MEM-NEXT: barrier-drain bound: none (no barrier)
# MEM-NEXT: floor: 650.0 cycles/iteration, the latency floor (VMEM in flight) binds: the run reaches 76.7 % of it
# The wave path (one wave alone in its own order, no bandwidth): loads at
# t, t+4, reads at t+8, t+12, the vmcnt(0) wait passes at the turn after
# t+4+650, the branch one turn later, the next load one turn after: 664.
# MEM-NEXT: wave path (one wave alone in this order{{.*}}): 664.0 cycles/iteration
# MEMJSON: VMEM in flight 650{{(\.0)?}} 136{{(\.0)?}} 650{{(\.0)?}} 2 2{{(\.0)?}} 64{{(\.0)?}} latency floor (VMEM in flight) 650{{(\.0)?}}
#
# Kernel floor_deep: the same loop with s_waitcnt vmcnt(6): after this
# iteration's 2 loads the wait leaves 6 outstanding, so up to 8 are in
# flight: the VMEM floor is 2 x 650 / 8 = 162.5, above the chain (136) but
# below the HBM share (379.5), which binds.
# RUN: pingpong-sim run %s --kernel floor_deep --waves-per-workgroup 1 --iterations 16 | FileCheck %s --check-prefix=DEEP
# DEEP: latency floor: 162.5 cycles/iteration (VMEM in flight): dependence chain 136.0
# DEEP-SAME: VMEM in flight 162.5 (2.0 requests per iteration, at most 8 outstanding per wave, 650 clocks each)
# DEEP: floor: 379.5 cycles/iteration, the resource bound (HBM (the CU's share)) binds
#
# Kernel floor_chain: the same MFMAs and no memory: the chain (136) binds over
# the MFMA pipe (128); the run takes 4 x 36 = 144 (each dependent MFMA waits
# for the issue turn after its 34 clocks).
# RUN: pingpong-sim run %s --kernel floor_chain --waves-per-workgroup 1 --iterations 8 | FileCheck %s --check-prefix=CHAIN
# CHAIN: cycles per iteration: 144.0
# CHAIN: latency floor: 136.0 cycles/iteration (dependence chain): dependence chain 136.0 (4 instructions per iteration: 4 MFMA
# CHAIN-NEXT: barrier-drain bound: none (no barrier)
# CHAIN-NEXT: floor: 136.0 cycles/iteration, the latency floor (dependence chain) binds: the run reaches 94.4 % of it
# CHAIN-NEXT: wave path (one wave alone in this order{{.*}}): 144.0 cycles/iteration
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl floor_mem
	.type floor_mem,@function
floor_mem:
	v_mov_b32 v0, 0
	v_mov_b32 v1, 0
	s_mov_b32 s0, 0
.LBB0_1:
	global_load_dwordx4 v[40:43], v[0:1], off
	global_load_dwordx4 v[44:47], v[0:1], off offset:1024
	ds_read_b128 v[20:23], v0
	ds_read_b128 v[24:27], v0 offset:1024
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x8_f16 a[0:15], v[20:21], v[24:25], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[22:23], v[26:27], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[20:21], v[26:27], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[22:23], v[24:25], a[0:15]
	s_add_u32 s0, s0, 1
	s_waitcnt vmcnt(0)
	s_cbranch_scc0 .LBB0_1
	s_endpgm

	.globl floor_deep
	.type floor_deep,@function
floor_deep:
	v_mov_b32 v0, 0
	v_mov_b32 v1, 0
	s_mov_b32 s0, 0
.LBB1_1:
	global_load_dwordx4 v[40:43], v[0:1], off
	global_load_dwordx4 v[44:47], v[0:1], off offset:1024
	ds_read_b128 v[20:23], v0
	ds_read_b128 v[24:27], v0 offset:1024
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x8_f16 a[0:15], v[20:21], v[24:25], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[22:23], v[26:27], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[20:21], v[26:27], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[22:23], v[24:25], a[0:15]
	s_add_u32 s0, s0, 1
	s_waitcnt vmcnt(6)
	s_cbranch_scc0 .LBB1_1
	s_endpgm

	.globl floor_chain
	.type floor_chain,@function
floor_chain:
	v_mov_b32 v0, 0
.LBB2_1:
	v_mfma_f32_32x32x8_f16 a[0:15], v[20:21], v[24:25], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[22:23], v[26:27], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[20:21], v[26:27], a[0:15]
	v_mfma_f32_32x32x8_f16 a[0:15], v[22:23], v[24:25], a[0:15]
	s_cbranch_scc0 .LBB2_1
	s_endpgm
