// A branch on a floating-point argument against a whole-number constant
// (BLAS's `if (beta == 0)`) takes the path the launch's value chooses when
// that value is a whole number a float holds exactly: no fallback, and the
// time of the path taken (beta = 0 does not read y, any other beta does: fewer bytes through L2).  A
// fraction, or a whole number beyond 2^24, leaves the branch unknown: both
// paths, with the hint.  A typedef'd float argument (CLBlast's real_arg)
// takes a fractional value.
// RUN: %wgperf extract %s -o %t.json 2> /dev/null > /dev/null
// RUN: FileCheck %s --check-prefix=MODEL < %t.json
// RUN: %wgperf predict %t.json --global 1048576 --local 256 --arg alpha=2 --arg beta=0 --json > %t.zero.json
// RUN: %wgperf predict %t.json --global 1048576 --local 256 --arg alpha=2 --arg beta=1 --json > %t.one.json
// RUN: python3 -c "import json,sys; z,o=(json.load(open(f)) for f in sys.argv[1:]); print('fallbacks', len(z['fallbacks']), len(o['fallbacks'])); print('beta=0 reads less:', z['breakdown']['l2_bytes'] < o['breakdown']['l2_bytes'])" %t.zero.json %t.one.json | FileCheck %s --check-prefix=PATHS
// RUN: %wgperf predict %t.json --global 1048576 --local 256 --arg alpha=2 --arg beta=0.5 | FileCheck %s --check-prefix=FRACTION
// RUN: %wgperf predict %t.json --global 1048576 --local 256 --arg alpha=2 --arg beta=33554432 | FileCheck %s --check-prefix=FRACTION

typedef float real_arg;

__kernel void axpby(__global const float *x, __global float *y, const real_arg alpha, const real_arg beta) {
  int i = get_global_id(0);
  if (beta == 0.0f)
    y[i] = alpha * x[i];
  else
    y[i] = alpha * x[i] + beta * y[i];
}

// MODEL:     "name": "beta",
// MODEL-NEXT: "type": "real_arg",
// MODEL:     "floating": true
// MODEL:     "cond": "(foeq arg.beta (sitofp 0))"
// PATHS:     fallbacks 0 0
// PATHS-NEXT: beta=0 reads less: True
// FRACTION:  fallback    B{{[0-9]+}} at {{.*}}float-arg-branch.cl:20: branch on a value known only at run time, both paths taken
