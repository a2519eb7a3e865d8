# ds_read_b128 throughput (gfx950): back-to-back conflict-free reads, no waits.
# Published (AMD, ROCm/gfx950-gluon-tutorials, experiments/lds_throughput_validation,
# ATT traces on MI355X, conflict-free padding "1024:+16,2048:+32"): one wave
# 8 clocks per ds_read_b128; four waves, one per SIMD, 16 clocks per read each.
#
# Hand computation (LdsReadBytesPerClkPair 128, LdsQueueDepth 8: the sourced
# depth, off by default, hence PPSIM_PARAMS):
#   one read = 64 lanes x 16 B = 1024 B = 8 clocks of its SIMD pair's port.
#   One wave: 32 reads need 256 port clocks per iteration; issue alone would
#   take 33 turns = 132 clocks, so the queue fills and issue settles at the
#   port's rate: 256 clocks per iteration = 8 per read.
#   Four waves (two per pair): 2 x 32 reads per pair = 512 port clocks per
#   iteration = 16 per read. Without the queue limit (the default) issue runs
#   ahead of the port: 132 clocks per iteration in both runs (checked below).
#
# RUN: env PPSIM_PARAMS=LdsQueueDepth=8 pingpong-sim run %s --waves-per-workgroup 1 --iterations 12 --loop .LBB0_1 | FileCheck %s --check-prefix=ONE
# ONE: cycles per iteration: 256.0
# ONE: LDS request queue full {{[1-9][0-9]*}} (
# RUN: env PPSIM_PARAMS=LdsQueueDepth=8 pingpong-sim run %s --waves-per-workgroup 4 --iterations 12 --loop .LBB0_1 | FileCheck %s --check-prefix=FOUR
# FOUR: cycles per iteration: 512.0
# FOUR: LDS request queue full {{[1-9][0-9]*}} (
# RUN: pingpong-sim run %s --waves-per-workgroup 4 --iterations 12 --loop .LBB0_1 | FileCheck %s --check-prefix=OFF
# OFF: cycles per iteration: 132.0
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl ldsbw
	.type ldsbw,@function
ldsbw:
	v_mov_b32 v40, 0
.LBB0_1:
	ds_read_b128 v[0:3], v40 offset:0
	ds_read_b128 v[4:7], v40 offset:1024
	ds_read_b128 v[8:11], v40 offset:2048
	ds_read_b128 v[12:15], v40 offset:3072
	ds_read_b128 v[16:19], v40 offset:4096
	ds_read_b128 v[20:23], v40 offset:5120
	ds_read_b128 v[24:27], v40 offset:6144
	ds_read_b128 v[28:31], v40 offset:7168
	ds_read_b128 v[0:3], v40 offset:8192
	ds_read_b128 v[4:7], v40 offset:9216
	ds_read_b128 v[8:11], v40 offset:10240
	ds_read_b128 v[12:15], v40 offset:11264
	ds_read_b128 v[16:19], v40 offset:12288
	ds_read_b128 v[20:23], v40 offset:13312
	ds_read_b128 v[24:27], v40 offset:14336
	ds_read_b128 v[28:31], v40 offset:15360
	ds_read_b128 v[0:3], v40 offset:16384
	ds_read_b128 v[4:7], v40 offset:17408
	ds_read_b128 v[8:11], v40 offset:18432
	ds_read_b128 v[12:15], v40 offset:19456
	ds_read_b128 v[16:19], v40 offset:20480
	ds_read_b128 v[20:23], v40 offset:21504
	ds_read_b128 v[24:27], v40 offset:22528
	ds_read_b128 v[28:31], v40 offset:23552
	ds_read_b128 v[0:3], v40 offset:24576
	ds_read_b128 v[4:7], v40 offset:25600
	ds_read_b128 v[8:11], v40 offset:26624
	ds_read_b128 v[12:15], v40 offset:27648
	ds_read_b128 v[16:19], v40 offset:28672
	ds_read_b128 v[20:23], v40 offset:29696
	ds_read_b128 v[24:27], v40 offset:30720
	ds_read_b128 v[28:31], v40 offset:31744
	s_cbranch_scc0 .LBB0_1
	s_endpgm
