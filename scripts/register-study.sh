#!/usr/bin/env bash
# The IR register estimate (what predictions use without a CUDA toolkit)
# against ptxas' count, over every source of the corpus (corpus/*/*.cl|.cu)
# at extraction's default -O3: `wgperf extract` writes both into the model,
# register_pressure and registers.count (ptxas -v, sm_80).  Prints one line
# per kernel (estimate/ptxas, estimate, ptxas, source, kernel) with -v, then
# the totals: the median and geometric mean of the ratio, how many are within
# 0.8-1.25x, below 0.5x, above 1.25x, and how many fall on the other side of
# 32 registers from ptxas (the count above which occupancy drops on 64K-register
# SMs of 2048 threads).  Needs a CUDA toolkit (ptxas); exit status 2 without.
#
#   bash scripts/register-study.sh [build-dir] [-v]
set -euo pipefail
cd "$(dirname "$0")/.."
B=build
VERBOSE=0
for a in "$@"; do
  case "$a" in
  -v) VERBOSE=1 ;;
  *) B=$a ;;
  esac
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
find corpus -name '*.cl' -o -name '*.cu' | sort > "$T/sources"
export B T
xargs -P "$(nproc)" -I{} sh -c \
  'n=$(echo "{}" | tr / _); "$B/bin/wgperf" extract "{}" -o "$T/$n.json" > /dev/null 2> "$T/$n.err" || echo "extract failed: {}" >&2' \
  < "$T/sources"
python3 - "$T" "$VERBOSE" << 'EOF'
import glob, json, math, statistics, sys
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    for k in json.load(open(f)).get("kernels", []):
        r = k.get("registers", {}).get("count")
        e = k.get("register_pressure")
        if r and e:
            rows.append((e / r, e, r, f.split("/")[-1][:-5].replace("_", "/", 2), k["name"]))
if not rows:
    print("register-study: no kernel has a ptxas count: is a CUDA toolkit installed?", file=sys.stderr)
    sys.exit(2)
if sys.argv[2] == "1":
    for row in sorted(rows):
        print("%.2f %4d %4d  %s %s" % row)
q = [x[0] for x in rows]
print("%d kernels: estimate/ptxas median %.2f, geometric mean %.2f; within 0.8-1.25x %d, below 0.5x %d, "
      "above 1.25x %d; on the other side of 32 registers from ptxas %d"
      % (len(q), statistics.median(q), math.exp(sum(math.log(x) for x in q) / len(q)),
         sum(0.8 <= x <= 1.25 for x in q), sum(x < 0.5 for x in q), sum(x > 1.25 for x in q),
         sum((e > 32) != (r > 32) for _, e, r, _, _ in rows)))
EOF
