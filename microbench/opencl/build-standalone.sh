#!/usr/bin/env bash
# build-standalone.sh - builds wgbench-ocl and wgperf-measure (validation kernels only)
# with a plain C compiler, for machines without this project's CMake dependencies (a
# lent GPU machine has no LLVM 19 and no jansson). Needs: cc, OpenCL headers and an
# ICD loader (the system's, or the CUDA toolkit's include/CL and lib64/libOpenCL.so).
#
#   bash microbench/opencl/build-standalone.sh OUTDIR      -> OUTDIR/wgbench-ocl, OUTDIR/wgperf-measure
#
# The kernels are embedded as C arrays made with od(1), as embed.cmake does in the CMake
# build. wgperf-measure reads the validation kernels from this checkout's
# validation/kernels at run time. Exit status: 0 built, 1 failed (the log says why).
set -u
OUT=${1:?usage: build-standalone.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
CC=${CC:-cc}
CUDA=${CUDA_HOME:-/usr/local/cuda}

inc=()
if [ ! -f /usr/include/CL/cl.h ]; then
  for d in "$CUDA/include" "$CUDA/targets/x86_64-linux/include"; do
    [ -f "$d/CL/cl.h" ] && { inc=(-I"$d"); break; }
  done
  [ ${#inc[@]} = 0 ] && { echo "build-standalone: no CL/cl.h (install OpenCL headers or a CUDA toolkit)"; exit 1; }
fi
# the ICD loader: the system's, else the CUDA toolkit's (linked by path when only the
# versioned file exists)
ocl=(-lOpenCL)
if ! ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so'; then
  ocl=()
  for d in "$CUDA/lib64" "$CUDA/targets/x86_64-linux/lib"; do
    if [ -e "$d/libOpenCL.so" ]; then
      ocl=(-L"$d" -Wl,-rpath,"$d" -lOpenCL)
      break
    elif [ -e "$d/libOpenCL.so.1" ]; then
      ocl=("$d/libOpenCL.so.1" -Wl,-rpath,"$d")
      break
    fi
  done
  [ ${#ocl[@]} = 0 ] && { echo "build-standalone: no libOpenCL.so (an ICD loader: ocl-icd, or the CUDA toolkit's)"; exit 1; }
fi

gen=$OUT/wgb_kernels.c
{
  echo "/* generated from microbench/opencl/kernels by build-standalone.sh: do not edit */"
  for n in chase stream arith sync clock; do
    printf 'const char wgb_src_%s[] = {' "$n"
    od -An -v -tx1 "$HERE/kernels/$n.cl" | tr -s ' \n' ' ' | sed -e 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'
    echo "0};"
  done
} >"$gen" || exit 1

common=("$HERE/wgb_ocl.c" "$HERE/bench_latency.c" "$HERE/bench_stream.c" "$HERE/bench_arith.c"
  "$HERE/bench_sync.c" "$ROOT/microbench/fit/wgb_table.c" "$ROOT/microbench/fit/wgb_fit.c" "$gen")
flags=(-std=gnu11 -O2 -Wall -I"$HERE" -I"$ROOT/microbench/fit" "${inc[@]}")
echo "build-standalone: $CC ${flags[*]} ... ${ocl[*]} -lm"
"$CC" "${flags[@]}" -o "$OUT/wgbench-ocl" "$HERE/main.c" "${common[@]}" "${ocl[@]}" -lm || exit 1
"$CC" "${flags[@]}" -I"$ROOT/tools" -I"$ROOT/common" -DWGP_MEASURE_STANDALONE -DWGPERF_SOURCE_DIR="\"$ROOT\"" \
  -o "$OUT/wgperf-measure" "$ROOT/tools/wgperf_measure.c" "$ROOT/tools/measure_validation.c" "$ROOT/tools/measure_plan.c" "$ROOT/tools/plan_file.c" "$ROOT/common/kt_source.c" "$ROOT/common/files.c" "${common[@]}" \
  "${ocl[@]}" -lpthread -lm || exit 1
echo "build-standalone: built $OUT/wgbench-ocl and $OUT/wgperf-measure"
