// Branches that read alike (one source line, the same outcome: a branch the
// compiler unrolled into several blocks) share one fallback line in the
// text reports, naming every block, where each had a line of its own; the
// JSON keeps one entry per branch.  A hinted branch is no longer alike.
// RUN: %wgperf extract %s -o %t.json 2> /dev/null > /dev/null
// RUN: %wgperf predict %t.json --global 1024 --local 128 | FileCheck %s
// RUN: %wgperf analyze %t.json --global 1024 --local 128 | FileCheck %s --check-prefix=ANALYZE
// RUN: %wgperf predict %t.json --global 1024 --local 128 --json | FileCheck %s --check-prefix=JSON
// RUN: %wgperf predict %t.json --global 1024 --local 128 --json > %t.pred.json
// RUN: python3 -c "import json,sys; f=json.load(open(sys.argv[1]))['fallbacks']; b=[x['where'] for x in f]; print(len(b), 'separate'); print(' '.join(b))" %t.pred.json > %t.blocks
// RUN: FileCheck %s --check-prefix=COUNT < %t.blocks
// RUN: sh -c '%wgperf predict %t.json --global 1024 --local 128 --taken $(sed -n 2p %t.blocks | cut -d" " -f1)=0.5' | FileCheck %s --check-prefix=HINT

__kernel void alike(__global const float *in, __global float *out) {
  int i = get_global_id(0);
  #pragma unroll
  for (int r = 0; r < 4; r++) {
    float v = in[4 * i + r];
    if (v > 0.0f)
      out[4 * i + r] = v * 2.0f;
  }
}

// CHECK:     fallback    4 branches at {{.*}}fallbacks-grouped.cl:19 (B{{[0-9]+}}, B{{[0-9]+}}, B{{[0-9]+}}, B{{[0-9]+}}): branch on a value known only at run time, both paths taken (hint: --taken B{{[0-9]+}}=FRACTION, one for each)
// CHECK-NOT: fallback
// ANALYZE:   fallback 4 branches at {{.*}}fallbacks-grouped.cl:19 (B{{[0-9]+}}, B{{[0-9]+}}, B{{[0-9]+}}, B{{[0-9]+}}): branch on a value known only at run time, both paths taken
// JSON-COUNT-4: "kind": "data-dependent-branch",
// COUNT:     4 separate
// HINT:      fallback    B{{[0-9]+}} at {{.*}}fallbacks-grouped.cl:19: branch on a value known only at run time, taken with the --taken fraction
// HINT-NEXT: fallback    3 branches at {{.*}}fallbacks-grouped.cl:19 (B{{[0-9]+}}, B{{[0-9]+}}, B{{[0-9]+}}): branch on a value known only at run time, both paths taken (hint: --taken B{{[0-9]+}}=FRACTION, one for each)
