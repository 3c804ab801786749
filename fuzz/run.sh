#!/usr/bin/env bash
# Runs one libFuzzer target for a while on a copy of its seed corpus.
#
#   fuzz/run.sh FUZZ_BUILD TARGET SECONDS [WORKDIR] [-- LIBFUZZER_FLAGS...]
#
# FUZZ_BUILD is a build configured with -DWGPERF_FUZZ=ON (clang), TARGET one
# of model gpu launch_json launch_cli expr estimate space plan.  New inputs go to
# WORKDIR/TARGET/corpus (default: FUZZ_BUILD/fuzz-work), never into
# fuzz/corpus; a crash, hang (an input over -timeout, 20 s by default),
# memory blow-up (-rss_limit_mb, 2048) or contract violation (fuzz/fuzz.h)
# leaves its input in WORKDIR/TARGET/ and fails the run with the command
# that reproduces it.  Used by ctest (fuzz.smoke.*) and for long campaigns
# (docs/fuzzing.md).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:?fuzz build dir}; T=${2:?target}; S=${3:?seconds}; shift 3
W=$B/fuzz-work
if [ $# -gt 0 ] && [ "$1" != "--" ]; then W=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
BIN=$B/bin/fuzz-$T
[ -x "$BIN" ] || { echo "fuzz/run.sh: $BIN not built (configure $B with -DWGPERF_FUZZ=ON)"; exit 2; }
case $T in
  model) D=model ;; gpu) D=gpu ;; launch_json|launch_cli) D=launch ;; expr) D=expr ;;
  estimate) D="model launch" ;; space) D=space ;; plan) D=plan ;; *) echo "fuzz/run.sh: unknown target $T"; exit 2 ;;
esac
mkdir -p "$W/$T/corpus"
DICT=$W/$T/dict
cat "$SRC/fuzz/dict/json.dict" > "$DICT"
for d in $D; do cat "$SRC/fuzz/dict/$d.dict" >> "$DICT"; done
rm -f "$W/$T"/crash-* "$W/$T"/timeout-* "$W/$T"/oom-* "$W/$T"/leak-* "$W/$T"/slow-unit-*
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzz/run.sh: $T for $S s (corpus $W/$T/corpus + fuzz/corpus/$T)"
set +e
"$BIN" -max_total_time="$S" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
  -dict="$DICT" -artifact_prefix="$W/$T/" "$@" \
  "$W/$T/corpus" "$SRC/fuzz/corpus/$T" > "$W/$T/log" 2>&1
rc=$?
set -e
grep -E "^(stat::|Done|INFO: (Seed|seed corpus|A corpus))" "$W/$T/log" | sed 's/^/  /' || true
if [ $rc -ne 0 ]; then
  tail -60 "$W/$T/log"
  for f in "$W/$T"/crash-* "$W/$T"/timeout-* "$W/$T"/oom-* "$W/$T"/leak-*; do
    [ -e "$f" ] || continue
    echo "fuzz/run.sh: $T found $f"
    echo "  reproduce: $BIN $f   (or $B/bin/fuzz-replay-$T $f)"
    echo "  keep it:   cp $f $SRC/fuzz/regress/$T/<what-it-is>  (then fix; see docs/fuzzing.md)"
  done
  exit 1
fi
exit 0
