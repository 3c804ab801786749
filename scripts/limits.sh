#!/usr/bin/env bash
# Limits benchmark (prints figures; not a test): wall time and peak memory of
# `wgperf analyze` and `wgperf predict` at the extremes docs/limits.md
# promises: 2^32 work-items, loop counts up to 2^40, 3-D work-groups and
# kernels with thousands of basic blocks.  Each run is stopped after
# LIMIT seconds (default 120) and then reported as "timeout".
#   bash scripts/limits.sh [BUILD_DIR] [LIMIT]
set -uo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$SRC/build}
LIMIT=${2:-120}
W=$B/bin/wgperf
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$W" extract "$SRC/scripts/limits/limits.cl" -o "$T/limits.json" > /dev/null || exit 1
"$W" extract "$SRC/examples/matmul_tiled.cl" -o "$T/mm.json" > /dev/null || exit 1
python3 "$SRC/scripts/limits/gen_blocks.py" 1000 > "$T/manyblocks.cl"
"$W" extract "$T/manyblocks.cl" -O 0 -o "$T/mb0.json" > /dev/null || exit 1
"$W" extract "$T/manyblocks.cl" -O 2 -o "$T/mb2.json" > /dev/null || exit 1
blocks() { python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['kernels'][0]['blocks']))" "$1"; }
echo "wgperf limits, $(nproc) cores, $(date -u +%Y-%m-%d), build $B"
echo "(manyblocks: $(blocks "$T/mb0.json") blocks at -O0, $(blocks "$T/mb2.json") at -O2)"
printf '%-44s %-8s %10s %10s  %s\n' case command seconds "peak MiB" result
run() { # name cmd model args...
  local name=$1 cmd=$2; shift 2
  local out rc line
  out=$(/usr/bin/time -f "%e %M" -o "$T/time" timeout "$LIMIT" "$W" "$cmd" "$@" 2>&1 > "$T/out")
  rc=$?
  read -r sec kb < <(tail -1 "$T/time")
  if [ $rc -eq 124 ]; then
    line="timeout after ${LIMIT} s"
  elif [ $rc -ne 0 ]; then
    line="exit $rc: $(echo "$out" | head -1)"
  elif [ "$cmd" = predict ]; then
    line=$(grep -m1 '^time' "$T/out" | sed 's/  */ /g')
  else
    line=$(grep -m1 '^warps' "$T/out" | sed 's/  */ /g')
  fi
  [ -n "$(grep -m1 '^assumed' "$T/out")" ] && line="$line; $(grep '^assumed' "$T/out" | sed 's/assumed *//' | paste -sd, -)"
  printf '%-44s %-8s %10s %10s  %s\n' "$name" "$cmd" "${sec:-?}" "$(( ${kb:-0} / 1024 ))" "$line"
}
L=$T/limits.json
for cmd in analyze predict; do
  run "vadd 2^32 items, 1-D, groups of 1024" $cmd "$L" --kernel vadd --global 4294967296 --local 1024
  run "vadd 2^32 items, 1-D, groups of 32" $cmd "$L" --kernel vadd --global 4294967296 --local 32
  run "matmul_tiled 65536x65536 (2^32 items)" $cmd "$T/mm.json" --global 65536,65536 --local 16,16 --arg N=65536
  run "stencil3d 2048x2048x1024, groups 8x8x8" $cmd "$L" --kernel stencil3d --global 2048,2048,1024 --local 8,8,8 --arg nx=2048 --arg ny=2048
  run "stencil3d 1024^3, groups 32x8x4" $cmd "$L" --kernel stencil3d --global 1024,1024,1024 --local 32,8,4 --arg nx=1024 --arg ny=1024
  run "longloop n=2^20, 2^20 items" $cmd "$L" --kernel longloop --global 1048576 --local 256 --arg n=1048576
  run "longloop n=2^40, 2^20 items" $cmd "$L" --kernel longloop --global 1048576 --local 256 --arg n=1099511627776
  run "longloop n=2^40, 2^32 items" $cmd "$L" --kernel longloop --global 4294967296 --local 256 --arg n=1099511627776
  run "nested 2^20 x 2^20, 2^20 items" $cmd "$L" --kernel nested --global 1048576 --local 256 --arg n=1048576 --arg m=1048576
  run "manyblocks -O0, 2^20 items" $cmd "$T/mb0.json" --global 1048576 --local 256 --arg sel=3
  run "manyblocks -O2, 2^20 items" $cmd "$T/mb2.json" --global 1048576 --local 256 --arg sel=3
done
