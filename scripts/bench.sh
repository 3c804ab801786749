#!/usr/bin/env bash
# Speed benchmark (prints figures; not a test) over the project's kernels, at
# two global sizes each so that growth with the grid shows:
#   - ms per `wgperf predict` process: wall time, median of 5 runs, process
#     start, model and GPU loading included;
#   - ms per estimate in process (build/bin/bench_estimate): CPU time, median
#     of 5, by phase (analysis, cache analysis, simulation);
#   - one wgprune whole-space search (matrix_sum_coalesced, 5040x5040: 996
#     candidate work-group sizes), wall ms as wgprune reports it, extraction
#     of the model not included (it is extracted once, before).
# The machine is shared: wall times measure the other users too; the CPU
# times of the in-process column do much less.
#   bash scripts/bench.sh [build-dir]
set -euo pipefail
B=${1:-build}
W=$B/bin/wgperf
E=$B/bin/bench_estimate
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { local s e; s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
run() { # name model global local args...
  local name=$1 model=$2 g=$3 l=$4; shift 4
  local times=()
  for _ in 1 2 3 4 5; do times+=("$(ms "$W" predict "$model" --global "$g" --local "$l" "$@")"); done
  local inproc
  inproc=$("$E" "$model" --global "$g" --local "$l" "$@" --repeat 5 |
    sed -E 's/.*analysis +([0-9.]+) cache +([0-9.]+) simulate +([0-9.]+) estimate +([0-9.]+) ms.*/\4 (analysis \1, cache \2, simulation \3)/')
  printf '%-22s %-18s %-6s %6s ms | %s ms\n' "$name" "$g" "$l" "$(printf '%s\n' "${times[@]}" | med)" "$inproc"
}
"$W" extract examples/matmul_tiled.cl -o "$T/mm.json" > /dev/null
"$W" extract test/unit/data/trace_kernels.cl -o "$T/tk.json" -- -fno-unroll-loops > /dev/null
"$W" extract test/unit/data/mem_kernels.cl -o "$T/mk.json" -- -fno-unroll-loops > /dev/null
for k in vectorAdd dotProd matMul_gpu matMul_gpu_sharedmem matrix_sum_coalesced; do
  "$W" extract validation/kernels/$k.cu -o "$T/$k.json" -- -DTW=16 > /dev/null
done
echo "wgperf predict, $(nproc) cores shared with other users, $(date -u +%Y-%m-%d)"
printf '%-22s %-18s %-6s %9s | %s\n' kernel global local "process" "in process, CPU (median of 5)"
for n in 256 2048; do run matmul_tiled "$T/mm.json" $n,$n 16,16 --arg N=$n; done
for n in 1048576 67108864; do run vectorAdd "$T/vectorAdd.json" $n 256 --arg N=$n; done
for n in 1048576 67108864; do run dotProd "$T/dotProd.json" $n 256 --arg N=$n; done
for n in 256 2048; do run matMul_gpu "$T/matMul_gpu.json" $n,$n 16,16 --arg W=$n; done
for n in 256 2048; do run matMul_gpu_sharedmem "$T/matMul_gpu_sharedmem.json" $n,$n 16,16 --arg W=$n; done
for n in 1024 8192; do run matrix_sum_coalesced "$T/matrix_sum_coalesced.json" $n,$n 16,16 --arg W=$n; done
for n in 1024 65536; do run reduce "$T/tk.json" $n 256 --kernel reduce --local-mem scratch=1024; done
for n in 1024 65536; do run "tri (n=1000)" "$T/tk.json" $n 256 --kernel tri --arg n=1000; done
for n in 4096 1048576; do run loop_column "$T/mk.json" $n 256 --kernel loop_column --arg w=4096 --arg n=100; done
"$B/bin/wgprune" "$T/matrix_sum_coalesced.json" --global 5040,5040 --arg W=5040 --json |
  python3 -c 'import json, sys
j = json.load(sys.stdin)
print("wgprune matrix_sum_coalesced 5040x5040: %d candidates, %d after duplicates, %d after bounds, %d simulated, %.0f ms"
      % (j["candidates_total"], j["after_duplicate_pruning"], j["after_bound_pruning"], j["simulated"], j["wall_ms"]))'
