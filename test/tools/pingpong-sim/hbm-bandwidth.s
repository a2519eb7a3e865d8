# HBM bandwidth share: 8 waves each stream 4 x global_load_dwordx4 (4 KB) per
# iteration and wait for them (vmcnt(0)) at the end of the iteration.
# gfx942: 5.3 TB/s / 304 CUs / 2.1 GHz x 0.65 = 5.396 B/clk per CU.
# Hand computation: per iteration the CU moves 8 x 4 KB = 32768 B, which takes
# 32768 / 5.396 = 6072 clocks of HBM share, far more than the 650-clock latency:
# the loop is bandwidth bound at ~6072 clocks per iteration.
#
# RUN: pingpong-sim run %s --waves-per-simd 2 --iterations 12 --loop .LBB0_1 | FileCheck %s
# CHECK: cycles per iteration: {{60[6-9][0-9]}}.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl bw
	.type bw,@function
bw:
.LBB0_1:
	global_load_dwordx4 v[0:3], v[16:17], off
	global_load_dwordx4 v[4:7], v[16:17], off offset:1024
	global_load_dwordx4 v[8:11], v[16:17], off offset:2048
	global_load_dwordx4 v[12:15], v[16:17], off offset:3072
	s_waitcnt vmcnt(0)
	s_cbranch_scc0 .LBB0_1
	s_endpgm
