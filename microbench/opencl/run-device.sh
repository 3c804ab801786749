#!/usr/bin/env bash
# run-device.sh (OpenCL) - everything the OpenCL side measures, on a lent GPU machine,
# in one call:
#
#   bash microbench/opencl/run-device.sh OUTDIR
#   (or: WGP_PARTS=opencl bash microbench/run-all-device.sh OUTDIR)
#
# 1. builds wgbench-ocl and wgperf-measure with a plain C compiler (build-standalone.sh:
#    the machine has no LLVM 19 or jansson);
# 2. points the ICD loader at the NVIDIA driver's OpenCL library when no platform is
#    registered (containers often lack /etc/OpenCL/vendors/nvidia.icd);
# 3. runs the whole benchmark set (wgbench-ocl, full sizes) and the validation kernels
#    (wgperf-measure, all 461 configurations within the time left);
# 4. leaves everything in OUTDIR/<gpu>-<driver>-<date>/: env.txt (GPU, driver, clocks
#    before and after, OpenCL platforms), build.log, wgbench-ocl.csv and .log,
#    validation-opencl.csv, validation-opencl-skipped.csv, measure.log.
# Fit the results afterwards, on a machine with the full build:
#   build/bin/wgperf-calibrate --from-csv OUTDIR/<tag>/wgbench-ocl.csv -o my-gpu.json
# It never changes clocks, power limits or persistence mode, and exits 0 even when a
# part fails (the logs say which). WGP_OCL_BUDGET_S (default 540) caps the run;
# WGP_OCL_QUICK=1 runs --quick sizes (a check of the script itself).
set -u
OUT=${1:?usage: bash microbench/opencl/run-device.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
BUDGET=${WGP_OCL_BUDGET_S:-540}
QUICK=${WGP_OCL_QUICK:-0}
T0=$(date +%s)
elapsed() { echo $(($(date +%s) - T0)); }
W=$(mktemp -d /tmp/wgperf-ocl.XXXXXX)

q() { timeout 30 nvidia-smi --query-gpu="$1" --format=csv,noheader 2>/dev/null | head -1; }
gpu=$(q name)
driver=$(q driver_version)
[ -n "$gpu" ] || gpu=$(uname -n)
[ -n "$driver" ] || driver=nodriver
tag=$(printf '%s-%s-%s' "$gpu" "$driver" "$(date -u +%Y%m%d)" | tr -c 'A-Za-z0-9._-' '-' | tr -s '-')
D=$OUT/$tag
mkdir -p "$D" || exit 0
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $gpu"
  echo "driver: $driver"
  echo "clocks before (sm, max sm, mem): $(q clocks.sm,clocks.max.sm,clocks.mem)"
  echo "power limit, temperature: $(q power.limit,temperature.gpu)"
} >"$D/env.txt"

echo "run-device (OpenCL): building into $W/bin"
if ! bash "$HERE/build-standalone.sh" "$W/bin" >"$D/build.log" 2>&1; then
  echo "run-device (OpenCL): ERROR: build failed:"
  tail -20 "$D/build.log"
  exit 0
fi
if ! "$W/bin/wgbench-ocl" --list | grep -q -- '--platform'; then
  lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ { print $NF; exit }')
  for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib; do
    [ -z "$lib" ] && [ -e "$d/libnvidia-opencl.so.1" ] && lib=$d/libnvidia-opencl.so.1
  done
  if [ -n "$lib" ]; then
    mkdir -p "$W/icd" && echo "$lib" >"$W/icd/nvidia.icd"
    export OCL_ICD_VENDORS=$W/icd OCL_ICD_FILENAMES=$lib
    echo "icd: no platform registered; using $lib" >>"$D/env.txt"
  else
    echo "icd: no platform registered and no libnvidia-opencl.so.1 found" >>"$D/env.txt"
  fi
fi
{
  echo "OpenCL devices:"
  "$W/bin/wgbench-ocl" --list | grep -- '--platform'
} >>"$D/env.txt" 2>&1

quick=()
[ "$QUICK" = 1 ] && quick=(--quick)
lim=$((BUDGET * 2 / 5))
echo "run-device (OpenCL): benchmarks (limit $lim s; $(elapsed) s elapsed)"
timeout -k 5 "$lim" "$W/bin/wgbench-ocl" "${quick[@]}" --timeout $((lim > 60 ? lim - 30 : lim)) \
  -o "$D/wgbench-ocl.csv" 2>"$D/wgbench-ocl.log"
echo "run-device (OpenCL): wgbench-ocl exit $? after $(elapsed) s"

left=$((BUDGET - $(elapsed) - 20))
if [ "$left" -gt 20 ]; then
  echo "run-device (OpenCL): validation kernels (limit $left s)"
  timeout -k 5 "$left" "$W/bin/wgperf-measure" "${quick[@]}" --budget-s $((left - 15)) \
    -o "$D/validation-opencl.csv" 2>"$D/measure.log"
  echo "run-device (OpenCL): wgperf-measure exit $? after $(elapsed) s"
else
  echo "run-device (OpenCL): no time left for the validation kernels"
fi
echo "clocks after (sm, max sm, mem): $(q clocks.sm,clocks.max.sm,clocks.mem)" >>"$D/env.txt"
echo "throttle reasons after: $(q clocks_throttle_reasons.active)" >>"$D/env.txt"

# summary (last on stdout)
echo "==== $D"
cat "$D/env.txt"
if [ -s "$D/wgbench-ocl.csv" ]; then
  echo "wgbench-ocl: $(grep -c ',ok,' "$D/wgbench-ocl.csv") ok rows, $(grep -c ',error,' "$D/wgbench-ocl.csv") error rows"
  grep ',error,' "$D/wgbench-ocl.csv" | head -10
  grep -E '^(clock_measured|clock_attr|lat_shared|lat_l1|lat_l2|lat_dram|lat_const|geom_jump|geom_l1_fetch|bw_dram_read|bw_l2_read|bw_shared,|launch_throughput)' \
    "$D/wgbench-ocl.csv" | cut -d, -f1-5 | head -24
  tail -3 "$D/wgbench-ocl.log"
fi
if [ -s "$D/validation-opencl.csv" ]; then
  echo "wgperf-measure: $(($(wc -l <"$D/validation-opencl.csv") - 1)) rows; $(grep -c verification_failed "$D/validation-opencl.csv") failed"
  tail -3 "$D/measure.log"
fi
echo "fit with: build/bin/wgperf-calibrate --from-csv $D/wgbench-ocl.csv -o my-gpu.json"
exit 0
