#!/usr/bin/env python3
"""Writes an OpenCL kernel with about 2 x N basic blocks (N data-dependent
branches, each guarding a store, so no pass folds them into selects), plus a
switch of N/4 cases.  scripts/limits.sh extracts it at -O0 and -O2.
    gen_blocks.py N > manyblocks.cl"""
import sys

n = int(sys.argv[1])
print("kernel void manyblocks(global const float *a, global float *b, int sel) {")
print("  size_t i = get_global_id(0);")
print("  float s = a[i];")
for k in range(n):
    print("  if (a[i + %d] > %d.0f) { s += a[%d]; b[i + %d] = s; }" % (k, k % 7, k, k))
print("  switch (sel) {")
for k in range(n // 4):
    print("  case %d: b[i] = s * %d.0f; break;" % (k, k))
print("  default: b[i] = s;")
print("  }")
print("}")
