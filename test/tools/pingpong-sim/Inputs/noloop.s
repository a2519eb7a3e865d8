	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl noloop
	.type noloop,@function
noloop:
	v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]
	s_nop 7
	s_endpgm
