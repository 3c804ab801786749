#!/usr/bin/env bash
# Benchmark of wgtune on the shared Kernel Tuner spaces (not a test: it prints
# figures).  Ranks the whole space from its kernel files where they lie, with
# a fresh cache, then again with that cache, and prints the wall time, the CPU
# time, configurations per second and the ratio to what the brute force cost
# on the GPU (compile_time + benchmark_time + framework_time summed over the
# Kernel Tuner cache files of ../shared/data/kernel-tuner/measurements).
#
#   scripts/bench-wgtune.sh convolution|gemm [--build DIR] [--gpu NAME] [--jobs N]
#                           [--registers ptxas|estimate] [--sample N] [--out DIR] [--once]
#                           [--prune K]
#
# --sample N ranks a seeded sample instead of the whole space (a quick look;
# the figures then say so).  --once skips the second run (gemm's estimate,
# not its compile, is most of the time: the cached run costs nearly as much).
# --prune K ranks the K fastest exactly and estimates only what could be
# among them (wgtune --prune --top K; the others are pruned).
# The JSON of each run is kept in --out (default
# a temporary folder, printed).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
space=${1:-}
shift || true
build=$here/build
gpu=rtx-3090
jobs=$(nproc)
registers=estimate
sample=
out=
once=
prune=
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --gpu) gpu=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --registers) registers=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --once) once=1; shift ;;
    --prune) prune=$2; shift 2 ;;
    *) echo "bench-wgtune: unknown option $1" >&2; exit 2 ;;
  esac
done
data=$here/../shared/data/kernel-tuner
case $space in
  convolution)
    files=("$data/kernels/convolution.cu")
    t1=$data/kernels/convolution.json ;;
  gemm)
    files=("$data"/kernels/gemm/common.opencl "$data"/kernels/gemm/xgemm_part1.opencl
           "$data"/kernels/gemm/xgemm_part2.opencl "$data"/kernels/gemm/xgemm_part3.opencl)
    t1=$here/test/lit/Inputs/tune/gemm.json ;;
  *) echo "usage: bench-wgtune.sh convolution|gemm [options]" >&2; exit 2 ;;
esac
[ -d "$data" ] || { echo "bench-wgtune: $data not found (../shared beside the clone)" >&2; exit 1; }
out=${out:-$(mktemp -d -t bench-wgtune-XXXXXX)}
mkdir -p "$out"
cache=$out/cache
rm -rf "$cache"
extra=()
[ -n "$sample" ] && extra+=(--sample "$sample")
[ -n "$prune" ] && extra+=(--prune --top "$prune")

run() { # label, json output
  local label=$1 json=$2
  /usr/bin/time -f "%e %U %S" -o "$out/$label.time" \
    "$build/bin/wgtune" "${files[@]}" --space "$t1" --gpu "$gpu" --jobs "$jobs" --registers "$registers" \
    --cache "$cache" "${extra[@]}" --json > "$json"
}

# the machine: figures differ by CPU (docs/wgtune.md, "Speed")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "bench-wgtune: $space on $gpu, --registers $registers, --jobs $jobs${prune:+, --prune --top $prune}, $(nproc) CPUs (${cpu:-CPU model unknown}), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start, $(date -u +%Y-%m-%dT%H:%MZ)"
run first "$out/first.json"
load_mid=$(cut -d' ' -f1-3 /proc/loadavg)
labels=first
if [ -z "$once" ]; then
  run second "$out/second.json"
  labels="first second"
fi
python3 - "$out" "$data/measurements" "$space" "$load_mid" "$registers" $labels <<'EOF'
import gzip, json, sys, glob, os
out, meas, space, load, registers = sys.argv[1:6]
labels = sys.argv[6:]
def brute(f):
    c = json.load(gzip.open(f))['cache']
    return sum(r.get('compile_time', 0) + r.get('benchmark_time', 0) + r.get('framework_time', 0) for r in c.values()) / 1e3, len(c)
caches = sorted(glob.glob(os.path.join(meas, space + '-*.json.gz')))
for label in labels:
    j = json.load(open(os.path.join(out, label + '.json')))
    wall, user, sys_ = (float(x) for x in open(os.path.join(out, label + '.time')).read().split())
    n = j['configurations']
    print(f"{label} run{' (the same --cache: nothing to compile)' if label == 'second' else ' (an empty --cache)'}:")
    print(f"  configurations {n} of {j['configurations_total']}" + (f" (a sample)" if j.get('sample') else "") +
          f", distinct codes {j['distinct']}, ranked {len(j['ranked'])}, cannot run {len(j['cannot_run'])}" +
          (f", pruned {len(j['pruned'])} (--prune {j['prune_top']}: ranks 1 to {j['prune_top']} exact)" if j.get('prune_top') else ""))
    print(f"  compiled {j['compiled']}, from the cache {j['cached']}, preprocessed {j['preprocessed']}, estimates {j['estimates']}")
    print(f"  wall {wall:.1f} s, CPU {user + sys_:.1f} s (user {user:.1f}, system {sys_:.1f}; workers and compilers included), "
          f"{n / wall:.2f} configurations/s, {(user + sys_) / max(n, 1):.3f} CPU s per configuration")
    steps = j.get('cpu_ms_by_step', {})
    print("  CPU by step: " + ", ".join(f"{k} {v / 1e3:.1f} s" for k, v in steps.items()))
    for f in caches:
        b, nb = brute(f)
        scale = n / nb
        print(f"  brute force {os.path.basename(f)}: {b:.0f} s ({b / 3600:.2f} h) for {nb} configurations; "
              f"wgtune {b * scale / wall:.1f}x faster" + (" (scaled to the sample)" if scale < 1 else ""))
print(f"load average after the first run: {load} (a shared machine: other processes ran too)")
print(f"outputs in {out}")
EOF
