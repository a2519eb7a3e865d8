; The same cases for both checkers (test/CodeGen/AMDGPU/sync-rules-both.test):
; -amdgpu-pingpong-verify on the final MIR, `pingpong-sim verify` on the .s
; llc prints from that MIR. Two waves (128 work items) per workgroup.
target triple = "amdgcn-amd-amdhsa"

@buf = internal addrspace(3) global [256 x i32] poison, align 16
@dyn = external addrspace(3) global [0 x i32], align 16

; FLAT: a flat load feeds an LDS store; llc waits vmcnt(0) lgkmcnt(0) before
; the store (the test also deletes the lgkmcnt half of that wait).
define amdgpu_kernel void @flat_wait(ptr %g, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @buf, i32 %tid
  %nb = xor i32 %tid, 64
  %q = getelementptr i32, ptr addrspace(3) @buf, i32 %nb
  %gp = getelementptr i32, ptr %g, i32 %tid
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %x = load volatile i32, ptr %gp, align 4
  store i32 %x, ptr addrspace(3) %p, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v = load i32, ptr addrspace(3) %q, align 4
  %acc.next = add i32 %acc, %v
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %o, align 4
  ret void
}

; ds_bpermute in the phase where the other wave reads @buf: the crossbar
; touches no LDS memory, so nothing to order.
define amdgpu_kernel void @bpermute(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @buf, i32 %tid
  %nb = xor i32 %tid, 64
  %q = getelementptr i32, ptr addrspace(3) @buf, i32 %nb
  %lane4 = shl i32 %tid, 2
  store i32 %tid, ptr addrspace(3) %p, align 4
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v = load i32, ptr addrspace(3) %q, align 4
  %s = call i32 @llvm.amdgcn.ds.bpermute(i32 %lane4, i32 %v)
  %acc.next = add i32 %acc, %s
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

; write/write: two different stores of every wave to the same word @buf[0]
; in one barrier phase: which value stays depends on the waves' timing.
define amdgpu_kernel void @write_write(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  store volatile i32 %tid, ptr addrspace(3) @buf, align 4
  store volatile i32 %i, ptr addrspace(3) @buf, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v = load volatile i32, ptr addrspace(3) @buf, align 4
  %acc.next = add i32 %acc, %v
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %o, align 4
  ret void
}

; LDS DMA vs read: every wave DMAs 64 dwords into @buf[0..63] and, in the
; same phase, another wave reads @buf[tid & 63] (its own DMA waited for).
define amdgpu_kernel void @dma_read(ptr addrspace(1) %g, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %tid, 63
  %q = getelementptr i32, ptr addrspace(3) @buf, i32 %lane
  %gp = getelementptr i32, ptr addrspace(1) %g, i32 %tid
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %gp, ptr addrspace(3) @buf, i32 4, i32 0, i32 0)
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  %v = load i32, ptr addrspace(3) %q, align 4
  %acc.next = add i32 %acc, %v
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %o, align 4
  ret void
}

; Unknown address: a read at an index from a kernel argument and another
; wave's write, same phase, in dynamic LDS (an arena): neither checker knows
; the bytes, both say "cannot prove".
define amdgpu_kernel void @unknown_addr(ptr addrspace(1) %out, i32 %n, i32 %off) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @dyn, i32 %tid
  %j = add i32 %tid, %off
  %q = getelementptr i32, ptr addrspace(3) @dyn, i32 %j
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v = load volatile i32, ptr addrspace(3) %q, align 4
  %acc.next = add i32 %acc, %v
  store volatile i32 %acc.next, ptr addrspace(3) %p, align 4
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %o, align 4
  ret void
}

; Triton's async-copy stages in one arena: wave w DMAs 64 dwords into its part
; of stage 0 (@dyn[64w .. 64w+63]) and, in the same phase, reads stage 1
; (@dyn[128 + lane]). The
; DMA carries Triton's async-copy scope, the read is !noalias to it: the pass
; tells the stages apart by the scopes, the tool by the bytes.
define amdgpu_kernel void @async_stages(ptr addrspace(1) %g, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %tid, 63
  %j = add i32 %lane, 128
  %q = getelementptr i32, ptr addrspace(3) @dyn, i32 %j
  %gp = getelementptr i32, ptr addrspace(1) %g, i32 %tid
  %wv = lshr i32 %tid, 6
  %wu = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %wv)
  %w64 = shl i32 %wu, 6
  %part = getelementptr i32, ptr addrspace(3) @dyn, i32 %w64
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %gp, ptr addrspace(3) %part, i32 4, i32 0, i32 0), !alias.scope !0
  %v = load i32, ptr addrspace(3) %q, align 4, !alias.scope !3, !noalias !0
  %acc.next = add i32 %acc, %v
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
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
declare void @llvm.amdgcn.s.waitcnt(i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)

attributes #0 = { "amdgpu-flat-work-group-size"="128,128" }

!0 = !{!1}
!1 = distinct !{!1, !2, !"AsyncCopies"}
!2 = distinct !{!2, !"AsyncOps"}
!3 = !{!4}
!4 = distinct !{!4, !2, !"LocalLoads"}
