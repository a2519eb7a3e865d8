# LDS pointer chase: each ds_read_b32 uses the address the previous one loaded,
# with s_waitcnt lgkmcnt(0) between them. No MFMA: the loop is chosen by --loop.
#
# Hand computation (gfx950, LdsLatency 64, issue turn every 4 clocks):
#   ds_read at t, data at t+64; the waitcnt passes at the turn t+64; the next
#   ds_read issues at the following turn, t+68. => 68 clocks per dependent load.
#   Iteration: 4 x 68 + the branch (one turn) = 276.
#   (Published: ~69 cycles per dependent ds_read_b32, Meta on gfx950.)
#   lgkmcnt stalls: turns t+4..t+60 = 15 turns = 60 clocks per load, 240 per
#   iteration, 5 steady iterations -> 1200.
#   Bandwidth: 64 lanes x 4 B = 256 B per read; SIMD0/1 share a 128 B/clk port.
#
# RUN: pingpong-sim run %s --waves-per-simd 1 --iterations 8 --loop .LBB0_1 | FileCheck %s
# CHECK: loop: .LBB0_1
# CHECK: cycles per iteration: 276.0
# The header is at clock 8 (v_mov at 0, s_waitcnt-free ds_read needs v1: VALU
# latency 8); iteration 7 starts at 8 + 7 x 276 = 1940.
# CHECK: wg0 w0  s0        8     1940     276.0       0     1200
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl chase
	.type chase,@function
chase:
	v_mov_b32 v1, 0
.LBB0_1:
	ds_read_b32 v1, v1
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v1, v1
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v1, v1
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v1, v1
	s_waitcnt lgkmcnt(0)
	s_cbranch_scc0 .LBB0_1
	s_endpgm
