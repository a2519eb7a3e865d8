# The amdhsa.kernels metadata as pingpong-sim reads it (msgpack::Document
# from the .amdgpu_metadata YAML, as LLVM's AMDGPU target streamer reads it):
# the workgroup size from .reqd_workgroup_size in flow style ([ 256, 1, 1 ]:
# 4 waves) and in block style (128 x 1 x 1: 2 waves), from
# .max_flat_workgroup_size (an upper bound: 8 waves), and the kernel
# arguments by name and offset for --arg.
#
# RUN: pingpong-sim run %s --kernel flow --iterations 4 --arg n=5 | FileCheck %s --check-prefix=FLOW
# FLOW: waves: 1 workgroup(s) x 4 waves (1 per SIMD), from .reqd_workgroup_size metadata
# FLOW: input: argument n at kernarg offset 8 = 5
# RUN: pingpong-sim run %s --kernel block --iterations 4 | FileCheck %s --check-prefix=BLOCK
# BLOCK: waves: 1 workgroup(s) x 2 waves (1 per SIMD), from .reqd_workgroup_size metadata
# RUN: pingpong-sim verify %s --kernel maxflat | FileCheck %s --check-prefix=MAXFLAT
# MAXFLAT: 1 workgroup(s) x 8 waves (.max_flat_workgroup_size metadata (upper bound, assumed launched))
#
# --arg by offset finds the argument's name; an unknown name lists every
# argument with its offset, size and kind (exit 2).
# RUN: pingpong-sim run %s --kernel flow --iterations 4 --arg 8=7 | FileCheck %s --check-prefix=OFFSET
# OFFSET: input: argument 8 (n) at kernarg offset 8 = 7
# RUN: %python %S/Inputs/expect-rc.py 2 pingpong-sim run %s --kernel flow --arg k=1 2>&1 | FileCheck %s --check-prefix=BADARG
# BADARG: error: --arg k: no argument of that name in the metadata of flow; arguments: out@0(8 B, global_buffer) n@8(4 B, by_value) <unnamed>@16(4 B, hidden_group_size_x)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl flow
	.type flow,@function
flow:
	s_mov_b32 s2, 0
.Lflow_loop:
	v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]
	s_add_u32 s2, s2, 1
	s_cmp_lt_u32 s2, 8
	s_cbranch_scc1 .Lflow_loop
	s_endpgm
.Lfunc_end0:
	.globl block
	.type block,@function
block:
	s_mov_b32 s2, 0
.Lblock_loop:
	v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]
	s_add_u32 s2, s2, 1
	s_cmp_lt_u32 s2, 8
	s_cbranch_scc1 .Lblock_loop
	s_endpgm
.Lfunc_end1:
	.globl maxflat
	.type maxflat,@function
maxflat:
	v_mov_b32 v1, 0
	s_endpgm
.Lfunc_end2:
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           n
        .offset:         8
        .size:           4
        .value_kind:     by_value
      - .offset:         16
        .size:           4
        .value_kind:     hidden_group_size_x
    .kernarg_segment_size: 24
    .name:           flow
    .reqd_workgroup_size: [ 256, 1, 1 ]
  - .name:           block
    .reqd_workgroup_size:
      - 128
      - 1
      - 1
  - .max_flat_workgroup_size: 512
    .name:           maxflat
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
