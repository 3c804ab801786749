// PTX's cache operators (docs/kernel-model.md, "Cache operators"): inline PTX loads and
// stores of global memory are the accesses they are, with their operator; .cg and .cv
// loads (and, with ptxas' -dlcm=cg, every global load without an operator of its own
// but those of the read-only path) go through L2 only, never kept in L1.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %wgperf extract %s -o %t/m.json --print 2>&1 | FileCheck %s
//
// A kernel whose warps read each other's lines: from L1 with plain loads, from L2 with
// __ldcg, with -Xptxas -dlcm=cg, and not with -dlcm=cg where the loads take the
// read-only path (const __restrict__: ld.global.nc)
// RUN: %wgperf predict %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 --json > %t/plain.json
// RUN: %wgperf predict %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 | FileCheck %s --check-prefix=PLAIN
// RUN: %wgperf predict %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 '-DLD(p)=__ldcg(p)' | FileCheck %s --check-prefix=LDCG
// RUN: %wgperf predict %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 '-DLD(p)=__ldcg(p)' --json > %t/ldcg.json
// RUN: %wgperf predict %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 -- -Xptxas -v,-dlcm=cg 2>%t/note.txt | FileCheck %s --check-prefix=DLCM
// RUN: FileCheck %s --check-prefix=NOTE < %t/note.txt
// RUN: %wgperf predict %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 --json -- --ptxas-options=-dlcm=cg > %t/dlcm.json
// RUN: %wgperf predict %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 -DRESTRICT=__restrict__ --json -- -Xptxas -dlcm=cg > %t/nc.json
// RUN: %wgperf analyze %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 -- -dlcm=cg | FileCheck %s --check-prefix=ANALYZE
// RUN: %wgperf analyze %s --kernel reuse --grid 4096 --block 256 --gpu rtx-3090 --arg n=1048576 --json '-DLD(p)=__ldcg(p)' | python3 -c "import json,sys; print(sorted({m['kind'] + ' ' + str(m['cache_operator']) for m in json.load(sys.stdin)['memory_instructions']}))" | FileCheck %s --check-prefix=OPS
// RUN: python3 -c "import json,sys; t=[json.load(open(f))['time_us'] for f in sys.argv[1:]]; print('cg slower', t[1] > 1.5 * t[0], t[2] == t[1], 'nc', t[3] == t[0])" %t/plain.json %t/ldcg.json %t/dlcm.json %t/nc.json | FileCheck %s --check-prefix=TIMES
//
// the driver records -dlcm and -dscm in every kernel of the model
// RUN: %wgperf extract %s -o %t/d.json -- -Xptxas -dlcm=cg -Xptxas --def-store-cache=cs | FileCheck %s --check-prefix=SUMMARY
// RUN: python3 -c "import json,sys; print(sorted({(k['launch_attributes']['global_load_cache'], k['launch_attributes']['global_store_cache']) for k in json.load(open(sys.argv[1]))['kernels']}))" %t/d.json | FileCheck %s --check-prefix=REC
//
// a T1 space's CompilerOptions: -Xptxas LIST (or =LIST, --ptxas-options=LIST) with -dlcm,
// -dscm or -maxrregcount gives them to the driver, the plan keeps the option as written
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); k=d['KernelSpecification']; k['CompilerOptions']=['-std=c++11', '-Xptxas', '-v,-dlcm=cg']; k['KernelFile']=sys.argv[3]; json.dump(d, open(sys.argv[2], 'w'))" %S/Inputs/tune/scale.json %t/space.json %S/Inputs/tune/scale.cu
// RUN: wgtune --space %t/space.json --gpu rtx-3090 --registers estimate --cache %t/tc --sample 3 --seed 1 > /dev/null 2> %t/tune.err
// RUN: not grep "is not passed to clang" %t/tune.err
// RUN: python3 -c "import json,glob,sys; print(sorted({k['launch_attributes']['global_load_cache'] for f in glob.glob(sys.argv[1] + '/models/*/*.json') for k in json.load(open(f))['kernels']}))" %t/tc | FileCheck %s --check-prefix=T1
// RUN: wgtune --space %t/space.json --sample 1 --plan - | FileCheck %s --check-prefix=T1PLAN
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['KernelSpecification']['CompilerOptions']=['--ptxas-options=-dscm=cv']; json.dump(d, open(sys.argv[2], 'w'))" %t/space.json %t/bad-space.json
// RUN: not wgtune --space %t/bad-space.json --sample 1 2>&1 | FileCheck %s --check-prefix=T1BAD
//
// bad values: the option and what it takes
// RUN: not %wgperf predict %s --kernel reuse --grid 4096 --block 256 --arg n=1 -- -Xptxas -dlcm=l2 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not %wgperf extract %s -o %t/x.json -- -dscm=ca 2>&1 | FileCheck %s --check-prefix=BADST
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['kernels'][0]['memory'][0]['cache']='l2'; json.dump(d, open(sys.argv[2], 'w'))" %t/m.json %t/bad.json
// RUN: not %wgperf analyze %t/bad.json --kernel accesses 2>&1 | FileCheck %s --check-prefix=BADMODEL
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['kernels'][0]['launch_attributes']={'global_store_cache': 'cv'}; json.dump(d, open(sys.argv[2], 'w'))" %t/m.json %t/bad2.json
// RUN: not %wgperf analyze %t/bad2.json --kernel accesses 2>&1 | FileCheck %s --check-prefix=BADATTR

// CHECK-LABEL: kernel accesses
// CHECK: mem M0 load global 4B {{.*}}base=arg:in cache=cg offset=(mul:nsw 4 {{.*}}) affine
// CHECK: mem M1 load global 4B {{.*}}base=arg:in cache=cs offset=(add:nsw 4 (mul:nsw 4 {{.*}})) affine
// CHECK: mem M2 load global 16B {{.*}}base=arg:v cache=nc offset=(mul:nsw 16 {{.*}}) affine
// CHECK: mem M3 load global 1B {{.*}}base=arg:c offset=
// CHECK: mem M4 load global 8B {{.*}}base=arg:d cache=cv offset=
// CHECK: mem M5 store global 4B {{.*}}base=arg:out cache=cs offset=
// CHECK: mem M6 store global 16B {{.*}}base=arg:o4 cache=cg offset=
// CHECK-NOT: mem M7
// a shared-memory address (32 bits): not a global access, left unmodelled and said so
// CHECK: warning: inline assembly 'ld.shared.u32 $0, [$1]' at {{.*}}cache-operators.cu:{{[0-9]+}} left unmodelled
// eviction priorities: a load's L1::no_allocate is .cg (the read-only path's too),
// L1::evict_first .cs; L2's priorities and prefetch sizes, and a store's L1 ones, change
// nothing the model follows
// the memory model's loads: acquire or relaxed at the GPU's scope, and volatile, read L2
// (.cv); a group's scope (cta) and weak ones are plain; a release store is a store
// CHECK-LABEL: kernel flags
// CHECK: mem M0 load global 4B {{.*}}base=arg:flag cache=cv offset=0
// CHECK: mem M1 load global 4B {{.*}}base=arg:flag cache=cv offset=0
// CHECK: mem M2 load global 4B {{.*}}base=arg:flag offset=0
// CHECK: mem M3 load global 4B {{.*}}base=arg:flag cache=cv offset=0
// CHECK: mem M4 load global 4B {{.*}}base=arg:flag offset=0
// CHECK: mem M5 store global 4B {{.*}}base=arg:out offset=
// CHECK-NOT: mem M6
// CHECK-LABEL: kernel priorities
// CHECK: mem M0 load global 16B {{.*}}base=arg:in cache=cg offset=
// CHECK: mem M1 load global 4B {{.*}}base=arg:x cache=cs offset=
// CHECK: mem M2 store global 16B {{.*}}base=arg:out offset=
// CHECK-NOT: inline assembly
// CHECK-LABEL: kernel reuse
// CHECK: mem M0 load global 4B {{.*}}base=arg:in offset=

// PLAIN-NOT: through L2 only
// LDCG: caches {{.*}}; 16 global loads through L2 only, not kept in L1 (.cg or .cv)
// DLCM: caches {{.*}}; 16 global loads through L2 only, not kept in L1 (-dlcm=cg)
// NOTE: note: nvcc options left out {{.*}}: -Xptxas -v
// TIMES: cg slower True True nc True
// ANALYZE: M0 {{.*}}L1 hit 0%{{.*}}[.cg by -dlcm/-dscm]
// ANALYZE: M16 {{.*}}store
// ANALYZE-NOT: [.
// ANALYZE: caches
// OPS: ['load cg', 'store wb']
// SUMMARY: caches  compiled with -dlcm=cg -dscm=cs
// REC: [('cg', 'cs')]
// T1: ['cg']
// T1PLAN: flag{{.}}-Xptxas
// T1PLAN-NEXT: flag{{.}}-v,-dlcm=cg
// T1BAD: KernelSpecification.CompilerOptions[0]: '-dscm=cv': expected one of wb, cg, cs, wt
// BADOPT: error: {{.*}}cache-operators.cu: '-dlcm=l2': expected one of ca, cg, cs, lu, cv
// BADST: error: {{.*}}cache-operators.cu: '-dscm=ca': expected one of wb, cg, cs, wt
// BADMODEL: bad.json{{.*}}access M0: 'cache' is 'l2', expected one of 'ca', 'cg', 'cs', 'lu', 'cv', 'nc'
// BADATTR: bad2.json{{.*}}'global_store_cache' is 'cv', expected one of 'wb', 'cg', 'cs', 'wt'

__global__ void accesses(float *out, const float *in, const float4 *v, const char *c, const double *d, float4 *o4,
                         unsigned *flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x, y;
  float4 w;
  int ch;
  double e;
  unsigned f;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(x) : "l"(in + i));
  asm volatile("ld.global.cs.f32 %0, [%1+4];" : "=f"(y) : "l"(in + i));
  asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(w.x), "=f"(w.y), "=f"(w.z), "=f"(w.w) : "l"(v + i));
  asm volatile("ld.global.s8 %0, [%1];" : "=r"(ch) : "l"(c + i));
  e = __ldcv(d + i);
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(f) : "r"(threadIdx.x * 4));
  float r = x + y + w.x + w.y + w.z + w.w + ch + (float)e + f;
  asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(out + i), "f"(r));
  __stcg(o4 + i, w);
}

__global__ void flags(unsigned *out, const unsigned *flag) {
  unsigned a, b, c, d, e;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(a) : "l"(flag));
  asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(b) : "l"(flag));
  asm volatile("ld.relaxed.cta.global.u32 %0, [%1];" : "=r"(c) : "l"(flag));
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(d) : "l"(flag));
  asm volatile("ld.weak.global.u32 %0, [%1];" : "=r"(e) : "l"(flag));
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(out + threadIdx.x), "r"(a + b + c + d + e));
}

__global__ void priorities(float4 *out, const float4 *in, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a, b, c, d;
  float y;
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
               : "l"(in + i));
  asm volatile("ld.global.L1::evict_first.L2::evict_last.f32 %0, [%1];" : "=f"(y) : "l"(x + i));
  asm volatile("st.global.L1::no_allocate.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(out + i), "r"(a), "r"(b), "r"(c),
               "r"(d + __float_as_uint(y)));
}

#ifndef LD
#define LD(p) (*(p))
#endif
#ifndef RESTRICT
#define RESTRICT
#endif
__global__ void reuse(float *RESTRICT out, const float *RESTRICT in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int j = 0; j < 16; j++)
    s += LD(in + i + j * 64);
  out[i] = s;
}
