#!/usr/bin/env bash
# ctest cuda.measure_plan_compile: the CUDA harness of tuning-space plans
# (microbench/cuda/measure_plan_cuda.c) where a CUDA toolkit is, without a GPU: it
# builds (microbench/cuda/build-measure-plan.sh), compiles every configuration of a
# small CUDA space's plan with NVRTC (--compile-only; the configurations whose 64 KiB
# of static shared memory ptxas refuses are CompilationFailedConfig, the others
# compile), and refuses an OpenCL plan, a bad plan and, without a driver, the run
# itself with a clear message. Exits 77 (ctest: skipped) without a CUDA toolkit.
#   measure-plan-compile.sh BIN_DIR SOURCE_DIR WORK_DIR
set -u
bin=${1:?usage: measure-plan-compile.sh BIN_DIR SOURCE_DIR WORK_DIR}
src=${2:?usage}
work=${3:?usage}
fail() { echo "FAIL: $*"; exit 1; }
cuda=${CUDA_HOME:-}
if [ -z "$cuda" ]; then
  if command -v nvcc >/dev/null 2>&1; then cuda=$(cd "$(dirname "$(command -v nvcc)")/.." && pwd); else cuda=/usr/local/cuda; fi
fi
if [ ! -f "$cuda/include/nvrtc.h" ]; then
  echo "SKIP: no CUDA toolkit (nvrtc.h) at $cuda"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
CUDA_HOME=$cuda bash "$src/microbench/cuda/build-measure-plan.sh" "$work" || fail "build-measure-plan.sh"
h=$work/measure-plan-cuda
# without a driver the binary needs the toolkit's stub to start (and then says there is no device)
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  mkdir -p "$work/stub" && ln -sf "$cuda/lib64/stubs/libcuda.so" "$work/stub/libcuda.so.1"
  export LD_LIBRARY_PATH=$work/stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  nodriver=1
fi
in=$src/test/lit/Inputs/tune
"$bin/wgtune" --space "$in/scale.json" --plan "$work/cu.tsv" || fail "wgtune --plan (CUDA)"
"$h" "$work/cu.tsv" --compile-only sm_80 --jobs 2 >"$work/c.out" 2>"$work/c.err" || fail "--compile-only: $(cat "$work/c.err")"
cat "$work/c.out" "$work/c.err"
[ "$(grep -c . "$work/c.out")" = 33 ] || fail "expected a line for each of the 33 configurations"
# 512 elements of 32 floats: 64 KiB of static shared memory (block 128 x 4, 256 x 2)
bad=$(grep -c 'CompilationFailedConfig' "$work/c.out")
want=$(grep -cE 'block_size_x=(128 elems=4|256 elems=2) ' "$work/c.out")
[ "$bad" = 6 ] && [ "$want" = 6 ] || fail "expected the 6 configurations of 64 KiB to fail, got $bad failing"
grep 'CompilationFailedConfig' "$work/c.out" | grep -qv -E 'block_size_x=(128 elems=4|256 elems=2) ' &&
  fail "a configuration that fits failed"
grep -q 'shared' <(grep 'CompilationFailedConfig' "$work/c.out" | head -1) || fail "the refusal does not say why"
grep -q '27 of 33 configurations compile for sm_80' "$work/c.err" || fail "the summary line"
# refusals
"$bin/wgtune" --space "$in/scale_cl.json" --plan "$work/cl.tsv" || fail "wgtune --plan (OpenCL)"
"$h" "$work/cl.tsv" --compile-only sm_80 2>"$work/e1" && fail "an OpenCL plan was taken"
grep -q 'an OpenCL plan: time it with wgperf-measure --plan' "$work/e1" || fail "OpenCL plan: $(cat "$work/e1")"
printf 'wgperf-plan\t2\n' >"$work/v2.tsv"
"$h" "$work/v2.tsv" 2>"$work/e2" && fail "a plan of version 2 was taken"
grep -q "v2.tsv:1: plan version '2': measure-plan-cuda reads version 1" "$work/e2" || fail "version: $(cat "$work/e2")"
"$h" "$work/cu.tsv" --compile-only 80 2>"$work/e3" && fail "--compile-only 80 was taken"
grep -q "compile-only takes an architecture such as sm_90, got '80'" "$work/e3" || fail "arch: $(cat "$work/e3")"
if [ "${nodriver:-0}" = 1 ]; then
  "$h" "$work/cu.tsv" -o "$work/x.json" 2>"$work/e4" && fail "ran without a driver"
  grep -q 'no CUDA device 0: CUDA_ERROR_STUB_LIBRARY' "$work/e4" || fail "no driver: $(cat "$work/e4")"
  [ -e "$work/x.json" ] && fail "wrote a cache file without a device"
fi
echo "PASS"
