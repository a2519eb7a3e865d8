# Issue 8: branch directions on data the model does not know, in a small
# hand-written kernel (one wave per SIMD). s4 (an SGPR the model does not
# initialise) is the trip count: the guard `s4 > 16` decides whether the
# loop runs, and an exec-masked guard (v_cmp on s4, s_and_saveexec,
# s_cbranch_execz) protects its LDS write.
#
# Unknown s4: the guard goes the way that reaches the loop, and the
# exec guard is assumed uniform (every lane active), so the LDS address
# computed inside it is known (with exec unknown it would not be).
# RUN: pingpong-sim run %s --waves-per-simd 1 --iterations 4 | FileCheck %s --check-prefix=FREE
# FREE: iterations of loop .Lloop: every wave ran 4 of 4 (1 entry into the loop)
# FREE: line {{[0-9]+}}: assumed every lane active before the guard takes the same direction ('s_cbranch_execz .Lskip') x4
# FREE: line {{[0-9]+}}: data-dependent 's_cbranch_execz .Lskip': not taken (both directions reach the loop; fall-through first) x4
# FREE: line {{[0-9]+}}: data-dependent 's_cbranch_scc0 .Ldone': not taken (the only direction that reaches the loop) x4
# RUN: pingpong-sim verify %s --waves-per-simd 1 | FileCheck %s --check-prefix=VFREE
# VFREE: verify: buffer rule: LDS addresses computed for 4 of 4 LDS accesses
#
# --sgpr 4=100: the guard is known and true.
# RUN: pingpong-sim run %s --waves-per-simd 1 --iterations 4 --sgpr 4=100 | FileCheck %s --check-prefix=BIG
# BIG: every wave ran 4 of 4
# BIG: input: s4 = 100 (--sgpr)
# BIG-NOT: data-dependent
# --sgpr s4=8: the guard is known and false; the loop is skipped for real.
# RUN: %python %S/Inputs/expect-rc.py 4 pingpong-sim run %s --waves-per-simd 1 --iterations 4 --sgpr s4=8 2>&1 | FileCheck %s --check-prefix=SMALL
# SMALL: waves 0-3 each ran 0 of 4 iterations of loop .Lloop (line {{[0-9]+}}): no path found: the branch at line {{[0-9]+}} 's_cbranch_scc0 .Ldone' (its condition is known to the model) leads to line {{[0-9]+}}, from where the loop cannot be reached
# RUN: %python %S/Inputs/expect-rc.py 2 pingpong-sim run %s --sgpr 4 2>&1 | FileCheck %s --check-prefix=BADSGPR
# BADSGPR: for the --sgpr option: expects N=VALUE
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl guarded
	.type guarded,@function
guarded:
	v_mov_b32 v2, 0
	v_mov_b32 v3, s4
	v_cmp_lt_u32 s[6:7], 16, v3
	s_and_saveexec_b64 s[8:9], s[6:7]
	s_cbranch_execz .Lskip
	v_lshlrev_b32 v1, 2, v0
	ds_write_b32 v1, v2
.Lskip:
	s_or_b64 exec, exec, s[8:9]
	s_cmp_gt_u32 s4, 16
	s_cbranch_scc0 .Ldone
	s_mov_b32 s5, 0
.Lloop:
	v_mfma_f32_16x16x16_f16 v[4:7], v[8:9], v[8:9], v[4:7]
	s_add_u32 s5, s5, 16
	s_cmp_lt_u32 s5, s4
	s_cbranch_scc1 .Lloop
.Ldone:
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lfunc_end0:
