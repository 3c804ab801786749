#!/usr/bin/env bash
# run-device.sh - build and run the CUDA microbenchmarks (microbench/cuda) on a GPU
# machine and leave the results in OUTDIR.
#
# Usage, from the repository root:  bash microbench/run-device.sh OUTDIR
#
# Writes OUTDIR/nvidia-smi.txt (GPU state before and after), OUTDIR/microbench-h100.csv
# (the measurements, format in microbench/cuda/README.md) and OUTDIR/microbench-h100.log
# (build output, progress, SASS digest of the arithmetic kernels, summary), and prints
# the summary last. Each benchmark group runs in its own process under `timeout`, the
# whole microbenchmark part keeps to WGB_BUDGET_S seconds (default 200), and the script
# exits 0 even when a benchmark fails: failures are error rows in the CSV and ERROR
# lines in the summary. It never changes GPU clocks, power or persistence settings.
set -u

OUT=${1:?usage: bash microbench/run-device.sh OUTDIR}
mkdir -p "$OUT" || exit 0
OUT=$(cd "$OUT" && pwd)
SRC=$(cd "$(dirname "$0")/cuda" && pwd)
CSV=$OUT/microbench-h100.csv
LOG=$OUT/microbench-h100.log
BUDGET=${WGB_BUDGET_S:-200}
T0=$(date +%s)
: >"$LOG"

log() { echo "$@" | tee -a "$LOG"; }
elapsed() { echo $(($(date +%s) - T0)); }

# Append an error row by hand (used when a whole process failed or was killed).
csv_error() {
  [ -s "$CSV" ] || echo "benchmark,parameter,value,unit,median,min,max,repeats,status,note" >"$CSV"
  echo "$1,,,,,,,0,error,$2" >>"$CSV"
  log "run-device: ERROR: $1: $2"
}

# ---- GPU state (read-only queries) ----
{
  echo "### nvidia-smi --query-gpu (before), $(date -u +%FT%TZ)"
  timeout 30 nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
  echo
  echo "### nvidia-smi -q"
  timeout 60 nvidia-smi -q
} >"$OUT/nvidia-smi.txt" 2>&1 || log "run-device: warning: nvidia-smi failed (see nvidia-smi.txt)"

# ---- build ----
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
BUILD=$(mktemp -d /tmp/wgbench.XXXXXX)
BIN=$BUILD/wgbench
log "run-device: building with $NVCC into $BUILD"
pids=()
for f in "$SRC"/*.cu; do
  # bench_l1assoc.cu is a program of its own (its own main); see microbench/cuda/README.md
  [ "$(basename "$f")" = bench_l1assoc.cu ] && continue
  o=$BUILD/$(basename "$f" .cu).o
  timeout 240 "$NVCC" -O3 -arch=sm_90 -lineinfo -Xcompiler -Wall -I"$SRC" -c "$f" -o "$o" \
    >>"$LOG" 2>&1 &
  pids+=($!)
done
build_ok=1
for p in "${pids[@]}"; do wait "$p" || build_ok=0; done
if [ $build_ok = 1 ]; then
  timeout 60 "$NVCC" -arch=sm_90 -o "$BIN" "$BUILD"/*.o >>"$LOG" 2>&1 || build_ok=0
fi
log "run-device: build $([ $build_ok = 1 ] && echo ok || echo FAILED) after $(elapsed) s"

# ---- run, one process per group ----
# group:seconds (upper bounds; expected total on an H100 is well under a minute)
GROUPS_T="clock:20 latency:45 geometry:45 bandwidth:45 cacheop:15 arith:75 sync:30 launch:30"
rm -f "$CSV"
if [ $build_ok = 1 ]; then
  for gt in $GROUPS_T; do
    g=${gt%%:*}
    t=${gt##*:}
    left=$((BUDGET - $(elapsed)))
    if [ "$left" -lt 10 ]; then
      csv_error "group_$g" "skipped: run-device.sh time budget ($BUDGET s) spent"
      continue
    fi
    [ "$t" -gt "$left" ] && t=$left
    log "run-device: group $g (limit $t s; $(elapsed) s elapsed)"
    # the program's own watchdog fires first and names the benchmark; timeout backs it up
    timeout -k 5 "$t" "$BIN" -o "$CSV" --append --group "$g" --timeout $((t > 15 ? t - 5 : t)) \
      2>&1 | tee -a "$LOG"
    rc=${PIPESTATUS[0]}
    case $rc in
      0) ;;
      124 | 137) csv_error "group_$g" "killed by run-device.sh after $t s (rows before it are kept)" ;;
      3) log "run-device: group $g finished with error rows" ;;
      *) csv_error "group_$g" "wgbench exited with status $rc" ;;
    esac
  done
else
  csv_error "build" "nvcc build failed; see microbench-h100.log"
fi

{
  echo
  echo "### nvidia-smi --query-gpu (after the run), $(date -u +%FT%TZ)"
  timeout 30 nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv
} >>"$OUT/nvidia-smi.txt" 2>&1

# ---- SASS digest of the arithmetic kernels (log only): what each loop really runs ----
if [ $build_ok = 1 ] && command -v cuobjdump >/dev/null 2>&1; then
  {
    echo "### SASS opcodes per arith kernel (cuobjdump -sass; count of each opcode)"
    timeout 60 cuobjdump -sass "$BUILD/bench_arith.o" 2>/dev/null | awk '
      /Function :/ { if (fn != "") { printf "%s:", fn; for (k in c) printf " %s=%d", k, c[k]; print ""; }
                     fn = $3; delete c; next }
      /^ +\/\*[0-9a-f]+\*\// { op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op);
                     if (op !~ /^(NOP|BRA|EXIT)$/) c[op]++ }
      END { if (fn != "") { printf "%s:", fn; for (k in c) printf " %s=%d", k, c[k]; print ""; } }'
    echo "### SASS opcodes of the chase and bandwidth kernels"
    timeout 60 cuobjdump -sass "$BUILD/bench_latency.o" "$BUILD/bench_bandwidth.o" 2>/dev/null |
      grep -oE '(Function : [^ ]+|LDG\.[A-Z0-9.]+|LDS[A-Z0-9.]*|LDC[A-Z0-9.]*)' | uniq -c
    # bw_shared_conflict's constant=1 kernel: its weights should be FFMA operands c[0x3][...]
    echo "FFMA with a constant-bank operand (c[0x3]) in bench_bandwidth: $(timeout 60 cuobjdump -sass "$BUILD/bench_bandwidth.o" 2>/dev/null | grep -cE 'FFMA[^;]*c\[0x3\]')"
  } >>"$LOG" 2>&1
else
  log "run-device: cuobjdump not found or build failed: no SASS digest"
fi

# ---- summary (last on stdout) ----
log "run-device: microbenchmarks took $(elapsed) s in all"
if [ -x "$BIN" ] && [ -s "$CSV" ]; then
  "$BIN" --summary "$CSV" 2>&1 | tee -a "$LOG"
else
  log "run-device: ERROR: no results to summarise"
fi

# ======================================================================================
# HOOK: validation run. The lead inserts the validation/ run here, above the final
# `exit 0` (another helper writes validation/); the microbenchmark part ends above.
# ======================================================================================

exit 0
