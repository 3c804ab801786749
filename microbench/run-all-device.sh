#!/usr/bin/env bash
# run-all-device.sh: everything wgperf measures on a lent GPU, in one call.
#
#   bash microbench/run-all-device.sh "$OUT"
#
# 1. microbench/run-device.sh      latencies, bandwidths, arithmetic, launch overhead
# 2. validation/measure/run-device.sh  timings of the validation kernels (amaris-nvprof CSV format)
# 3. validation/measure/ncu-counters.sh  Nsight Compute counters of the validation kernels
# Results go to $OUT/h100-results.tgz (everything) plus the main CSVs beside it.
#
# WGP_PARTS chooses the parts: "cuda validation ncu" (the default, the three above,
# about 9 minutes) or "opencl": microbench/opencl/run-device.sh alone, the OpenCL
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
echo "run-all: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
WGB_BUDGET_S=60 timeout 120 bash "$ROOT/microbench/run-device.sh" "$W/microbench" > "$W/microbench/stdout.txt" 2>&1
echo "run-all: microbenchmarks exit $?"
WGP_TOTAL_S=240 timeout 260 bash "$ROOT/validation/measure/run-device.sh" "$W/validation" > "$W/validation/stdout.txt" 2>&1
echo "run-all: validation exit $?"
timeout 170 bash "$ROOT/validation/measure/ncu-counters.sh" "$W/ncu" > "$W/ncu/stdout.txt" 2>&1
echo "run-all: ncu exit $?"
tar czf "$OUT/h100-results.tgz" -C "$W" .
cp "$W/microbench/microbench-h100.csv" "$W/validation/validation-h100.csv" "$W/ncu/ncu-validation.csv" "$OUT/" 2>/dev/null
tail -8 "$W/ncu/stdout.txt"
tail -14 "$W/validation/stdout.txt"
tail -48 "$W/microbench/stdout.txt"
exit 0
