	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.protected	_Z4gemmPKDv4_DF16_S1_PDv4_fi ; -- Begin function _Z4gemmPKDv4_DF16_S1_PDv4_fi
	.globl	_Z4gemmPKDv4_DF16_S1_PDv4_fi
	.p2align	8
	.type	_Z4gemmPKDv4_DF16_S1_PDv4_fi,@function
_Z4gemmPKDv4_DF16_S1_PDv4_fi:           ; @_Z4gemmPKDv4_DF16_S1_PDv4_fi
; %bb.0:
	s_load_dword s3, s[0:1], 0x18
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	s_load_dwordx2 s[4:5], s[0:1], 0x10
	v_lshlrev_b32_e32 v18, 3, v0
	s_waitcnt lgkmcnt(0)
	s_ashr_i32 s0, s3, 31
	s_lshr_b32 s0, s0, 28
	s_add_i32 s0, s3, s0
	s_lshr_b32 s0, s0, 4
	s_mul_i32 s0, s2, s0
	s_lshl_b32 s0, s0, 8
	s_ashr_i32 s1, s0, 31
	s_lshl_b64 s[6:7], s[0:1], 3
	s_add_u32 s0, s8, s6
	s_addc_u32 s1, s9, s7
	s_add_u32 s6, s10, s6
	s_addc_u32 s7, s11, s7
	global_load_dwordx2 v[2:3], v18, s[0:1]
	global_load_dwordx2 v[4:5], v18, s[6:7]
	s_cmp_lt_i32 s3, 1
	s_waitcnt vmcnt(0)
	ds_write2st64_b64 v18, v[2:3], v[4:5] offset1:8
	s_barrier
	s_cbranch_scc1 .LBB0_3
; %bb.1:
	v_mov_b32_e32 v19, 0
	v_add_u32_e32 v2, 64, v0
	v_lshl_add_u64 v[20:21], s[0:1], 0, v[18:19]
	v_lshl_add_u64 v[22:23], s[6:7], 0, v[18:19]
	v_and_b32_e32 v19, 0xff, v2
	v_mad_u32_u24 v2, v0, 3, 64
	v_and_b32_e32 v24, 0xff, v2
	v_add_u32_e32 v2, 0xc0, v0
	v_mul_u32_u24_e32 v1, 3, v0
	v_and_b32_e32 v27, 0xff, v2
	v_mov_b32_e32 v2, 0xc0
	v_and_b32_e32 v1, 0xff, v1
	v_mad_u32_u24 v2, v0, 3, v2
	v_xor_b32_e32 v25, 0x80, v0
	v_xor_b32_e32 v26, 0x80, v1
	v_and_b32_e32 v28, 0xff, v2
	s_mov_b32 s6, 0
	v_mov_b32_e32 v14, 0
	v_mov_b32_e32 v15, 0
	v_mov_b32_e32 v16, 0
	v_mov_b32_e32 v17, 0
	v_mov_b32_e32 v10, 0
	v_mov_b32_e32 v11, 0
	v_mov_b32_e32 v12, 0
	v_mov_b32_e32 v13, 0
	v_mov_b32_e32 v6, 0
	v_mov_b32_e32 v7, 0
	v_mov_b32_e32 v8, 0
	v_mov_b32_e32 v9, 0
	v_mov_b32_e32 v2, 0
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v4, 0
	v_mov_b32_e32 v5, 0
	s_mov_b32 s0, 0
	s_mov_b32 s7, 0
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	s_ashr_i32 s1, s0, 31
	s_lshl_b64 s[8:9], s[0:1], 3
	v_lshl_add_u64 v[30:31], v[20:21], 0, s[8:9]
	v_lshl_add_u64 v[32:33], v[22:23], 0, s[8:9]
	global_load_dwordx2 v[30:31], v[30:31], off offset:2048
	s_and_b32 s10, s6, 1
	global_load_dwordx2 v[32:33], v[32:33], off offset:2048
	s_lshl_b32 s1, s10, 11
	v_lshl_or_b32 v29, v0, 3, s1
	v_lshl_or_b32 v35, v25, 3, s1
	ds_read_b64 v[40:41], v29
	ds_read_b64 v[42:43], v35
	s_or_b32 s8, s1, 0x1000
	v_lshl_or_b32 v34, v19, 3, s1
	v_lshl_or_b32 v36, v27, 3, s1
	v_lshl_or_b32 v29, v1, 3, s8
	v_lshl_or_b32 v37, v24, 3, s8
	v_lshl_or_b32 v35, v26, 3, s8
	v_lshl_or_b32 v38, v28, 3, s8
	ds_read_b64 v[44:45], v29
	ds_read_b64 v[46:47], v34
	ds_read_b64 v[48:49], v37
	ds_read_b64 v[34:35], v35
	ds_read_b64 v[36:37], v36
	ds_read_b64 v[38:39], v38
	s_waitcnt lgkmcnt(5)
	v_mfma_f32_16x16x16_f16 v[14:17], v[40:41], v[44:45], v[14:17]
	s_add_i32 s7, s7, 16
	s_add_i32 s6, s6, 1
	s_xor_b32 s1, s10, 1
	s_waitcnt lgkmcnt(2)
	v_mfma_f32_16x16x16_f16 v[6:9], v[42:43], v[34:35], v[6:9]
	s_addk_i32 s0, 0x100
	v_lshl_or_b32 v29, s1, 11, v18
	s_cmp_ge_i32 s7, s3
	v_mfma_f32_16x16x16_f16 v[10:13], v[46:47], v[48:49], v[10:13]
	s_waitcnt vmcnt(0)
	ds_write2st64_b64 v29, v[30:31], v[32:33] offset1:8
	s_waitcnt lgkmcnt(1)
	v_mfma_f32_16x16x16_f16 v[2:5], v[36:37], v[38:39], v[2:5]
	s_barrier
	s_cbranch_scc0 .LBB0_2
	s_branch .LBB0_4
.LBB0_3:
	v_mov_b64_e32 v[2:3], 0
	v_mov_b64_e32 v[4:5], 0
	v_mov_b64_e32 v[6:7], 0
	v_mov_b64_e32 v[8:9], 0
	v_mov_b64_e32 v[10:11], 0
	v_mov_b64_e32 v[12:13], 0
	v_mov_b64_e32 v[14:15], 0
	v_mov_b64_e32 v[16:17], 0
.LBB0_4:
	v_lshl_or_b32 v0, s2, 10, v0
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshl_add_u64 v[0:1], v[0:1], 4, s[4:5]
	global_store_dwordx4 v[0:1], v[14:17], off
	s_nop 1
	v_add_co_u32_e32 v14, vcc, 0x1000, v0
	s_nop 1
	v_addc_co_u32_e32 v15, vcc, 0, v1, vcc
	global_store_dwordx4 v[14:15], v[10:13], off
	s_nop 1
	v_add_co_u32_e32 v10, vcc, 0x2000, v0
	s_nop 1
	v_addc_co_u32_e32 v11, vcc, 0, v1, vcc
	v_add_co_u32_e32 v0, vcc, 0x3000, v0
	global_store_dwordx4 v[10:11], v[6:9], off
	s_nop 0
	v_addc_co_u32_e32 v1, vcc, 0, v1, vcc
	global_store_dwordx4 v[0:1], v[2:5], off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel _Z4gemmPKDv4_DF16_S1_PDv4_fi
		.amdhsa_group_segment_fixed_size 8192
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 28
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 50
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 52
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	_Z4gemmPKDv4_DF16_S1_PDv4_fi, .Lfunc_end0-_Z4gemmPKDv4_DF16_S1_PDv4_fi
                                        ; -- End function
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.num_vgpr, 50
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.num_agpr, 0
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.numbered_sgpr, 12
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.num_named_barrier, 0
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.private_seg_size, 0
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.uses_vcc, 1
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.uses_flat_scratch, 0
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.has_dyn_sized_stack, 0
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.has_recursion, 0
	.set _Z4gemmPKDv4_DF16_S1_PDv4_fi.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 736
; TotalNumSgprs: 18
; NumVgprs: 50
; NumAgprs: 0
; TotalNumVgprs: 50
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 8192 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 6
; NumSGPRsForWavesPerEU: 18
; NumVGPRsForWavesPerEU: 50
; AccumOffset: 52
; Occupancy: 8
; WaveLimiterHint : 1
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 12
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 0
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 0
	.set amdgpu.max_num_named_barrier, 0
	.text
	.type	__hip_cuid_13e95a68904f469,@object ; @__hip_cuid_13e95a68904f469
	.section	.bss,"aw",@nobits
	.globl	__hip_cuid_13e95a68904f469
__hip_cuid_13e95a68904f469:
	.byte	0                               ; 0x0
	.size	__hip_cuid_13e95a68904f469, 1

	.ident	"Debian clang version 22.1.8 (1~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.addrsig_sym __hip_cuid_13e95a68904f469
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .actual_access:  read_only
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  read_only
        .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .offset:         16
        .size:           8
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 8192
    .kernarg_segment_align: 8
    .kernarg_segment_size: 28
    .max_flat_workgroup_size: 256
    .name:           _Z4gemmPKDv4_DF16_S1_PDv4_fi
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         _Z4gemmPKDv4_DF16_S1_PDv4_fi.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     50
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
