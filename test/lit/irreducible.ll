; Irreducible control flow: a cycle entered at two blocks (left and right).
; The plugin warns, marks the kernel irreducible, models its blocks without a
; loop, and still writes the model.
; RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %s 2>&1 | FileCheck %s
; RUN: rm -f %t.json
; RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.json>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=WARN
; RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @irreducible(ptr addrspace(1) %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %left, label %right

left:
  %i.l = phi i32 [ 0, %entry ], [ %i.r.next, %right ]
  %i.l.next = add i32 %i.l, 1
  %cl = icmp slt i32 %i.l.next, %n
  br i1 %cl, label %right, label %exit

right:
  %i.r = phi i32 [ 0, %entry ], [ %i.l.next, %left ]
  %i.r.next = add i32 %i.r, 2
  %cr = icmp slt i32 %i.r.next, %n
  br i1 %cr, label %left, label %exit

exit:
  %r = phi i32 [ %i.l.next, %left ], [ %i.r.next, %right ]
  %idx = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %idx
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

; CHECK-LABEL: kernel irreducible (cuda)
; CHECK:       block 0 entry: {{.*}}-> 1,2
; CHECK-NEXT:    branch work-item: (eq:32 (zext:1:32 (trunc:32:1 lid.x)) 0) ? 1 : 2
; CHECK-NEXT:  block 1 left: {{.*}}-> 2,3
; CHECK:       block 2 right: {{.*}}-> 1,3 back=1
; CHECK:       block 3 exit: {{.*}}st.global.32=1 -> - exit
; CHECK-NOT:   loop L
; CHECK:       mem M0 store global 4B block=3 base=arg:a offset=(mul:nsw:nuw 4 (zext:32:64 lid.x)) affine
; CHECK:       irreducible control flow
; CHECK-NEXT:  warning: irreducible control flow: a cycle has more than one entry

; WARN: wgperf: warning: kernel 'irreducible': irreducible control flow
; WARN-NOT: error

; JSON:      "name": "irreducible",
; JSON:      "loops": [],
; JSON:      "irreducible": true,
; JSON:      "diagnostics": [
; JSON-NEXT:  "warning: irreducible control flow
