// Every launch input a kernel needs and was not given is named in one error
// (seven __local pointers and two scalar arguments: nine, in argument order),
// by wgperf analyze, predict and wgprune; one missing input keeps its own
// message.
// RUN: %wgperf extract %s -o %t.json > /dev/null
// RUN: not %wgperf predict %t.json --global 1024 --local 64 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: not %wgperf analyze %t.json --global 1024 --local 64 --local-mem a=256 --local-mem b=256 --local-mem c=256 --local-mem d=256 --local-mem e=256 --arg n=1 2>&1 | FileCheck %s --check-prefix=SOME
// RUN: not %wgperf predict %t.json --global 1024 --local 64 --local-mem a=256 --local-mem b=256 --local-mem c=256 --local-mem d=256 --local-mem e=256 --local-mem f=256 --local-mem g=256 --arg n=1 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %wgperf predict %t.json --global 1024 --local 64 --local-mem a=256 --local-mem b=256 --local-mem c=256 --local-mem d=256 --local-mem e=256 --local-mem f=256 --local-mem g=256 --arg n=1 --arg m=2 | FileCheck %s --check-prefix=OK
// RUN: not wgprune %t.json --global 1024 --local-arg a=4*lx 2>&1 | FileCheck %s --check-prefix=PRUNE
// RUN: not wgprune %t.json --global 1024 --local-arg a=4*lx --local-arg b=4*lx --local-arg c=4*lx --local-arg d=4*lx --local-arg e=4*lx --local-arg f=4*lx --local-arg g=4*lx --arg n=4 2>&1 | FileCheck %s --check-prefix=PRUNE1

__kernel void seven(__global float *o, __local float *a, __local float *b, __local float *c, __local float *d,
                    __local float *e, __local float *f, __local float *g, int n, int m)
{
    int l = get_local_id(0);
    a[l] = b[l] + c[l] + d[l] + e[l] + f[l] + g[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_global_id(0) < n)
        o[get_global_id(0) * m] = a[l];
}

// ALL: wgperf: error: kernel 'seven' needs 9 launch inputs that were not given: --local-mem a=BYTES, --local-mem b=BYTES, --local-mem c=BYTES, --local-mem d=BYTES, --local-mem e=BYTES, --local-mem f=BYTES, --local-mem g=BYTES, --arg n=VALUE, --arg m=VALUE (scalar arguments
// SOME: wgperf: error: kernel 'seven' needs 3 launch inputs that were not given: --local-mem f=BYTES, --local-mem g=BYTES, --arg m=VALUE (
// ONE: wgperf: error: kernel 'seven' needs a value for its argument 'm' (--arg m=VALUE)
// OK: time
// PRUNE: wgprune: error: kernel 'seven' needs 8 launch inputs that were not given: --local-arg b=EXPR, --local-arg c=EXPR, --local-arg d=EXPR, --local-arg e=EXPR, --local-arg f=EXPR, --local-arg g=EXPR, --arg n=VALUE, --arg m=VALUE (
// PRUNE1: wgprune: error: kernel 'seven' needs a value for its argument 'm' (--arg m=VALUE)
