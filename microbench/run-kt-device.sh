#!/usr/bin/env bash
# run-kt-device.sh - time the Kernel Tuner spaces' plans on a lent NVIDIA GPU, in one call:
#
#   bash microbench/run-kt-device.sh OUTDIR
#
# The plans are microbench/kt-plans/*.tsv (made here by wgtune --plan: the 500-configuration
# samples, seed 1, that docs/accuracy.md ranks). A CUDA plan (the convolution) is timed by
# measure-plan-cuda (NVRTC cubins for the GPU's own architecture, compiled on the machine's
# cores ahead of the timing; CUDA events), an OpenCL plan (CLBlast's gemm) by the standalone
# wgperf-measure --plan through the NVIDIA OpenCL driver. Each writes a Kernel Tuner cache
# file, rewritten after every configuration, into OUTDIR/<gpu>-<driver>-<date>/ beside
# env.txt (GPU, driver, clocks and power limit before and after) and the logs; compare here
# with, e.g.:
#   build/bin/wgperf-validate --kernel-tuner OUTDIR/<tag>/convolution-500-seed1.json \
#       --space ../shared/data/kernel-tuner/kernels/convolution.json \
#       ../shared/data/kernel-tuner/kernels/convolution.cu --sample 500 --seed 1 --gpu h200
#
# The kernels are third-party inputs the repository does not hold: the script looks for
# kernel-tuner/kernels in $WGP_KT_KERNELS, shared/data/kernel-tuner/kernels (a checkout with
# shared/ inside) and ../shared/data/kernel-tuner/kernels, and stops if none has them.
# WGP_KT_BUDGET_S (default 480) caps the whole run; each plan gets its share (the CUDA one
# first), and a plan stopped by its budget keeps every configuration it finished. It never
# changes clocks, power limits or persistence mode, and exits 0 even when a part fails (the
# logs say which). WGP_KT_PLANS chooses plans by name (default: all of microbench/kt-plans).
set -u
OUT=${1:?usage: bash microbench/run-kt-device.sh OUTDIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUDGET=${WGP_KT_BUDGET_S:-480}
T0=$(date +%s)
elapsed() { echo $(($(date +%s) - T0)); }
W=$(mktemp -d /tmp/wgperf-kt.XXXXXX)

kt=
for d in "${WGP_KT_KERNELS:-}" "$ROOT/shared/data/kernel-tuner/kernels" "$ROOT/../shared/data/kernel-tuner/kernels"; do
  [ -n "$d" ] && [ -f "$d/convolution.cu" ] && [ -f "$d/gemm/xgemm_part3.opencl" ] && { kt=$(cd "$d" && pwd); break; }
done
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
  echo "cpus: $(nproc)"
  echo "kernels: ${kt:-not found}"
} >"$D/env.txt"
if [ -z "$(q name)" ] && [ "${WGP_KT_ALLOW_NO_GPU:-0}" != 1 ]; then
  echo "run-kt-device: ERROR: no NVIDIA GPU (nvidia-smi names none): nothing timed (WGP_KT_ALLOW_NO_GPU=1 runs anyway)"
  exit 0
fi
if [ -z "$kt" ]; then
  echo "run-kt-device: ERROR: no Kernel Tuner kernels (set WGP_KT_KERNELS to .../kernel-tuner/kernels)"
  cat "$D/env.txt"
  exit 0
fi

echo "run-kt-device: building into $W/bin"
{
  bash "$ROOT/microbench/cuda/build-measure-plan.sh" "$W/bin"
  bash "$ROOT/microbench/opencl/build-standalone.sh" "$W/bin"
} >"$D/build.log" 2>&1
tail -2 "$D/build.log"
# the NVIDIA OpenCL driver where no ICD is registered (as microbench/opencl/run-device.sh)
if [ -x "$W/bin/wgbench-ocl" ] && ! "$W/bin/wgbench-ocl" --list 2>/dev/null | grep -q -- '--platform'; then
  lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ { print $NF; exit }')
  for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib; do
    [ -z "$lib" ] && [ -e "$d/libnvidia-opencl.so.1" ] && lib=$d/libnvidia-opencl.so.1
  done
  if [ -n "$lib" ]; then
    mkdir -p "$W/icd" && echo "$lib" >"$W/icd/nvidia.icd"
    export OCL_ICD_VENDORS=$W/icd OCL_ICD_FILENAMES=$lib
    echo "icd: no platform registered; using $lib" >>"$D/env.txt"
  fi
fi

plans=()
for p in "$ROOT"/microbench/kt-plans/*.tsv; do
  name=$(basename "$p" .tsv)
  if [ -n "${WGP_KT_PLANS:-}" ] && ! [[ " $WGP_KT_PLANS " == *" $name "* ]]; then
    continue
  fi
  plans+=("$p")
done
n=${#plans[@]}
i=0
for p in "${plans[@]}"; do
  name=$(basename "$p" .tsv)
  lang=$(awk -F'\t' '$1 == "language" { print $2; exit }' "$p")
  left=$((BUDGET - $(elapsed) - 15))
  share=$((left / (n - i)))
  i=$((i + 1))
  if [ "$share" -lt 30 ]; then
    echo "run-kt-device: no time left for $name"
    continue
  fi
  dir=$kt
  [ "$lang" = opencl ] && dir=$kt/gemm
  echo "run-kt-device: $name ($lang, limit $share s; $(elapsed) s elapsed)"
  if [ "$lang" = cuda ]; then
    timeout -k 5 "$share" "$W/bin/measure-plan-cuda" "$p" -o "$D/$name.json" --kernel-dir "$dir" \
      --budget-s $((share - 20)) 2>"$D/$name.log"
  else
    timeout -k 5 "$share" "$W/bin/wgperf-measure" --plan "$p" -o "$D/$name.json" --kernel-dir "$dir" \
      --budget-s $((share - 20)) 2>"$D/$name.log"
  fi
  echo "run-kt-device: $name exit $? after $(elapsed) s: $(tail -1 "$D/$name.log")"
done
{
  echo "clocks after (sm, max sm, mem): $(q clocks.sm,clocks.max.sm,clocks.mem)"
  echo "throttle reasons after: $(q clocks_throttle_reasons.active)"
} >>"$D/env.txt"
echo "==== $D"
cat "$D/env.txt"
for f in "$D"/*.json; do
  [ -e "$f" ] && echo "$(basename "$f"): $(grep -o '"measured": [0-9]*' "$f") of $(grep -o '"planned": [0-9]*' "$f")"
done
exit 0
