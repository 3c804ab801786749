#!/usr/bin/env bash
# Records what `wgperf predict --json` and `wgperf analyze --json` answer over a
# fixed set of launches, so that a change meant only for speed can be shown to
# leave every answer as it was.
#
#   bash scripts/compare-predictions.sh record OUTDIR [build-dir]
#       runs every case with build-dir's wgperf (default build) and writes
#       OUTDIR/<case>.predict.json and OUTDIR/<case>.analyze.json
#   bash scripts/compare-predictions.sh diff BEFORE AFTER [rel-tol]
#       compares two records number by number; exit 0 when every number agrees
#       within rel-tol (default 0: identical as printed, 10 significant digits)
#       and every string is the same, 1 otherwise (each difference printed)
#
# The set: the kernels of scripts/bench.sh at their two sizes, the lit Inputs
# (saxpy, blur, scale), every validation/kernels/*.cu at two launch shapes, and
# a subset of those on A100, V100, a Kepler (GTX 680) and a Maxwell (GTX 970)
# description.  Wall time: about a minute on the loaded 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."

cmd=${1:-}
case "$cmd" in
record)
  OUT=${2:?usage: compare-predictions.sh record OUTDIR [build-dir]}
  B=${3:-build}
  W=$B/bin/wgperf
  mkdir -p "$OUT/models"
  M=$OUT/models
  # models
  "$W" extract examples/matmul_tiled.cl -o "$M/mm.json" > /dev/null
  "$W" extract test/unit/data/trace_kernels.cl -o "$M/tk.json" -- -fno-unroll-loops > /dev/null
  "$W" extract test/unit/data/mem_kernels.cl -o "$M/mk.json" -- -fno-unroll-loops > /dev/null
  "$W" extract test/lit/Inputs/cli/saxpy.cl -o "$M/saxpy.json" > /dev/null
  "$W" extract test/lit/Inputs/cli/scale.cl -o "$M/scale.json" -- -DFACTOR=3 > /dev/null
  for f in validation/kernels/*.cu; do
    k=$(basename "$f" .cu)
    "$W" extract "$f" -o "$M/$k.json" -- -DTW=16 > /dev/null
    "$W" extract "$f" -o "$M/$k.tw8.json" -- -DTW=8 > /dev/null
  done
  n=0
  one() { # case-name model args...
    local name=$1 model=$2
    shift 2
    "$W" predict "$model" "$@" --json > "$OUT/$name.predict.json" 2> "$OUT/$name.predict.err" || true
    "$W" analyze "$model" "$@" --json > "$OUT/$name.analyze.json" 2> "$OUT/$name.analyze.err" || true
    n=$((n + 1))
  }
  # bench kernels, two sizes each
  for n2 in 256 2048; do one "matmul_tiled_$n2" "$M/mm.json" --global $n2,$n2 --local 16,16 --arg N=$n2; done
  for v in 1048576 67108864; do one "vectorAdd_$v" "$M/vectorAdd.json" --global $v --local 256 --arg N=$v; done
  for v in 1048576 67108864; do one "dotProd_$v" "$M/dotProd.json" --global $v --local 256 --arg N=$v; done
  for v in 256 2048; do one "matMul_gpu_$v" "$M/matMul_gpu.json" --global $v,$v --local 16,16 --arg W=$v; done
  for v in 256 2048; do
    one "matMul_gpu_sharedmem_$v" "$M/matMul_gpu_sharedmem.json" --global $v,$v --local 16,16 --arg W=$v
  done
  for v in 1024 8192; do
    one "matrix_sum_coalesced_$v" "$M/matrix_sum_coalesced.json" --global $v,$v --local 16,16 --arg W=$v
  done
  for v in 1024 65536; do one "reduce_$v" "$M/tk.json" --kernel reduce --global $v --local 256 --local-mem scratch=1024; done
  for v in 1024 65536; do one "tri_$v" "$M/tk.json" --kernel tri --global $v --local 256 --arg n=1000; done
  for v in 4096 1048576; do
    one "loop_column_$v" "$M/mk.json" --kernel loop_column --global $v --local 256 --arg w=4096 --arg n=100
  done
  # the other kernels of the unit-test data
  one vadd "$M/tk.json" --kernel vadd --global 100000 --local 128 --arg n=99999 --nonuniform
  one gridstride "$M/tk.json" --kernel gridstride --global 8192 --local 256 --arg n=1000000
  one evenodd "$M/tk.json" --kernel evenodd --global 4096 --local 128 --arg n=50
  one spmv "$M/tk.json" --kernel spmv --global 65536 --local 128 --arg n=65536
  one column "$M/mk.json" --kernel column --global 65536 --local 256 --arg w=33
  one transpose2d "$M/mk.json" --kernel transpose2d --global 1024,512 --local 32,8 --arg w=1024 --arg h=512
  one constant_lane "$M/mk.json" --kernel constant_lane --global 65536 --local 128
  # lit Inputs
  one saxpy "$M/saxpy.json" --kernel saxpy --global 1048576 --local 256 --arg n=1048576 --arg a=2
  one saxpy_ragged "$M/saxpy.json" --kernel saxpy --global 1000000 --local 96 --arg n=999999 --arg a=2 --nonuniform
  one blur "$M/saxpy.json" --kernel blur --global 512,512 --local 16,16 --arg w=512 --local-mem tile=1024
  one blur_wide "$M/saxpy.json" --kernel blur --global 512,512 --local 64,4 --arg w=512 --local-mem tile=1024
  one scale "$M/scale.json" --kernel scale --global 65536 --local 64 --arg n=65536
  # validation kernels, two launch shapes each (TW=16 and TW=8 builds)
  val() { # gpu-suffix extra-args...
    local s=$1
    shift
    one "matMul_gpu_a$s" "$M/matMul_gpu.json" --global 512,512 --local 16,16 --arg W=512 "$@"
    one "matMul_gpu_b$s" "$M/matMul_gpu.tw8.json" --global 1024,1024 --local 8,8 --arg W=1024 "$@"
    one "matMul_gpu_uncoalesced_a$s" "$M/matMul_gpu_uncoalesced.json" --global 512,512 --local 16,16 --arg W=512 "$@"
    one "matMul_gpu_uncoalesced_b$s" "$M/matMul_gpu_uncoalesced.tw8.json" --global 256,256 --local 8,8 --arg W=256 "$@"
    one "matMul_gpu_sharedmem_a$s" "$M/matMul_gpu_sharedmem.json" --global 1024,1024 --local 16,16 --arg W=1024 "$@"
    one "matMul_gpu_sharedmem_b$s" "$M/matMul_gpu_sharedmem.tw8.json" --global 512,512 --local 8,8 --arg W=512 "$@"
    one "matMul_gpu_sharedmem_uncoalesced_a$s" "$M/matMul_gpu_sharedmem_uncoalesced.json" --global 1024,1024 \
      --local 16,16 --arg W=1024 "$@"
    one "matMul_gpu_sharedmem_uncoalesced_b$s" "$M/matMul_gpu_sharedmem_uncoalesced.tw8.json" --global 256,256 \
      --local 8,8 --arg W=256 "$@"
    one "matrix_sum_normal_a$s" "$M/matrix_sum_normal.json" --global 2048,2048 --local 16,16 --arg W=2048 "$@"
    one "matrix_sum_normal_b$s" "$M/matrix_sum_normal.json" --global 1024,1024 --local 32,8 --arg W=1024 "$@"
    one "matrix_sum_coalesced_a$s" "$M/matrix_sum_coalesced.json" --global 2048,2048 --local 8,8 --arg W=2048 "$@"
    one "matrix_sum_coalesced_b$s" "$M/matrix_sum_coalesced.json" --global 1024,1024 --local 32,32 --arg W=1024 "$@"
    one "vectorAdd_a$s" "$M/vectorAdd.json" --global 4194304 --local 256 --arg N=4194304 "$@"
    one "vectorAdd_b$s" "$M/vectorAdd.json" --global 1000000 --local 1024 --arg N=999999 --nonuniform "$@"
    one "dotProd_a$s" "$M/dotProd.json" --global 4194304 --local 256 --arg N=4194304 "$@"
    one "dotProd_b$s" "$M/dotProd.tw8.json" --global 65536 --local 64 --arg N=65536 "$@"
    one "bitonic_a$s" "$M/bitonic.json" --global 1048576 --local 128 --arg j=64 --arg k=128 --arg N=1048576 "$@"
    one "bitonic_b$s" "$M/bitonic.json" --global 65536 --local 256 --arg j=1 --arg k=2 --arg N=65536 "$@"
    one "subSeqMax_a$s" "$M/subSeqMax.json" --global 4096 --local 128 --arg unused=0 --arg n=32768 "$@"
    one "subSeqMax_b$s" "$M/subSeqMax.json" --global 4096 --local 128 --arg unused=0 --arg n=4096 "$@"
    one "quicksort_a$s" "$M/quicksort.json" --global 1 --local 1 --arg N=1024 "$@"
    one "quicksort_b$s" "$M/quicksort.json" --global 1 --local 1 --arg N=65536 "$@"
  }
  val ""
  for g in a100 v100 gtx-680 gtx-970; do val "@$g" --gpu "$g"; done
  echo "recorded $n cases in $OUT"
  ;;
diff)
  A=${2:?usage: compare-predictions.sh diff BEFORE AFTER [rel-tol]}
  Bd=${3:?usage: compare-predictions.sh diff BEFORE AFTER [rel-tol]}
  TOL=${4:-0}
  python3 - "$A" "$Bd" "$TOL" << 'EOF'
import json, math, os, sys
a_dir, b_dir, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
names = sorted(f for f in os.listdir(a_dir) if f.endswith(('.json', '.err')))
bad = worst = 0
worst_at = ''
def walk(x, y, path):
    global bad, worst, worst_at
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                print(f'{path}.{k}: only in {"before" if k in x else "after"}'); bad += 1
            else:
                walk(x[k], y[k], f'{path}.{k}')
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            print(f'{path}: {len(x)} vs {len(y)} entries'); bad += 1
        for i, (u, v) in enumerate(zip(x, y)):
            walk(u, v, f'{path}[{i}]')
    elif isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
        d = 0.0 if x == y else abs(x - y) / max(abs(x), abs(y))
        if d > worst:
            worst, worst_at = d, path
        if d > tol:
            print(f'{path}: {x!r} -> {y!r} (rel {d:.3g})'); bad += 1
    elif x != y:
        print(f'{path}: {x!r} -> {y!r}'); bad += 1
for n in names:
    pa, pb = os.path.join(a_dir, n), os.path.join(b_dir, n)
    if not os.path.exists(pb):
        print(f'{n}: missing after'); bad += 1; continue
    ta, tb = open(pa).read(), open(pb).read()
    if n.endswith('.err'):
        if ta != tb:
            print(f'{n}: stderr differs'); bad += 1
        continue
    if not ta.strip() or not tb.strip():
        if ta != tb:
            print(f'{n}: output present in only one'); bad += 1
        continue
    walk(json.loads(ta), json.loads(tb), n)
cases = len([n for n in names if n.endswith('.predict.json')])
print(f'{cases} cases, {len(names)} files: {bad} differences above rel {tol:g}; largest relative difference {worst:.3g}'
      + (f' at {worst_at}' if worst_at else ''))
sys.exit(1 if bad else 0)
EOF
  ;;
*)
  echo "usage: compare-predictions.sh record OUTDIR [build-dir] | diff BEFORE AFTER [rel-tol]" >&2
  exit 2
  ;;
esac
