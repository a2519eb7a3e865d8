# The barrier-drain bound, the floor's third kind (docs/cycle-model.md,
# "Barrier-drain bound"), computed by hand. gfx942, one workgroup of 4 waves,
# wave w on SIMD w: SIMDs 0-1 share LDS port 0, SIMDs 2-3 port 1.
#
# Kernel drain2, per wave and iteration: one ds_write_b128 and two
# ds_read_b128 (64 lanes x 16 B = 1 KiB each, 16 clocks of a pair's 64 B/clk
# port), each phase drained by s_waitcnt lgkmcnt(0) before its s_barrier.
#  - port clocks: 2 waves x 3 x 16 = 96 per pair and iteration (the resource
#    bound);
#  - at each barrier the port idles from the end of its last transfer (16
#    clocks after its start) until that op completes (LdsLatency 64 after its
#    start), the wait's turn and the s_barrier's turn (4 + 4): at least
#    64 + 8 - 16 = 56 clocks;
#  - 96 + 2 x 56 = 208, above the port (96) and the LDS in flight (96).
# RUN: pingpong-sim run %s --kernel drain2 --waves-per-workgroup 4 --iterations 8 --json %t.2.json | FileCheck %s --check-prefix=TWO
# TWO: resource bound: {{9[0-9]\.[0-9]}} cycles/iteration (LDS port, SIMD pair {{[01]}})
# TWO: barrier-drain bound: 208.0 cycles/iteration (LDS port, SIMD pair {{[01]}}): 96.0 port clocks + 2.00 drained barriers x 56 idle clocks
# TWO-NEXT: floor: 208.0 cycles/iteration, the barrier-drain bound (LDS port, SIMD pair {{[01]}}) binds
# RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); b=r['barrier_drain_bound']; print(*(round(b[k], 3) for k in ('cycles_per_iteration', 'port_cycles_per_iteration', 'barriers_per_iteration', 'gap')), r['floor']['binds'])" %t.2.json | FileCheck %s --check-prefix=TWOJSON
# TWOJSON: 208{{(\.0)?}} 96{{(\.0)?}} 2{{(\.0)?}} 56{{(\.0)?}} barrier-drain bound (LDS port, SIMD pair {{[01]}})
#
# Kernel drain1: the same ops, but the reads' wait before the second barrier
# is lgkmcnt(1) (one read still in flight at it): that barrier does not
# count. 96 + 1 x 56 = 152.
# RUN: pingpong-sim run %s --kernel drain1 --waves-per-workgroup 4 --iterations 8 --json %t.1.json | FileCheck %s --check-prefix=ONE
# ONE: barrier-drain bound: 152.0 cycles/iteration (LDS port, SIMD pair {{[01]}}): 96.0 port clocks + 1.00 drained barriers x 56 idle clocks
# ONE-NEXT: floor: 152.0 cycles/iteration, the barrier-drain bound (LDS port, SIMD pair {{[01]}}) binds
#
# Kernel drain0: two barriers with no LDS op between them: their idle gaps
# are one interval, counted once: 96 + 56 = 152.
# RUN: pingpong-sim run %s --kernel drain0 --waves-per-workgroup 4 --iterations 8 --json %t.0.json | FileCheck %s --check-prefix=ZERO
# ZERO: barrier-drain bound: 152.0 cycles/iteration (LDS port, SIMD pair {{[01]}}): 96.0 port clocks + 1.00 drained barriers x 56 idle clocks
#
# Two workgroups on the CU: the other's LDS ops may fill the gap, no bound.
# RUN: pingpong-sim run %s --kernel drain2 --waves-per-workgroup 4 --workgroups-per-cu 2 --iterations 8 --json %t.w.json | FileCheck %s --check-prefix=WGS
# WGS: barrier-drain bound: none (more than one workgroup on the CU)
# WGS-NEXT: floor: {{.*}} the resource bound (LDS port, SIMD pair {{[01]}}) binds
#
# Every run is at or above its floor.
# RUN: %python %S/Inputs/floor-le.py %t.2.json %t.1.json %t.0.json %t.w.json | FileCheck %s --check-prefix=LE
# LE-COUNT-4: ok: cycles
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl drain2
	.type drain2,@function
drain2:
	v_mov_b32 v0, 0
.LBB0_1:
	ds_write_b128 v0, v[20:23]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[24:27], v0
	ds_read_b128 v[28:31], v0 offset:1024
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x16_f16 v[4:7], v[24:25], v[28:29], v[4:7]
	s_barrier
	s_cbranch_scc0 .LBB0_1
	s_endpgm

	.globl drain1
	.type drain1,@function
drain1:
	v_mov_b32 v0, 0
.LBB1_1:
	ds_write_b128 v0, v[20:23]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[24:27], v0
	ds_read_b128 v[28:31], v0 offset:1024
	s_waitcnt lgkmcnt(1)
	s_barrier
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x16_f16 v[4:7], v[24:25], v[28:29], v[4:7]
	s_cbranch_scc0 .LBB1_1
	s_endpgm

	.globl drain0
	.type drain0,@function
drain0:
	v_mov_b32 v0, 0
.LBB2_1:
	ds_write_b128 v0, v[20:23]
	ds_read_b128 v[24:27], v0
	ds_read_b128 v[28:31], v0 offset:1024
	s_waitcnt lgkmcnt(0)
	s_barrier
	v_mfma_f32_16x16x16_f16 v[4:7], v[24:25], v[28:29], v[4:7]
	s_barrier
	s_cbranch_scc0 .LBB2_1
	s_endpgm
