#!/usr/bin/env bash
# build-measure-plan.sh - build measure-plan-cuda (microbench/cuda/measure_plan_cuda.c),
# the CUDA harness that times a tuning space's plan (wgtune --plan), on a machine with
# a CUDA toolkit (nvrtc.h, cuda.h, libnvrtc) and a C compiler; no LLVM or jansson.
#
#   bash microbench/cuda/build-measure-plan.sh OUTDIR      -> OUTDIR/measure-plan-cuda
#
# CUDA_HOME (default: the folder above nvcc, else /usr/local/cuda) chooses the toolkit.
# It links the driver's libcuda.so; where there is none (a machine without a GPU), the
# toolkit's stub, so that the harness builds and says at start that there is no device.
set -u
OUT=${1:?usage: bash microbench/cuda/build-measure-plan.sh OUTDIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CC=${CC:-cc}
if [ -z "${CUDA_HOME:-}" ]; then
  if command -v nvcc >/dev/null 2>&1; then
    CUDA_HOME=$(cd "$(dirname "$(command -v nvcc)")/.." && pwd)
  else
    CUDA_HOME=/usr/local/cuda
  fi
fi
[ -f "$CUDA_HOME/include/nvrtc.h" ] || { echo "build-measure-plan: no CUDA toolkit at $CUDA_HOME (nvrtc.h): set CUDA_HOME"; exit 1; }
lib=$CUDA_HOME/lib64
[ -d "$lib" ] || lib=$CUDA_HOME/lib
libs=(-L"$lib" -lnvrtc -Wl,-rpath,"$lib")
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  libs+=(-lcuda)
elif [ -f "$lib/stubs/libcuda.so" ]; then
  libs+=(-L"$lib/stubs" -lcuda)
  echo "build-measure-plan: no driver libcuda.so.1 here: linked the toolkit's stub (it runs only where a driver is)"
else
  echo "build-measure-plan: no libcuda.so (the NVIDIA driver's) and no stub in $lib/stubs"
  exit 1
fi
mkdir -p "$OUT" || exit 1
"$CC" -std=gnu11 -O2 -Wall -Wextra -I"$ROOT/tools" -I"$ROOT/common" -I"$CUDA_HOME/include" -o "$OUT/measure-plan-cuda" \
  "$ROOT/microbench/cuda/measure_plan_cuda.c" "$ROOT/tools/plan_file.c" "$ROOT/common/kt_source.c" "$ROOT/common/files.c" "${libs[@]}" -lpthread -lm || exit 1
echo "build-measure-plan: built $OUT/measure-plan-cuda ($CUDA_HOME)"
