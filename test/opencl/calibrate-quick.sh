#!/usr/bin/env bash
# ctest opencl.calibrate_quick: `wgperf-calibrate --quick` on this machine's OpenCL
# device (PoCL on a CPU in CI). Passes when every benchmark of the set ran and checked
# its own result (no error rows), the raw CSV is there, and the description it wrote
# loads with the library's validator. The figures are a CPU's: this is a functional
# test, never a calibration. Exits 77 (ctest: skipped) only when no OpenCL platform
# exists.
#   calibrate-quick.sh BIN_DIR WORK_DIR
set -u
bin=${1:?usage: calibrate-quick.sh BIN_DIR WORK_DIR}
work=${2:?usage: calibrate-quick.sh BIN_DIR WORK_DIR}
cal=$bin/wgperf-calibrate
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
# PoCL's kernel cache, empty at every run: a cold cache behaves as on a fresh machine
export POCL_CACHE_DIR=$work/pocl-cache

if "$cal" --list | grep -q "none (no OpenCL platform)"; then
  echo "SKIP: no OpenCL platform on this machine (install pocl-opencl-icd, or a GPU driver)"
  exit 77
fi
t0=$(date +%s)
"$cal" --quick -o "$work/quick.json" >"$work/quick.txt" 2>"$work/quick.err"
rc=$?
echo "wgperf-calibrate --quick: exit $rc after $(($(date +%s) - t0)) s"
cat "$work/quick.err"
[ $rc = 0 ] || fail "wgperf-calibrate exited $rc (3 = error rows); see above"
csv=$work/quick.csv
[ -s "$csv" ] || fail "no raw CSV $csv"
head -1 "$csv" | grep -q '^# gpu=' || fail "$csv has no header"
grep -q '^benchmark,parameter,value,unit,median,min,max,repeats,status,note$' "$csv" || fail "$csv: no column line"
errors=$(grep -c ',error,' "$csv")
[ "$errors" = 0 ] || { grep ',error,' "$csv"; fail "$errors error rows"; }
# every benchmark of the set left ok rows
for b in clock_attr geom_curve lat_shared lat_l1 lat_l2 lat_dram lat_const lat_const_cold \
  geom_l1_stride geom_l2_stride bw_dram_read bw_dram_write bw_dram_copy bw_l2_read bw_shared \
  bw_dram_occupancy bw_l2_occupancy bw_shared_occupancy arith_latency arith_throughput \
  barrier atomic_global atomic_shared launch_single launch_throughput launch_blocks; do
  grep -q "^$b,.*,ok," "$csv" || fail "no ok row for $b"
done
# every arithmetic operation has both rows
for op in fadd fmul ffma div sqrt rsqrt sin cos tan exp log pow iadd ladd imul lmul idiv irem ldiv \
  rotxor select i2f f2i; do
  grep -q "^arith_latency,op=$op,.*,ok," "$csv" || fail "no arith_latency row for op=$op"
  grep -q "^arith_throughput,op=$op,.*,ok," "$csv" || fail "no arith_throughput row for op=$op"
done
# rows are well formed: ten columns, numbers where ok
awk -F, 'NR > 1 && !/^#/ && !/^benchmark,/ {
  if (NF < 10) { print "row " NR ": " NF " columns"; bad = 1 }
  if ($9 == "ok" && ($5 == "" || $5 + 0 != $5)) { print "row " NR ": ok without a median"; bad = 1 }
} END { exit bad }' "$csv" || fail "malformed rows in $csv"
"$cal" --check "$work/quick.json" || fail "the description does not load"
grep -q '"source": "measured: wgperf-calibrate --quick on ' "$work/quick.json" || fail "no measured field"
grep -q 'NOT A GPU' "$work/quick.json" || grep -q '"device_type": "GPU"' "$csv" ||
  fail "a CPU's description does not say it is not a GPU"
grep -q 'wrote .*quick.json: [0-9]* measured fields' "$work/quick.txt" || fail "no summary line"
echo "PASS: $(grep -vc '^#' "$csv") rows, all ok; $(grep -o '[0-9]* measured fields' "$work/quick.txt")"
