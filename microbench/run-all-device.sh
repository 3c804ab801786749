#!/usr/bin/env bash
# run-all-device.sh: everything wgperf measures on a lent GPU, in one call.
#
#   bash microbench/run-all-device.sh "$OUT"
#
# 1. microbench/run-device.sh      latencies, bandwidths, arithmetic, launch overhead
# 2. validation/measure/run-device.sh  timings of the validation kernels (amaris-nvprof CSV format)
# 3. validation/measure/ncu-counters.sh  Nsight Compute counters of the validation kernels
# Results go to $OUT/<gpu>-results.tgz (everything; <gpu> from nvidia-smi, e.g. h200)
# plus the main CSVs beside it ($OUT/microbench-<gpu>.csv, $OUT/validation-<gpu>.csv).
#
# WGP_PARTS chooses the parts: any of "cuda validation ncu" (the default, the three
# above, about 9 minutes; WGB_BUDGET_S and WGP_TOTAL_S cap the first two) or "opencl": microbench/opencl/run-device.sh alone, the OpenCL
# benchmarks and the validation kernels through OpenCL, in $OUT/<gpu>-<driver>-<date>/
# (about 9 minutes too: give it a call of its own).
set -u
OUT=${1:?usage: run-all-device.sh OUTDIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PARTS=" ${WGP_PARTS:-cuda validation ncu} "
case $PARTS in
*" opencl "*)
  bash "$ROOT/microbench/opencl/run-device.sh" "$OUT"
  exit 0
  ;;
esac
W=$(mktemp -d /tmp/wgperf-all.XXXXXX)
mkdir -p "$W/microbench" "$W/validation" "$W/ncu"
echo "run-all: $(date -u +%Y-%m-%dT%H:%M:%SZ), parts:$PARTS"
GPU=$(timeout 20 nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
  sed 's/^NVIDIA //; s/[^A-Za-z0-9]\+/-/g; s/-$//' | tr 'A-Z' 'a-z')
GPU=${GPU:-gpu}
case $PARTS in *" cuda "*)
  WGB_BUDGET_S=${WGB_BUDGET_S:-60} timeout $((${WGB_BUDGET_S:-60} + 60)) \
    bash "$ROOT/microbench/run-device.sh" "$W/microbench" > "$W/microbench/stdout.txt" 2>&1
  echo "run-all: microbenchmarks exit $?" ;;
esac
case $PARTS in *" validation "*)
  WGP_TOTAL_S=${WGP_TOTAL_S:-240} timeout $((${WGP_TOTAL_S:-240} + 20)) \
    bash "$ROOT/validation/measure/run-device.sh" "$W/validation" > "$W/validation/stdout.txt" 2>&1
  echo "run-all: validation exit $?" ;;
esac
case $PARTS in *" ncu "*)
  timeout 170 bash "$ROOT/validation/measure/ncu-counters.sh" "$W/ncu" > "$W/ncu/stdout.txt" 2>&1
  echo "run-all: ncu exit $?" ;;
esac
tar czf "$OUT/$GPU-results.tgz" -C "$W" .
cp "$W/microbench/microbench-h100.csv" "$OUT/microbench-$GPU.csv" 2>/dev/null
cp "$W/validation/validation-h100.csv" "$OUT/validation-$GPU.csv" 2>/dev/null
cp "$W/ncu/ncu-validation.csv" "$OUT/" 2>/dev/null
tail -8 "$W/ncu/stdout.txt" 2>/dev/null
tail -14 "$W/validation/stdout.txt" 2>/dev/null
tail -48 "$W/microbench/stdout.txt" 2>/dev/null
exit 0
