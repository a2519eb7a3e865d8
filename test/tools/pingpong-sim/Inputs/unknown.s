	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl unk
	.type unk,@function
unk:
.LBB0_1:
	v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]
	s_sendmsg sendmsg(MSG_INTERRUPT)
	s_cbranch_scc0 .LBB0_1
	s_endpgm
