# HBM load-to-use latency: one wave, global_load_dwordx4 then s_waitcnt vmcnt(0).
# gfx950: VmemLatency 650 clocks (middle of the measured 500-800 range).
# Hand computation: load at t, data at t+650; the waitcnt passes at the first
# issue turn >= t+650, i.e. t+652; the branch at t+656; next load at t+660.
# => 660 clocks per iteration (650 + 2 rounding to the turn + 2 turns).
# The 1 KB of the load occupies the CU's HBM share for 1024 / 8.46 = 121 clocks
# (8 TB/s / 256 CUs / 2.4 GHz x 0.65), far less than 660: latency bound.
#
# RUN: pingpong-sim run %s --waves-per-workgroup 1 --iterations 8 --loop .LBB0_1 | FileCheck %s
# CHECK: waves: 1 workgroup(s) x 1 waves (1 per SIMD), from --waves-per-workgroup
# CHECK: cycles per iteration: 660.0
#
# Every load an L2 hit: L2HitLatency 336 on gfx950 (~140 ns vector L2 hit x
# 2.4 GHz, docs/cycle-model.md "Sourced model facts"). Data at t+336, already
# a turn; waitcnt passes at t+336, branch t+340, next load t+344. The L2 share
# (64 B/clk) holds the 1 KB for 16 clocks: latency bound.
# RUN: pingpong-sim run %s --waves-per-workgroup 1 --iterations 8 --loop .LBB0_1 --l2-hit-rate 1 | FileCheck %s --check-prefix=L2
# L2: cycles per iteration: 344.0
# L2: L2 hit rate 1.0000: 8 of 8 loop loads hit
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl vmem
	.type vmem,@function
vmem:
.LBB0_1:
	global_load_dwordx4 v[0:3], v[4:5], off
	s_waitcnt vmcnt(0)
	s_cbranch_scc0 .LBB0_1
	s_endpgm
