; While loops (exit test in the header) for rotate-loops.test: written for
; that test, one case per rule of lib/Passes/RotateLoops.cpp.
target triple = "amdgcn-amd-amdhsa"

declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half>, <4 x half>, <4 x float>, i32, i32, i32)

; The exit test in the header: a while loop with an MFMA.
define amdgpu_kernel void @while_mfma(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) #0 {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.next, %body ]
  %p = phi ptr addrspace(1) [ %in, %entry ], [ %p.next, %body ]
  %p.next = getelementptr <4 x half>, ptr addrspace(1) %p, i32 64
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %a = load <4 x half>, ptr addrspace(1) %p
  %acc.next = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %a, <4 x half> %a, <4 x float> %acc, i32 0, i32 0, i32 0)
  %i.next = add i32 %i, 1
  br label %header
exit:
  store <4 x float> %acc, ptr addrspace(1) %out
  ret void
}

; A load in the header: copying it before the loop would add a load.
define amdgpu_kernel void @while_header_load(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %lim) #0 {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.next, %body ]
  %n = load volatile i32, ptr addrspace(1) %lim
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %a = load <4 x half>, ptr addrspace(1) %in
  %acc.next = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %a, <4 x half> %a, <4 x float> %acc, i32 0, i32 0, i32 0)
  %i.next = add i32 %i, 1
  br label %header
exit:
  store <4 x float> %acc, ptr addrspace(1) %out
  ret void
}

; No MFMA: not a loop the plugin schedules, left alone.
define amdgpu_kernel void @while_plain(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %f = sitofp i32 %i to float
  %s.next = fadd float %s, %f
  %i.next = add i32 %i, 1
  br label %header
exit:
  store float %s, ptr addrspace(1) %out
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
