; A plain loop for host/other targets: the plugin must not touch it.
define void @saxpy(ptr %x, ptr %y, float %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr float, ptr %x, i64 %i
  %py = getelementptr float, ptr %y, i64 %i
  %vx = load float, ptr %px
  %vy = load float, ptr %py
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr %py
  %i.next = add i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
