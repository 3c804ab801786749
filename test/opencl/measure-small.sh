#!/usr/bin/env bash
# ctest opencl.measure_small: wgperf-measure on this machine's OpenCL device (PoCL on a
# CPU in CI) over a few small validation configurations and one user kernel with a
# launch file. Passes when every row was verified against the CPU reference and the
# CSV has the 44 columns of measurements.csv. A CPU's timings: a functional test only.
# Exits 77 (ctest: skipped) only when no OpenCL platform exists.
#   measure-small.sh BIN_DIR SOURCE_DIR WORK_DIR
set -u
bin=${1:?usage: measure-small.sh BIN_DIR SOURCE_DIR WORK_DIR}
src=${2:?usage}
work=${3:?usage}
m=$bin/wgperf-measure
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
# PoCL's kernel cache, empty at every run: a cold cache behaves as on a fresh machine
export POCL_CACHE_DIR=$work/pocl-cache
header=$(head -1 "$src/microbench/results/h100-2026-11-22/validation/validation-h100.csv")

kernels=vectorAdd,dotProd,matrix_sum_coalesced,subSeqMax,bitonic,quicksort,matMul_gpu_sharedmem
t0=$(date +%s)
# --budget-s is a hang guard only: the first size of every kernel is measured however
# slow the machine, and later sizes are left out (listed) when a busy machine's launches
# pass --max-launch-s; so the rows asked for below are one per kernel, not a count
"$m" --quick --only $kernels --max-launch-s 0.1 --budget-s 900 -o "$work/val.csv" 2>"$work/val.err"
rc=$?
cat "$work/val.err"
if [ $rc = 1 ] && grep -q "no OpenCL platform" "$work/val.err"; then
  echo "SKIP: no OpenCL platform on this machine (install pocl-opencl-icd, or a GPU driver)"
  exit 77
fi
echo "wgperf-measure: exit $rc after $(($(date +%s) - t0)) s"
[ $rc = 0 ] || fail "wgperf-measure exited $rc (3 = a verification failed)"

check_csv() { # FILE MIN_ROWS
  [ "$(head -1 "$1")" = "$header" ] || fail "$1: the column line differs from measurements.csv's"
  awk -F, -v min="$2" 'NR > 1 {
      rows++
      if (NF != 44) { print "row " NR ": " NF " columns"; bad = 1 }
      if (!($14 > 0)) { print "row " NR ": duration_s " $14; bad = 1 }
      if ($44 ~ /verification_failed|differ/) { print "row " NR ": " $44; bad = 1 }
      if ($15 < 3 && $15 != 1) { print "row " NR ": n_runs " $15; bad = 1 }
    } END { if (rows < min) { print rows " rows, expected at least " min; bad = 1 }; exit bad }' "$1" ||
    fail "$1 is malformed"
}
check_csv "$work/val.csv" 7
for k in ${kernels//,/ }; do
  grep -q "^[^,]*,[^,]*,$k," "$work/val.csv" || fail "no row for $k"
done
if grep -q 'is not a GPU' "$work/val.err"; then
  awk -F, 'NR > 1 && $44 !~ /not_a_gpu/ { exit 1 }' "$work/val.csv" || fail "a CPU's rows must say not_a_gpu"
else
  grep -q 'not_a_gpu' "$work/val.csv" && fail "rows say not_a_gpu on a GPU"
fi
# bitonic: one row per size, launches_per_run = log2N(log2N+1)/2
awk -F, '$3 == "bitonic" && $4 == 32768 && $18 != 120 { exit 1 }' "$work/val.csv" || fail "bitonic launches_per_run"

# a user kernel, the launch in a file (include/wgperf/launch.h)
cat >"$work/launch.json" <<'JSON'
{"global": [65536], "local": [256], "args": {"n": 65536, "a": 2.5}, "buffers": {"x": "256KiB", "y": "256KiB"}}
JSON
"$m" "$src/test/lit/Inputs/cli/saxpy.cl" --kernel saxpy --launch "$work/launch.json" --repeats 5 \
  -o "$work/user.csv" 2>"$work/user.err"
rc=$?
cat "$work/user.err"
[ $rc = 0 ] || fail "wgperf-measure on a user kernel exited $rc"
check_csv "$work/user.csv" 1
awk -F, 'NR == 2 && !($3 == "saxpy" && $4 == 65536 && $5 == 256 && $8 == 256 && $15 == 5) { exit 1 }' \
  "$work/user.csv" || fail "user row: $(sed -n 2p "$work/user.csv")"
echo "PASS: $(($(wc -l <"$work/val.csv") - 1)) validation rows and 1 user row, all verified"
