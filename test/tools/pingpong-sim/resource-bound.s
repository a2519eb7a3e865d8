# The resource bound: what the loop's instructions ask of each shared unit per
# iteration, the largest being a floor no order of them gets under.
# gfx942, 4 waves, one per SIMD; per wave and iteration 4 ds_read_b128 and two
# 16x16x16 f16 MFMAs.
#
# Hand computation: a ds_read_b128 moves 64 lanes x 16 B = 1024 B; a SIMD
# pair's port (64 B/clk on gfx942) serves 2 waves x 4 reads = 8192 B: 128
# clocks per iteration. MFMA pipe: 2 x 16 clocks = 32 per SIMD. Issue turns: 8
# instructions (4 reads, the wait, 2 MFMAs, the branch) x 4 clocks = 32 per
# wave; LDS issue 4 x 4 = 16, VALU+MFMA issue 2 x 4 = 8 per SIMD. The run
# itself is slower than the port (its reads wait for the port and then 64
# clocks of latency): 140, 91.4 % of the bound.
#
# RUN: pingpong-sim run %s --waves-per-workgroup 4 --iterations 8 --json %t.json | FileCheck %s
# RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1]))['resource_bound']; u={x['name']: x['cycles_per_iteration'] for x in r['units']}; print(r['unit'], r['cycles_per_iteration'], u['MFMA pipe, SIMD 3'], u['issue turns, wave 2'], u['LDS port, SIMD pair 1'], u['HBM (the CU\'s share)'])" %t.json | FileCheck %s --check-prefix=JSON
# CHECK: cycles per iteration: 140.0
# CHECK: resource bound: 128.0 cycles/iteration (LDS port, SIMD pair 0): the run reaches 91.4 % of it
# CHECK-NEXT: per unit, the busiest of each kind (cycles/iteration): LDS port, SIMD pair 0 128.0; MFMA pipe, SIMD 0 32.0; issue turns, wave 0 32.0; LDS issue, SIMD 0 16.0; VALU+MFMA issue, SIMD 0 8.0;{{$}}
# JSON: LDS port, SIMD pair 0 128{{(\.0)?}} 32{{(\.0)?}} 32{{(\.0)?}} 128{{(\.0)?}} 0
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl rb
	.type rb,@function
rb:
	v_mov_b32 v0, 0
.LBB0_1:
	ds_read_b128 v[20:23], v0
	ds_read_b128 v[24:27], v0 offset:1024
	ds_read_b128 v[28:31], v0 offset:2048
	ds_read_b128 v[32:35], v0 offset:3072
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x16_f16 v[0:3], v[20:21], v[24:25], v[0:3]
	v_mfma_f32_16x16x16_f16 v[4:7], v[28:29], v[32:33], v[4:7]
	s_cbranch_scc0 .LBB0_1
	s_endpgm
