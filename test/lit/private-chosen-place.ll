; A thread's private accumulators reached through a pointer that control flow
; chooses among places of one private array: `phi [%acc, ...], [%acc + 12, ...]`,
; what clang -O3 leaves of `acc[j]` in a two-trip loop over j that is not unrolled
; (BAT's nbody with OUTER_UNROLL_FACTOR=2 and INNER_UNROLL_FACTOR2=1, a thread's
; accumulators handed to a device function).  The accesses are the private
; array's, at a place the same for every lane (priced as its first element);
; before, they were global accesses spread at random over an unknown buffer,
; which made such configurations 20x slower than their neighbours.
; The IR as given (the plugin's own clean-up would fold this small loop away;
; in nbody's kernel the phi survives it):
; RUN: env WGPERF_NO_NORMALIZE=1 %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: mem M{{[0-9]+}} load private 4B {{.*}}base=private:acc offset=0 non-affine (a place in 'acc' chosen by control flow, the same for every lane (priced as its first element))
; CHECK: mem M{{[0-9]+}} store private 4B {{.*}}base=private:acc offset=0 non-affine
; CHECK-NOT: base=unknown

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @moments(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %acc = alloca [2 x [3 x float]], align 4
  %acc12 = getelementptr inbounds i8, ptr %acc, i64 12
  store float 0.0, ptr %acc, align 4
  store float 0.0, ptr %acc12, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idx
  %x = load float, ptr addrspace(1) %src, align 4
  br label %outer

outer:
  %k = phi i32 [ 0, %entry ], [ %k.next, %outer.latch ]
  br label %inner

inner:
  %p = phi ptr [ %acc, %outer ], [ %acc12, %inner ]
  %first = phi i1 [ true, %outer ], [ false, %inner ]
  %a = load float, ptr %p, align 4
  %a2 = fadd float %a, %x
  store float %a2, ptr %p, align 4
  br i1 %first, label %inner, label %outer.latch

outer.latch:
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %outer, label %done

done:
  br label %sum

sum:                          ; acc[j][0] at a place the loop computes: the array stays in memory
  %j = phi i64 [ 0, %done ], [ %j.next, %sum ]
  %t = phi float [ 0.0, %done ], [ %t2, %sum ]
  %q = getelementptr inbounds [2 x [3 x float]], ptr %acc, i64 0, i64 %j, i64 0
  %r = load float, ptr %q, align 4
  %t2 = fadd float %t, %r
  %j.next = add nuw nsw i64 %j, 1
  %again = icmp ult i64 %j.next, 2
  br i1 %again, label %sum, label %end

end:
  %dst = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  store float %t2, ptr addrspace(1) %dst, align 4
  ret void
}
