; A bare s_barrier (no workgroup fences) between an LDS read and the block
; that uses its value; after the barrier the read's bytes are overwritten by
; another wave (lane tid reads lane tid^64's slot, which that lane then
; rewrites). test/CodeGen/AMDGPU/pin-lds-reads.test.
target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x float] poison, align 4

define amdgpu_kernel void @sink_past_barrier(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @lds, i32 0, i32 %tid
  %v = uitofp i32 %tid to float
  store float %v, ptr addrspace(3) %slot, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %other = xor i32 %tid, 64
  %oslot = getelementptr inbounds [256 x float], ptr addrspace(3) @lds, i32 0, i32 %other
  %r = load float, ptr addrspace(3) %oslot, align 4
  call void @llvm.amdgcn.s.barrier()
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %use, label %exit

use:
  store float 1.0, ptr addrspace(3) %slot, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i32 %tid
  store float %r, ptr addrspace(1) %o, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }

; The same, but after the barrier only another array is written: the moved
; read races with nothing, and the plugin leaves LLVM's order.
@lds2 = internal addrspace(3) global [256 x float] poison, align 4
define amdgpu_kernel void @sink_harmless(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @lds, i32 0, i32 %tid
  %v = uitofp i32 %tid to float
  store float %v, ptr addrspace(3) %slot, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %other = xor i32 %tid, 64
  %oslot = getelementptr inbounds [256 x float], ptr addrspace(3) @lds, i32 0, i32 %other
  %r = load float, ptr addrspace(3) %oslot, align 4
  call void @llvm.amdgcn.s.barrier()
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %use, label %exit

use:
  %slot2 = getelementptr inbounds [256 x float], ptr addrspace(3) @lds2, i32 0, i32 %tid
  store float 1.0, ptr addrspace(3) %slot2, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i32 %tid
  store float %r, ptr addrspace(1) %o, align 4
  br label %exit

exit:
  ret void
}
