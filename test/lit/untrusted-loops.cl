// Loop counts nobody gave are said beside the time, never a silent
// answer of days.
//  - wrap: an exit that is never reached (an odd index stepping by 2 never
//    meets 0): the loop is cut after 1024 iterations of an entry, an
//    unended-loop fallback, and the time is marked UNTRUSTED with the
//    --trip hint (text and --json); with the hint it is trusted.
//  - window: a loop bounded by a value reloaded from __local memory in
//    every iteration (at -O0): SCEV's bound for it is only the int's range
//    (2147483645 from 3), which the model no longer takes as a bound: it
//    runs one iteration per entry, flagged as a data-dependent loop (it ran
//    that bound before: 5e11 us for Rodinia's dwt2d pattern).
//  - merge: a loop that leaves by a `break` in the last arm of an if-else
//    chain on loaded values (at -O0): in the last iteration of its forced
//    count the lanes take only the ways that can still leave, so it ends
//    after one iteration as at -O2 (it ran to the cap before, 250x slower).
// RUN: %wgperf extract %s -O0 -o %t.json > /dev/null
// RUN: %wgperf predict %t.json --kernel wrap --global 4096 --local 64 | FileCheck %s --check-prefix=WRAP
// RUN: %wgperf predict %t.json --kernel wrap --global 4096 --local 64 --json | FileCheck %s --check-prefix=WRAPJ
// RUN: %wgperf predict %t.json --kernel wrap --global 4096 --local 64 --trip L0=10 | FileCheck %s --check-prefix=HINT
// RUN: %wgperf analyze %t.json --kernel wrap --global 4096 --local 64 | FileCheck %s --check-prefix=WRAPA
// RUN: %wgperf show %t.json --kernel window --print | FileCheck %s --check-prefix=BOUND
// RUN: %wgperf predict %t.json --kernel window --global 4096 --local 64 --arg n=16 | FileCheck %s --check-prefix=WINDOW
// RUN: %wgperf predict %t.json --kernel merge --global 4096 --local 64 --arg run=16 | FileCheck %s --check-prefix=MERGE

__kernel void wrap(__global float *a)
{
    int i = get_global_id(0);
    for (unsigned j = 2 * i + 1; j != 0u; j += 2)
        a[i] += 1.0f;
}

__kernel void window(__global const int *in, __global int *out, int n)
{
    __local int size[1];
    size[0] = n;
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int i = 3; i < 3 + size[0]; i++)
        s += in[get_global_id(0) * 16 + i];
    out[get_global_id(0)] = s;
}

__kernel void merge(__global const float *in, __global float *out, int run)
{
    int a0 = get_global_id(0) * run, b0 = a0 + run / 2, ai = 0, bi = 0, o = 0;
    for (;;) {
        float x = in[a0 + ai], y = in[b0 + bi];
        out[a0 + o++] = x < y ? x : y;
        bool more_a = ai + 1 < run / 2, more_b = bi + 1 < run / 2;
        if (more_a && more_b) {
            if (x < y)
                ai++;
            else
                bi++;
        } else if (more_a) {
            ai++;
        } else if (more_b) {
            bi++;
        } else {
            break;
        }
    }
}

// WRAP: time {{.*}}; UNTRUSTED: it rests on a loop count nobody gave (below)
// WRAP-NEXT: untrusted   the time rests on L0 at {{.*}}untrusted-loops.cl:{{[0-9]+}} ({{[0-9.]+}}% of the instructions): its exit was never reached: cut after 1024 iterations of an entry {{.*}}; --trip L0=COUNT settles it
// WRAP: fallback    L0 at {{.*}}: its exit was never reached{{.*}} (hint: --trip L0=COUNT)
// WRAPJ: "kind": "unended-loop",
// WRAPJ: "trusted": false,
// WRAPJ-NEXT: "untrusted": [
// WRAPJ: "hint": "--trip L0=COUNT"
// HINT: time
// HINT-NOT: UNTRUSTED
// WRAPA: UNTRUSTED the time rests on L0
// BOUND: kernel window
// BOUND-NOT: 2147483645
// WINDOW-NOT: UNTRUSTED
// WINDOW: fallback    L0 at {{.*}}: loop count needs values known only at run time, ran 1 iteration per entry (hint: --trip L0=COUNT)
// MERGE-NOT: UNTRUSTED
// MERGE-NOT: did not end
// MERGE: fallback    L0 at {{.*}}: loop count {{.*}}, ran 1 iteration per entry
