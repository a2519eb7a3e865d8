# The L2 reuse rule (docs/cycle-model.md, "L2 reuse rule"). A GEMM M x N tiled
# BM x BN per workgroup re-reads every A tile in N/BN workgroups and every B
# tile in M/BM; only the first read misses, so by bytes
#   miss = (BM*BN/N + BN*BM/M) / (BM+BN).
# 1024x1024 with 128x128 tiles: miss = (16 + 16)/256 = 1/8, hit rate 7/8.
# Hits are placed deterministically (every load whose running sum of the hit
# rate crosses an integer): of each 8 consecutive loads exactly one misses,
# so 12 iterations x 8 loads = 96 loop loads give 84 hits.
#
# Timing by hand (gfx942): a 1 KiB load (64 lanes x 16 B) holds the CU's HBM
# share (5.396 B/clk) for 189.78 clk, the L2 share (53.9 B/clk) for 19.0 clk.
# HBM latency 650, L2 latency 294 (Params.h), one issue turn = 4 clk.
#  * 1 wave, all HBM: the 8th load starts at 7 x 189.78 = 1328.5 and returns
#    at 1978.5 -> ceil 1979; s_waitcnt passes at the next turn (1980), the
#    branch issues at 1984, the header at 1988: 1988 clk/iteration.
#  * 1 wave, rule: the one miss (first load, at t0) returns at t0+650; the 7
#    hits start at t0+4 + 19.0k and return by t0+412 < 650. Wait passes at
#    t0+652, branch 656, header 660: 660 clk/iteration.
#  * 8 waves (2 per SIMD), rule: per iteration 64 loads, 8 misses = 8 KiB of
#    HBM = 8192 / 5.396 = 1518.2 clk > the 56 KiB of L2 hits (1064 clk): the
#    loop is bound by the HBM share at 1518 clk/iteration (all HBM: 12145).
#
# RUN: pingpong-sim run %s --loop .LBB0_1 --waves-per-workgroup 1 --iterations 12 | FileCheck %s --check-prefix=HBM1
# HBM1: cycles per iteration: 1988.0
# HBM1: VMEM loads in the loop: 8192.00 B per workgroup per iteration; L2 hit rate 0.0000: 0 of 96 loop loads hit
# RUN: pingpong-sim run %s --loop .LBB0_1 --waves-per-workgroup 1 --iterations 12 --gemm 1024,1024 --tile 128,128 | FileCheck %s --check-prefix=RULE1
# RULE1: cycles per iteration: 660.0
# RULE1: L2 rule: gemm 1024x1024, tile 128x128: A tile read by N/BN = 8 workgroups, B tile by M/BM = 8; miss = (BM*BN/N + BN*BM/M)/(BM+BN) = (128*0.125 + 128*0.125)/256 = 0.125, L2 hit rate 0.875
# RULE1: L2 hit rate 0.8750: 84 of 96 loop loads hit
# RUN: pingpong-sim run %s --loop .LBB0_1 --waves-per-workgroup 8 --iterations 12 --gemm 1024,1024,4096 --tile 128,128 --json %t.json | FileCheck %s --check-prefix=RULE8
# RULE8: cycles per iteration: 1518.0
# RULE8: (K = 4096 does not enter the rule)
# RULE8: L2 hit rate 0.8750: 672 of 768 loop loads hit
# The same 8 waves as 2 workgroups x 4 waves: the CU moves the same bytes, so
# the throughput per workgroup-iteration is the same 1518 clk, now measured in
# the workgroups' common steady-state window (wg1's 0.1 is the window's edge).
# RUN: pingpong-sim run %s --loop .LBB0_1 --workgroups-per-cu 2 --waves-per-workgroup 4 --iterations 12 --gemm 1024,1024 --tile 128,128 | FileCheck %s --check-prefix=TWOWG
# TWOWG: cycles per iteration: 1518.0
# TWOWG: multi-workgroup steady state: common window {{[0-9]+}}-{{[0-9]+}}; workgroup cycles/iteration in it: wg0 1518.0 wg1 1518.{{[01]}}
# RUN: FileCheck %s --check-prefix=JSON < %t.json
# JSON: "l2_hit_rate": 0.875,
# JSON: "loop_load_bytes_per_workgroup_iteration": 65536,
# A rectangular case: 4096x1024, tile 256x128: A misses 128/1024 = 1/8, B
# misses 256/4096 = 1/16; miss = (256/8 + 128/16)/384 = 40/384 = 0.104167.
# Over 96 loads the running sum reaches 96 x 0.895833 = 86.0 -> 86 hits.
# RUN: pingpong-sim run %s --loop .LBB0_1 --waves-per-workgroup 1 --iterations 12 --gemm 4096,1024 --tile 256,128 | FileCheck %s --check-prefix=RECT
# RECT: B tile by M/BM = 16; miss = (BM*BN/N + BN*BM/M)/(BM+BN) = (256*0.125 + 128*0.0625)/384 = 0.104167, L2 hit rate 0.895833
# RECT: 86 of 96 loop loads hit
# Bad combinations are command-line errors (exit 2).
# RUN: not pingpong-sim run %s --gemm 1024,1024 2>&1 | FileCheck %s --check-prefix=NOTILE
# NOTILE: error: --gemm and --tile go together
# RUN: not pingpong-sim run %s --gemm 1024,1024 --tile 128,128 --l2-hit-rate 0.5 2>&1 | FileCheck %s --check-prefix=BOTH
# BOTH: error: --l2-hit-rate and --gemm both set the L2 hit rate
# RUN: not pingpong-sim run %s --gemm 1024,x --tile 128,128 2>&1 | FileCheck %s --check-prefix=BADGEMM
# BADGEMM: for the --gemm option: expects a positive integer, got 'x'
# RUN: not pingpong-sim run %s --gemm 64,64 --tile 128,128 2>&1 | FileCheck %s --check-prefix=BIG
# BIG: error: --tile 128,128 is larger than --gemm 64,64
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl l2
	.type l2,@function
l2:
.LBB0_1:
	global_load_dwordx4 v[0:3], v[32:33], off
	global_load_dwordx4 v[4:7], v[32:33], off
	global_load_dwordx4 v[8:11], v[32:33], off
	global_load_dwordx4 v[12:15], v[32:33], off
	global_load_dwordx4 v[16:19], v[32:33], off
	global_load_dwordx4 v[20:23], v[32:33], off
	global_load_dwordx4 v[24:27], v[32:33], off
	global_load_dwordx4 v[28:31], v[32:33], off
	s_waitcnt vmcnt(0)
	s_cbranch_scc0 .LBB0_1
	s_endpgm
