; Loops for test/CodeGen/AMDGPU/load-lookahead.test. Each loop reads its
; operand from LDS for the MFMA; what differs is the global load.
target triple = "amdgcn-amd-amdhsa"

; Register-staged: the load's value only feeds an LDS store; the rsrc's
; prologue load is masked with 0x80000000 (Triton's form).
define amdgpu_kernel void @staged(ptr addrspace(1) %a, ptr addrspace(3) %l, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %a, i16 0, i64 2147483646, i32 159744)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %base = shl i32 %tid, 4
  %c = icmp sgt i32 %n, 0
  %o0 = select i1 %c, i32 %base, i32 -2147483648
  %p = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %o0, i32 0, i32 0)
  store <4 x i32> %p, ptr addrspace(3) %l
  br i1 %c, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %k = phi i32 [ %base, %entry ], [ %k1, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %k1 = add i32 %k, 4096
  %v = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %k1, i32 0, i32 0)
  call void @llvm.amdgcn.s.barrier()
  %h = load <8 x half>, ptr addrspace(3) %l
  %acc1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %h, <8 x half> %h, <4 x float> %acc, i32 0, i32 0, i32 0)
  call void @llvm.amdgcn.s.barrier()
  store <4 x i32> %v, ptr addrspace(3) %l
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop

exit:
  %res = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  store <4 x float> %res, ptr addrspace(1) %out
  ret void
}

; The loaded value feeds the MFMA directly (not register-staged): refused.
define amdgpu_kernel void @direct(ptr addrspace(1) %a, ptr addrspace(3) %l, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %a, i16 0, i64 2147483646, i32 159744)
  %c = icmp sgt i32 %n, 0
  %o0 = select i1 %c, i32 0, i32 -2147483648
  %p = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %o0, i32 0, i32 0)
  store <4 x i32> %p, ptr addrspace(3) %l
  br i1 %c, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %off = shl i32 %i, 12
  %v = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %off, i32 0, i32 0)
  %h = bitcast <4 x i32> %v to <8 x half>
  %acc1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %h, <8 x half> %h, <4 x float> %acc, i32 0, i32 0, i32 0)
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop

exit:
  %res = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  store <4 x float> %res, ptr addrspace(1) %out
  ret void
}

; Register-staged, but no load on the rsrc is masked with 0x80000000: no
; proof that such an offset reads nothing. Refused.
define amdgpu_kernel void @noproof(ptr addrspace(1) %a, ptr addrspace(3) %l, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %a, i16 0, i64 2147483646, i32 159744)
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %off = shl i32 %i, 12
  %v = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %off, i32 0, i32 0)
  call void @llvm.amdgcn.s.barrier()
  %h = load <8 x half>, ptr addrspace(3) %l
  %acc1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %h, <8 x half> %h, <4 x float> %acc, i32 0, i32 0, i32 0)
  call void @llvm.amdgcn.s.barrier()
  store <4 x i32> %v, ptr addrspace(3) %l
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop

exit:
  %res = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  store <4 x float> %res, ptr addrspace(1) %out
  ret void
}

; Register-staged and proven, but the loop also stores to global memory:
; a load moved across the iteration boundary might pass it. Refused.
define amdgpu_kernel void @globalstore(ptr addrspace(1) %a, ptr addrspace(3) %l, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %a, i16 0, i64 2147483646, i32 159744)
  %c = icmp sgt i32 %n, 0
  %o0 = select i1 %c, i32 0, i32 -2147483648
  %p = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %o0, i32 0, i32 0)
  store <4 x i32> %p, ptr addrspace(3) %l
  br i1 %c, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %off = shl i32 %i, 12
  %v = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %off, i32 0, i32 0)
  call void @llvm.amdgcn.s.barrier()
  %h = load <8 x half>, ptr addrspace(3) %l
  %acc1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %h, <8 x half> %h, <4 x float> %acc, i32 0, i32 0, i32 0)
  call void @llvm.amdgcn.s.barrier()
  store <4 x i32> %v, ptr addrspace(3) %l
  store i32 %i, ptr addrspace(1) %out
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop

exit:
  %res = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  store <4 x float> %res, ptr addrspace(1) %out
  ret void
}

; @staged with a custom layout that puts the global load before the LDS
; write in the iteration: the next tile's load would need the registers the
; write still reads (a copy at the latch that waits for the load).
define amdgpu_kernel void @staged_layout(ptr addrspace(1) %a, ptr addrspace(3) %l, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %a, i16 0, i64 2147483646, i32 159744)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %base = shl i32 %tid, 4
  %c = icmp sgt i32 %n, 0
  %o0 = select i1 %c, i32 %base, i32 -2147483648
  %p = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %o0, i32 0, i32 0)
  store <4 x i32> %p, ptr addrspace(3) %l
  br i1 %c, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %k = phi i32 [ %base, %entry ], [ %k1, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %k1 = add i32 %k, 4096
  %v = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %r, i32 %k1, i32 0, i32 0)
  call void @llvm.amdgcn.s.barrier()
  %h = load <8 x half>, ptr addrspace(3) %l
  %acc1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %h, <8 x half> %h, <4 x float> %acc, i32 0, i32 0, i32 0)
  call void @llvm.amdgcn.s.barrier()
  store <4 x i32> %v, ptr addrspace(3) %l
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:
  %res = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  store <4 x float> %res, ptr addrspace(1) %out
  ret void
}

declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
declare <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8), i32, i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half>, <8 x half>, <4 x float>, i32, i32, i32)
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }

!0 = distinct !{!0, !1}
!1 = !{!"amdgpu.pingpong.layout", !"pingpong-layout v1; mem m0: global-load, local-read; dot d: dot; mem m1: local-write"}
