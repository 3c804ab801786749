#!/usr/bin/env bash
# Determinism check (ctest runs it as harden.determinism): the JSON of
# `wgperf analyze --json`, `wgperf predict --json` and `wgprune --json` (its
# wall_ms, extract_ms and phases_ms removed) must be byte-identical between two runs of the first build
# and between that build and every other one given (other compilers, -O
# levels, sanitizers).
#   scripts/determinism.sh BUILD [OTHER_BUILD...]
# Inputs are committed kernel models, so the plugin plays no part (its own
# determinism is test/lit/determinism.cl).  Exit 1 on any difference, with
# the first differing lines.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD [OTHER_BUILD...]"; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$SRC/fuzz/data/probe.json
MM=$SRC/test/unit/data/matmul_tiled.plugin.json
CASES=(
  "analyze $P --kernel reduce --global 4096 --local 128 --arg n=40 --local-mem scratch=512"
  "predict $P --kernel reduce --global 4096 --local 128 --arg n=40 --local-mem scratch=512"
  "analyze $P --kernel stencil2d --global 4096 --local 128 --arg n=100 --local-mem scratch=512 --gpu gtx-750"
  "predict $P --kernel stencil2d --global 4096 --local 128 --arg n=100 --local-mem scratch=512 --gpu gtx-750"
  "analyze $P --kernel gather --global 4096 --local 128 --arg n=40 --local-mem scratch=512 --trip L0=100 --taken B4=0.25"
  "predict $P --kernel gather --global 4096 --local 128 --arg n=40 --local-mem scratch=512 --trip L0=100 --taken B4=0.25"
  "analyze $P --kernel triangle --global 64,64 --local 16,8 --arg n=16 --local-mem scratch=2048 --gpu a100"
  "predict $P --kernel triangle --global 64,64 --local 16,8 --arg n=16 --local-mem scratch=2048 --gpu a100"
  "predict $P --kernel histo --grid 30 --block 96 --arg n=5 --local-mem scratch=384 --gpu tesla-k20"
  "predict $P --kernel reduce --global 64,16,4 --local 8,4,2 --offset 1,2,3 --arg n=7 --local-mem scratch=64 --gpu v100"
  "analyze $MM --global 128,128 --local 16,16 --arg N=128"
  "predict $MM --global 128,128 --local 16,16 --arg N=128 --regs 40"
  "wgprune $P --kernel stencil2d --global 4096 --arg n=64 --local-arg scratch=4*lx"
)
run() { # build index case -> file
  local b=$1 out=$2 c=$3
  set -- $c
  local tool=$1; shift
  if [ "$tool" = wgprune ]; then
    "$b/bin/wgprune" "$@" --json | sed -E '/"(wall|extract)_ms"/d; /"phases_ms": \{/,/\}/d' > "$out"
  else
    "$b/bin/wgperf" "$tool" "$@" --json > "$out"
  fi
}
fail=0
for i in "${!CASES[@]}"; do
  c=${CASES[$i]}
  run "$1" "$T/ref.$i" "$c" || { echo "determinism: '$c' failed in $1"; fail=1; continue; }
  run "$1" "$T/again.$i" "$c"
  if ! cmp -s "$T/ref.$i" "$T/again.$i"; then
    echo "determinism: two runs of $1 differ on: ${c#"$SRC/"}"; diff "$T/ref.$i" "$T/again.$i" | head -10; fail=1
  fi
  for b in "${@:2}"; do
    run "$b" "$T/other.$i" "$c" || { echo "determinism: '$c' failed in $b"; fail=1; continue; }
    if ! cmp -s "$T/ref.$i" "$T/other.$i"; then
      echo "determinism: $1 and $b differ on: $c"; diff "$T/ref.$i" "$T/other.$i" | head -10; fail=1
    fi
  done
done
[ $fail -eq 0 ] && echo "determinism: ${#CASES[@]} cases byte-identical across 2 runs and $# builds ($*)"
exit $fail
