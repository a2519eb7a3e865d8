; tiny-loop.ll with the LDS write of A depending on the last K step's MFMA
; result. A focused single-block GEMM loop: per iteration two global loads (A, B of
; the next tile), four LDS reads (A and B, K steps 0 and 1), two accumulators
; times two K steps of MFMA, two LDS writes between barriers. 8 waves.
target triple = "amdgcn-amd-amdhsa"

@lds.a = internal addrspace(3) global [2048 x half] poison, align 16
@lds.b = internal addrspace(3) global [2048 x half] poison, align 16

define amdgpu_kernel void @tiny_dep(ptr addrspace(1) noalias %A, ptr addrspace(1) noalias %B, ptr addrspace(1) %C, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %tid, 63
  %off = shl i32 %tid, 2
  %la = getelementptr half, ptr addrspace(3) @lds.a, i32 %off
  %lb = getelementptr half, ptr addrspace(3) @lds.b, i32 %off
  %la1 = getelementptr half, ptr addrspace(3) %la, i32 4
  %lb1 = getelementptr half, ptr addrspace(3) %lb, i32 4
  %ra = getelementptr half, ptr addrspace(3) @lds.a, i32 %lane
  %rb = getelementptr half, ptr addrspace(3) @lds.b, i32 %lane
  %ra1 = getelementptr half, ptr addrspace(3) %ra, i32 512
  %rb1 = getelementptr half, ptr addrspace(3) %rb, i32 512
  %go = zext i32 %tid to i64
  %pa0 = getelementptr <4 x i32>, ptr addrspace(1) %A, i64 %go
  %pb0 = getelementptr <4 x i32>, ptr addrspace(1) %B, i64 %go
  br label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %pa = phi ptr addrspace(1) [ %pa0, %entry ], [ %pa.next, %loop ]
  %pb = phi ptr addrspace(1) [ %pb0, %entry ], [ %pb.next, %loop ]
  %c0 = phi <4 x float> [ zeroinitializer, %entry ], [ %c0.2, %loop ]
  %c1 = phi <4 x float> [ zeroinitializer, %entry ], [ %c1.2, %loop ]
  %ga = load <4 x i32>, ptr addrspace(1) %pa, align 16
  %gb = load <4 x i32>, ptr addrspace(1) %pb, align 16
  %a0 = load <4 x half>, ptr addrspace(3) %ra, align 8
  %b0 = load <4 x half>, ptr addrspace(3) %rb, align 8
  %a1 = load <4 x half>, ptr addrspace(3) %ra1, align 8
  %b1 = load <4 x half>, ptr addrspace(3) %rb1, align 8
  %c0.1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %a0, <4 x half> %b0, <4 x float> %c0, i32 0, i32 0, i32 0)
  %c1.1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %a0, <4 x half> %b1, <4 x float> %c1, i32 0, i32 0, i32 0)
  %c0.2 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %a1, <4 x half> %b0, <4 x float> %c0.1, i32 0, i32 0, i32 0)
  %c1.2 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %a1, <4 x half> %b1, <4 x float> %c1.1, i32 0, i32 0, i32 0)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %acc.bits = bitcast <4 x float> %c0.2 to <4 x i32>
  %ga.dep = xor <4 x i32> %ga, %acc.bits
  store <4 x i32> %ga.dep, ptr addrspace(3) %la, align 16
  store <4 x i32> %gb, ptr addrspace(3) %lb, align 16
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %pa.next = getelementptr <4 x i32>, ptr addrspace(1) %pa, i64 512
  %pb.next = getelementptr <4 x i32>, ptr addrspace(1) %pb, i64 512
  %k.next = add i32 %k, 1
  %done = icmp eq i32 %k.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %cp = getelementptr <4 x float>, ptr addrspace(1) %C, i64 %go
  store <4 x float> %c0.2, ptr addrspace(1) %cp, align 16
  %cp1 = getelementptr <4 x float>, ptr addrspace(1) %cp, i64 512
  store <4 x float> %c1.2, ptr addrspace(1) %cp1, align 16
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half>, <4 x half>, <4 x float>, i32, i32, i32)
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="512,512" }
