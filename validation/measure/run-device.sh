#!/usr/bin/env bash
# run-device.sh: builds measure_cuda with nvcc and times every validation kernel on the
# local NVIDIA GPU (written for the lent H100: sm_90).
#
#   bash validation/measure/run-device.sh OUTDIR
#
# Writes OUTDIR/validation-h100.csv (columns of amaris-nvprof/measurements.csv),
# OUTDIR/validation-h100-skipped.csv (configurations not measured, with the reason),
# OUTDIR/measure.log and OUTDIR/build.log, and ends stdout with a one-line-per-kernel
# summary. Build + run are capped at WGP_TOTAL_S seconds (default 265) by timeout(1).
# Only reads the GPU's state (nvidia-smi queries); never changes clocks or settings.
set -u

OUT=${1:?usage: run-device.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
TOTAL=${WGP_TOTAL_S:-265}
ARCH=${WGP_ARCH:-sm_90}
T0=$(date +%s)
mkdir -p "$OUT" || exit 1
CSV="$OUT/validation-h100.csv"
SKIPPED="$OUT/validation-h100-skipped.csv"
LOG="$OUT/measure.log"

elapsed() { echo $(( $(date +%s) - T0 )); }

NVCC=${NVCC:-}
if [ -z "$NVCC" ]; then
    if command -v nvcc >/dev/null 2>&1; then NVCC=$(command -v nvcc)
    elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
    else echo "run-device: error: nvcc not found (set NVCC=...)" >&2; exit 1
    fi
fi

{
    echo "# run-device.sh $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    "$NVCC" --version | tail -2
    if command -v nvidia-smi >/dev/null 2>&1; then
        timeout 20 nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,persistence_mode --format=csv 2>&1
    fi
} > "$LOG" 2>&1
cat "$LOG"

BUILD=$(mktemp -d /tmp/wgperf-measure.XXXXXX) || exit 1
echo "run-device: building with $NVCC -arch=$ARCH"
if ! timeout 150 "$NVCC" -O3 -arch="$ARCH" -Xcompiler -Wall -Xptxas -v \
        -o "$BUILD/measure_cuda" "$HERE/measure_cuda.cu" > "$OUT/build.log" 2>&1; then
    echo "run-device: error: build failed; see build.log" >&2
    tail -20 "$OUT/build.log" >&2
    exit 1
fi
echo "run-device: built in $(elapsed) s"

# time left for the measurement; the program stops starting configurations after
# --budget-s, and a configuration in flight may overrun it a little
LEFT=$(( TOTAL - $(elapsed) - 5 ))
BUDGET=$(( LEFT - 40 ))
[ "$BUDGET" -gt 200 ] && BUDGET=200
if [ "$BUDGET" -lt 20 ]; then
    echo "run-device: error: only $LEFT s left after the build" >&2
    exit 1
fi
echo "run-device: measuring, budget $BUDGET s, hard limit $LEFT s"
timeout -k 5 "$LEFT" "$BUILD/measure_cuda" -o "$CSV" --skipped "$SKIPPED" \
    --budget-s "$BUDGET" ${WGP_MEASURE_ARGS:-} 2>> "$LOG"
RC=$?
[ "$RC" -eq 124 ] && echo "run-device: warning: measurement hit the hard limit (rows so far are kept)" >&2
{
    echo "# exit status $RC after $(elapsed) s"
    command -v nvidia-smi >/dev/null 2>&1 && timeout 20 nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv 2>&1
} >> "$LOG"

echo "run-device: measure_cuda exit status $RC after $(elapsed) s; log: measure.log"
grep -E "error|warning|done in" "$LOG" | grep -v "^#" | tail -15
touch "$SKIPPED" "$CSV"
echo "== summary: kernel, rows, verification failures, skipped, min/max duration_s (per launch) =="
awk -F, '
    FNR == 1 { next }
    FILENAME == skipped { skip[$1]++; seen[$1] = 1; next }
    {
        k = $3; seen[k] = 1; rows[k]++
        if ($44 ~ /verification_failed/) bad[k]++
        d = $14 + 0
        if (!(k in mn) || d < mn[k]) mn[k] = d
        if (!(k in mx) || d > mx[k]) mx[k] = d
    }
    END {
        for (k in seen)
            printf "%-34s rows %3d  failed %2d  skipped %3d  min %.3g s  max %.3g s\n",
                   k, rows[k], bad[k], skip[k], (k in mn) ? mn[k] : 0, (k in mx) ? mx[k] : 0
    }' skipped="$SKIPPED" "$SKIPPED" "$CSV" 2>/dev/null | sort
exit "$RC"
