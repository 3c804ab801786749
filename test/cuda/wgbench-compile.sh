#!/usr/bin/env bash
# ctest cuda.wgbench_compile: the CUDA microbenchmarks (microbench/cuda, wgbench) build
# with nvcc where a CUDA toolkit is, without a GPU, as microbench/run-device.sh builds
# them on a lent one (sm_90), and the groups wgbench --list names are those
# run-device.sh runs (a group left out of its list would never be timed).  Exits 77
# (ctest: skipped) without nvcc.
#   wgbench-compile.sh SOURCE_DIR WORK_DIR
set -u
src=${1:?usage: wgbench-compile.sh SOURCE_DIR WORK_DIR}
work=${2:?usage}
fail() { echo "FAIL: $*"; exit 1; }
nvcc=
for c in "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc \
         "${WGPERF_CUDA_DIR:-/opt/wgperf/cuda-11.8}/bin/nvcc"; do
  [ -n "$c" ] && [ -x "$c" ] && { nvcc=$c; break; }
done
[ -n "$nvcc" ] || { echo "SKIP: no nvcc"; exit 77; }
# CUDA 11.8 (what scripts/install-deps.sh sets up) refuses Debian 12's gcc 12 without
# this; the microbenchmarks' host code is plain C++
host=-allow-unsupported-compiler
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
cu=$src/microbench/cuda
for f in "$cu"/*.cu; do
  [ "$(basename "$f")" = bench_l1assoc.cu ] && continue # a program of its own
  "$nvcc" $host -O3 -arch=sm_90 -lineinfo -Xcompiler -Wall -I"$cu" -c "$f" -o "$work/$(basename "$f" .cu).o" ||
    fail "nvcc $(basename "$f")"
done
"$nvcc" $host -O3 -arch=sm_90 -c "$cu/bench_l1assoc.cu" -o "$work/l1assoc.o" || fail "nvcc bench_l1assoc.cu"
# the groups of wgperf's table (main.cu: {"name", "group", function, "what"}), and those
# run-device.sh runs
listed=$(sed -n 's/^ *{"[a-z0-9_]*", "\([a-z0-9_]*\)", bench_[a-z0-9_]*,.*/\1/p' "$cu/main.cu" | sort -u | tr '\n' ' ')
run=$(sed -n 's/^GROUPS_T="\(.*\)"/\1/p' "$src/microbench/run-device.sh" | tr ' ' '\n' | sed 's/:.*//' | sort -u |
  tr '\n' ' ')
echo "nvcc: $nvcc"
echo "wgbench's groups:      $listed"
echo "run-device.sh groups:  $run"
[ -n "$listed" ] && [ "$listed" = "$run" ] || fail "the groups differ"
# linked and listed where the toolkit has the CUDA runtime to link (Debian's CUDA 11.8
# that scripts/install-deps.sh unpacks has headers, nvcc and ptxas only)
if "$nvcc" $host -arch=sm_90 -o "$work/wgbench" $(ls "$work"/*.o | grep -v l1assoc.o) >"$work/link.log" 2>&1; then
  "$work/wgbench" --list >"$work/list.txt" 2>&1 || fail "wgbench --list: $(cat "$work/list.txt")"
  got=$(awk 'NF >= 2 { print $2 }' "$work/list.txt" | sort -u | tr '\n' ' ')
  [ "$got" = "$listed" ] || fail "wgbench --list names the groups $got"
  echo "linked; wgbench --list agrees"
elif grep -q "cudart" "$work/link.log"; then
  echo "not linked: no CUDA runtime library with $nvcc"
else
  fail "nvcc link: $(tail -3 "$work/link.log")"
fi
echo "ok"
