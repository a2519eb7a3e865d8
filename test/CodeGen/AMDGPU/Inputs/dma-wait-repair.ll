; Reduced from test/kernels/dma_attention.hip (clang-22 -O3): a double buffer
; of one __shared__ array, stage picked by a toggle (cur ^= 1), 16-byte
; global_load_lds into stage cur ^ 1, TBAA loads of stage cur.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@buf = internal addrspace(3) global [2 x [1024 x i32]] poison, align 16

; One wave, no barrier: the read of stage cur in iteration j + 1 is the DMA's
; of iteration j (same wave); this iteration's DMA into the other stage stays
; in flight.
define amdgpu_kernel void @one_wave(ptr addrspace(1) %g, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %qp = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %tid
  %q = load i32, ptr addrspace(1) %qp, align 4
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g, ptr addrspace(3) @buf, i32 16, i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i.next, %loop ]
  %cur = phi i32 [ 0, %entry ], [ %nxt, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.next, %loop ]
  %nxt = xor i32 %cur, 1
  %dst = getelementptr inbounds [1024 x i32], ptr addrspace(3) @buf, i32 %nxt
  %off = shl i32 %i, 8
  %src = getelementptr inbounds i32, ptr addrspace(1) %g, i32 %off
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) %dst, i32 16, i32 0, i32 0)
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(3) @buf, i32 %cur, i32 %tid
  %v = load i32, ptr addrspace(3) %p, align 4, !tbaa !0
  %vf = bitcast i32 %v to float
  %qf = bitcast i32 %q to float
  %acc.next = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x4f32(float %vf, float %qf, <4 x float> %acc, i32 0, i32 0, i32 0)
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %op = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %acc.next, ptr addrspace(1) %op, align 16
  ret void
}

; Four waves and __syncthreads() (release fence, s_barrier, acquire fence)
; before the DMA: the release must complete the DMA of the previous iteration
; (other waves read its bytes after the barrier). LLVM 22.1 asks for it
; (S_WAITCNT_lds_direct) and drops it here: a value loaded before the loop
; and used in it makes SIInsertWaitcnts flush vmcnt in the preheader.
define amdgpu_kernel void @four_waves(ptr addrspace(1) %g, ptr addrspace(1) %out, i32 %n) #1 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %qp = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %tid
  %q = load i32, ptr addrspace(1) %qp, align 4
  %wv = lshr i32 %tid, 6
  %wu = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %wv)
  %wb = shl i32 %wu, 10
  %d0 = getelementptr inbounds i8, ptr addrspace(3) @buf, i32 %wb
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g, ptr addrspace(3) %d0, i32 16, i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i.next, %loop ]
  %cur = phi i32 [ 0, %entry ], [ %nxt, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %nxt = xor i32 %cur, 1
  %slot = getelementptr inbounds [1024 x i32], ptr addrspace(3) @buf, i32 %nxt
  %dst = getelementptr inbounds i8, ptr addrspace(3) %slot, i32 %wb
  %off = shl i32 %i, 10
  %src = getelementptr inbounds i32, ptr addrspace(1) %g, i32 %off
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) %dst, i32 16, i32 0, i32 0)
  %ridx = xor i32 %tid, 64
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(3) @buf, i32 %cur, i32 %ridx
  %v = load i32, ptr addrspace(3) %p, align 4, !tbaa !0
  %vf = bitcast i32 %v to float
  %qf = bitcast i32 %q to float
  %acc.next = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x4f32(float %vf, float %qf, <4 x float> %acc, i32 0, i32 0, i32 0)
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %op = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %acc.next, ptr addrspace(1) %op, align 16
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x4f32(float, float, <4 x float>, i32, i32, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }

!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C++ TBAA"}
