#!/usr/bin/env bash
# ncu-counters.sh: nvprof-style counters of the validation kernels with Nsight Compute,
# for checking the analyzer's transactions per request, bank conflicts and DRAM traffic.
#
#   bash validation/measure/ncu-counters.sh OUTDIR
#
# Runs measure_cuda --quick under ncu, one kernel at a time (each capped by timeout),
# and writes OUTDIR/ncu-validation.csv (ncu --page raw, one row per profiled launch,
# all kernels concatenated with a `validation_kernel` first column) and OUTDIR/ncu.log.
# Clock control is off (--clock-control none): the GPU runs at the clocks it has.
set -u
OUT=${1:?usage: ncu-counters.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT" || exit 1
LOG="$OUT/ncu.log"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
if [ -z "$NCU" ] || [ ! -x "$NCU" ]; then echo "ncu-counters: error: ncu not found" | tee "$LOG"; exit 0; fi
BIN=$(mktemp -d /tmp/wgperf-ncu.XXXXXX)/measure_cuda
echo "ncu-counters: $("$NCU" --version | tail -1); building" | tee "$LOG"
timeout 150 "$NVCC" -O3 -arch=sm_90 -o "$BIN" "$HERE/measure_cuda.cu" >>"$LOG" 2>&1 || { echo "ncu-counters: build failed" | tee -a "$LOG"; exit 0; }

# Keep only the metrics this ncu knows, so one unknown name cannot sink the run.
WANT="launch__grid_size launch__block_size launch__registers_per_thread
gpu__time_duration.sum smsp__inst_executed.sum sm__warps_active.avg.pct_of_peak_sustained_active
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
sm__sass_inst_executed_op_shared_ld.sum sm__sass_inst_executed_op_shared_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__t_sector_hit_rate.pct lts__t_sector_hit_rate.pct
lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_write.sum
dram__sectors_read.sum dram__sectors_write.sum"
timeout 60 "$NCU" --query-metrics --chip gh100 > "$OUT/metrics.txt" 2>&1
KEEP=""
for m in $WANT; do
  base=${m%%.*}
  if grep -qE "^${base}[[:space:]]" "$OUT/metrics.txt"; then KEEP="$KEEP,$m"; else echo "ncu-counters: metric $base not offered; dropped" >>"$LOG"; fi
done
KEEP=${KEEP#,}
echo "ncu-counters: metrics: $KEEP" >>"$LOG"

CSV="$OUT/ncu-validation.csv"
: > "$CSV"
for k in matrix_sum_normal matrix_sum_coalesced vectorAdd dotProd matMul_gpu matMul_gpu_uncoalesced \
         matMul_gpu_sharedmem matMul_gpu_sharedmem_uncoalesced bitonic subSeqMax; do
  t0=$(date +%s)
  timeout 25 "$NCU" --clock-control none --target-processes all \
      --kernel-name regex:'^(?!wgp_spin)' --launch-count 60 --metrics "$KEEP" \
      --csv --page raw --log-file "$OUT/ncu-$k.raw" \
      "$BIN" --quick --no-fork --only "$k" -o "$OUT/quick-$k.csv" >>"$LOG" 2>&1
  rc=$?
  rows=0
  if [ -s "$OUT/ncu-$k.raw" ]; then
    # header once, then rows, each prefixed with the kernel group
    grep -E '^"' "$OUT/ncu-$k.raw" | awk -v k="$k" -v first="$( [ -s "$CSV" ] && echo 0 || echo 1 )" '
      NR == 1 { if (first == 1) print "\"validation_kernel\"," $0; next }
      NR == 2 && $0 ~ /^"",/ { next }     # units row
      { print "\"" k "\"," $0 }' >> "$CSV"
    rows=$(grep -cE '^"' "$OUT/ncu-$k.raw")
  fi
  echo "ncu-counters: $k: exit $rc, $rows csv lines, $(( $(date +%s) - t0 )) s" | tee -a "$LOG"
  rm -f "$OUT/ncu-$k.raw" "$OUT/quick-$k.csv"
done
echo "ncu-counters: $(wc -l < "$CSV") lines in $CSV" | tee -a "$LOG"
exit 0
