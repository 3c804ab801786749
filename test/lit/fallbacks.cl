// The report lists every fallback the launch executes: a branch on a loaded
// value, a loop whose count is loaded, a branch on a floating-point
// argument, an unresolved call; with its place, what was assumed and the
// hint that replaces it.  Unexecuted code lists nothing.  (-O0: no
// unrolling, so one loop; unit test test_analyze covers conditions that
// cannot be computed for other reasons.)
// RUN: %wgperf extract %s -O0 -o %t.json 2> /dev/null > /dev/null
// RUN: %wgperf analyze %t.json --kernel fb --global 1024 --local 128 --arg n=1024 --arg s=0.5 | FileCheck %s
// RUN: %wgperf predict %t.json --kernel fb --global 1024 --local 128 --arg n=1024 --arg s=0.5 | FileCheck %s --check-prefix=PRED
// RUN: %wgperf predict %t.json --kernel fb --global 1024 --local 128 --arg n=1024 --arg s=0.5 --json | FileCheck %s --check-prefix=JSON
// RUN: %wgperf predict %t.json --kernel fb --global 1024 --local 128 --arg n=1024 --arg s=0.5 --trip L0=8 --taken B0=0.25 | FileCheck %s --check-prefix=HINT
// RUN: %wgperf predict %t.json --kernel clean --global 1024 --local 128 --arg n=0 | FileCheck %s --check-prefix=NONE

float external_scale(float x);

__kernel void fb(__global const int *rowptr, __global float *y, int n, float s) {
  int i = get_global_id(0);
  float acc = 0.0f;
  if (rowptr[i] > 7)
    y[i] = 1.0f;
  for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
    acc += y[j];
  if (s > 0.25f)
    acc = external_scale(acc);
  y[i] = acc;
}

// a call in code this launch never reaches (n = 0) is not a fallback
__kernel void clean(__global float *y, int n) {
  int i = get_global_id(0);
  if (i < n)
    y[i] = external_scale(y[i]);
}

// CHECK:     fallback B0 at {{.*}}fallbacks.cl:19: branch on a value known only at run time, both paths taken (hint: --taken B0=FRACTION)
// CHECK:     fallback L0 at {{.*}}fallbacks.cl:21: loop count needs values known only at run time, ran 1 iteration per entry (hint: --trip L0=COUNT)
// CHECK:     fallback B{{[0-9]+}} at {{.*}}fallbacks.cl:23: branch on a value known only at run time, both paths taken (hint: --taken B{{[0-9]+}}=FRACTION)
// CHECK:     fallback call to 'external_scale' at {{.*}}fallbacks.cl:24: left unresolved (unknown external function): counted as one instruction, its cost is not modelled
// CHECK-NOT: assumed data-dependent

// PRED:      fallback    B0 at {{.*}}fallbacks.cl:19: branch
// PRED:      fallback    call to 'external_scale'

// JSON:      "fallbacks": [
// JSON:        "kind": "data-dependent-branch",
// JSON-NEXT:   "where": "B{{[0-9]+}}",
// JSON-NEXT:   "source": "{{.*}}fallbacks.cl:19",
// JSON:        "kind": "data-dependent-loop",
// JSON-NEXT:   "where": "L0",
// JSON:        "hint": "--trip L0=COUNT",
// JSON-NEXT:   "hinted": false
// JSON:        "kind": "data-dependent-branch",
// JSON:        "kind": "unresolved-call",
// JSON-NEXT:   "where": "call to 'external_scale'",

// HINT:      fallback    B0 at {{.*}}: branch on a value known only at run time, taken with the --taken fraction
// HINT:      fallback    L0 at {{.*}}: loop count needs values known only at run time, ran the --trip count

// NONE-NOT:  {{^}}fallback
