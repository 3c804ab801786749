#!/usr/bin/env bash
# ctest opencl.leak_canary (WGPERF_SANITIZE builds only): the leak check of the
# sanitized suite ignores leaks inside PoCL, its LLVM and the ICD loader
# (test/harden/lsan.supp) and still catches ours.
#   1. leak_canary with an empty PoCL kernel cache (PoCL compiles, and leaks,
#      the most then): must pass;
#   2. leak_canary --plant, which leaks one block from our own code: must fail
#      with LeakSanitizer's report naming planted_leak.
# Exits 77 (ctest: skipped) only when no OpenCL platform exists.
#   leak-canary.sh CANARY WORK_DIR
set -u
canary=${1:?usage: leak-canary.sh CANARY WORK_DIR}
work=${2:?usage: leak-canary.sh CANARY WORK_DIR}
fail() { echo "FAIL: $*"; exit 1; }
case ${LSAN_OPTIONS:-} in
  *suppressions=*) ;;
  *) fail "LSAN_OPTIONS names no suppressions file (the sanitized build's ctest sets it: test/CMakeLists.txt)" ;;
esac
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
export POCL_CACHE_DIR=$work/pocl-cache # empty: a cold cache, every run

"$canary" >"$work/clean.out" 2>&1
rc=$?
cat "$work/clean.out"
[ $rc = 77 ] && { echo "SKIP: no OpenCL platform on this machine"; exit 77; }
[ $rc = 0 ] || fail "leak_canary exited $rc with a cold PoCL cache: a leak outside the suppressions (above)"
[ -n "$(ls -A "$POCL_CACHE_DIR" 2>/dev/null)" ] || fail "PoCL wrote nothing to POCL_CACHE_DIR=$POCL_CACHE_DIR"

rm -rf "$POCL_CACHE_DIR"
"$canary" --plant >"$work/planted.out" 2>&1
rc=$?
[ $rc != 0 ] || { cat "$work/planted.out"; fail "a leak planted in our code passed the leak check"; }
grep -q "detected memory leaks" "$work/planted.out" || { cat "$work/planted.out"; fail "exit $rc without a leak report"; }
grep -q "planted_leak" "$work/planted.out" || { cat "$work/planted.out"; fail "the leak report does not name planted_leak"; }
grep -q "SUMMARY: AddressSanitizer: 4096 byte(s) leaked in 1 allocation" "$work/planted.out" ||
  { cat "$work/planted.out"; fail "the report holds more than the planted leak"; }
echo "PASS: PoCL's leaks suppressed on a cold cache; the planted 4096-byte leak reported (exit $rc)"
