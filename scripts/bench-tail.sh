#!/usr/bin/env bash
# Tail benchmark (prints figures; not a test): `wgperf analyze` and `wgperf
# predict` of every kernel that has a launch file, at -O0 and -O2, one
# process per run: per command the p50/p90/p99/max of wall and CPU seconds
# and the ten slowest runs with their command lines.  The corpus by default
# (its manifest's launch files), or any folder of sources with launch files
# beside them (STEM.cl / STEM.cu with STEM.KERNEL.launch.json), or launch
# files kept apart from sources read in place (--launches).
#   bash scripts/bench-tail.sh [build-dir] [options]     (--help lists them)
set -euo pipefail
cd "$(dirname "$0")/.."
B=build
if [ $# -gt 0 ] && [ -d "$1" ]; then B=$1; shift; fi
exec python3 scripts/bench_tail.py --bin "$B/bin" "$@"
