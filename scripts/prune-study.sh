#!/usr/bin/env bash
# The pruned work-group size search against the exhaustive one over the
# project's kernels (validation/kernels, examples/, test/lit/Inputs/cli),
# one `wgprune --study` per kernel: candidates, after stage 1 (duplicated
# traces), after stage 2 (bounds), pruned %, the best size of each search,
# whether they match (or tie: another size predicted exactly as fast), the
# pruned choice's predicted time over the exhaustive best's, and the wall ms
# of each search.  Then the totals: how often the best sizes differ, and the
# mean pruning.
#
#   bash scripts/prune-study.sh [build-dir] [--quick] [--gpu NAME]
#
# --quick uses smaller global sizes (what ctest runs: test prune.study);
# exit status 1 when a pruned search's best is predicted slower than the
# exhaustive search's best, 0 otherwise.  quicksort is left out: its launch
# is one work-item, there is no size to choose.
set -euo pipefail
cd "$(dirname "$0")/.."
B=build
QUICK=0
GPU=h100-sxm
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) QUICK=1 ;;
  --gpu) GPU=$2; shift ;;
  *) B=$1 ;;
  esac
  shift
done
W=$B/bin/wgperf
P=$B/bin/wgprune
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ext() { # model-name source [clang flags]
  local name=$1 src=$2
  shift 2
  "$W" extract "$src" -o "$T/$name.json" ${1+-- "$@"} > /dev/null 2> "$T/$name.extract.err" ||
    { cat "$T/$name.extract.err" >&2; exit 1; }
}
if [ $QUICK = 1 ]; then
  M2=256 S2=512 V=262144 R=65536 BI=65536 L=256
else
  M2=1024 S2=2048 V=4194304 R=1048576 BI=1048576 L=512
fi
for k in matMul_gpu matMul_gpu_uncoalesced matMul_gpu_sharedmem matMul_gpu_sharedmem_uncoalesced \
  matrix_sum_normal matrix_sum_coalesced vectorAdd dotProd subSeqMax bitonic; do
  ext "$k" "validation/kernels/$k.cu" -DTW=16
done
ext matmul_tiled examples/matmul_tiled.cl
ext vadd examples/vadd.cu
ext saxpy test/lit/Inputs/cli/saxpy.cl
ext scale test/lit/Inputs/cli/scale.cl -DFACTOR=3
rows=$T/rows.jsonl
: > "$rows"
one() { # model args...
  local model=$1
  shift
  "$P" "$T/$model.json" --gpu "$GPU" "$@" --study --json >> "$rows"
}
one matMul_gpu --global $M2,$M2 --arg W=$M2
one matMul_gpu_uncoalesced --global $M2,$M2 --arg W=$M2
one matMul_gpu_sharedmem --global $M2,$M2 --arg W=$M2
one matMul_gpu_sharedmem_uncoalesced --global $M2,$M2 --arg W=$M2
one matrix_sum_normal --global $S2,$S2 --arg W=$S2
one matrix_sum_coalesced --global $S2,$S2 --arg W=$S2
one vectorAdd --global $V --arg N=$V
one dotProd --global $V --arg N=$V
one subSeqMax --global 4096 --arg unused=0 --arg n=$((V / 32))
one bitonic --global $BI --arg j=64 --arg k=128 --arg N=$BI
one matmul_tiled --global $M2,$M2 --arg N=$M2
one vadd --global $V --arg n=$V
one saxpy --kernel saxpy --global $R --arg n=$R --arg a=2
one saxpy --kernel blur --global $L,$L --arg w=$L --local-arg tile=4*lx*ly
one scale --global $R --arg n=$R
python3 - "$rows" "$GPU" << 'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"wgprune --study on {sys.argv[2]} ({rows[0]['gpu']})")
print(f"{'kernel':34} {'sizes':>6} {'stage1':>6} {'stage2':>6} {'pruned':>7}  {'best':>10} {'exhaustive':>10} "
      f"{'match':>5} {'ratio':>7} {'ms':>7} {'exh ms':>7}")
bad = 0
for r in rows:
    m = 'yes' if r['best_pruned'] == r['best_exhaustive'] else 'tie' if r['match'] else 'NO'
    bad += m == 'NO'
    why = '' if r['match'] else '  (exhaustive best dropped by ' + r['exhaustive_best_dropped_by'] + ')'
    print(f"{r['kernel']:34} {r['candidates_valid']:>6} {r['after_duplicate_pruning']:>6} {r['after_bound_pruning']:>6} "
          f"{r['pruned_percent']:>6.1f}%  {r['best_pruned']:>10} {r['best_exhaustive']:>10} {m:>5} "
          f"{r['time_ratio']:>7.4f} {r['pruned_wall_ms']:>7.0f} {r['exhaustive_wall_ms']:>7.0f}{why}")
n = len(rows)
pr = sum(r['pruned_wall_ms'] for r in rows)
ex = sum(r['exhaustive_wall_ms'] for r in rows)
print(f"{n} kernels: best size differs in {bad} ({sum(r['best_pruned'] != r['best_exhaustive'] for r in rows) - bad} ties); "
      f"mean pruned {sum(r['pruned_percent'] for r in rows) / n:.1f}% of the sizes that can run "
      f"(stage 1 alone {sum(100 * (1 - r['after_duplicate_pruning'] / r['candidates_valid']) for r in rows) / n:.1f}%); "
      f"pruned search {pr:.0f} ms = {100 * pr / ex:.0f}% of the exhaustive {ex:.0f} ms (wall)")
sys.exit(1 if bad else 0)
EOF
