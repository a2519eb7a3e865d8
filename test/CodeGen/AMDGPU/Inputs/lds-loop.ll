; A loop that reads and writes LDS with a barrier, no MFMA: checked by
; -amdgpu-pingpong-verify on gfx9, reported as not checkable on gfx12.
target triple = "amdgcn-amd-amdhsa"

@buf = internal addrspace(3) global [512 x i32] poison, align 4

define amdgpu_kernel void @lds_loop(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @buf, i32 %tid
  %nb = xor i32 %tid, 1
  %q = getelementptr i32, ptr addrspace(3) @buf, i32 %nb
  store i32 %tid, ptr addrspace(3) %p, align 4
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v = load i32, ptr addrspace(3) %q, align 4
  %acc.next = add i32 %acc, %v
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  store i32 %acc.next, ptr addrspace(3) %p, align 4
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %o, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
