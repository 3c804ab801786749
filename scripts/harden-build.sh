#!/usr/bin/env bash
# Builds the two extra configurations the hardening tests need, inside a main
# build directory (ctest runs it as harden.build.*; incremental after the
# first time):
#   harden-build.sh asan SRC MAIN_BUILD   clang-19, ASan + UBSan: the whole
#        suite (lit, unit, corpus replay), in MAIN_BUILD/harden-asan
#   harden-build.sh fuzz SRC MAIN_BUILD   clang-19, ASan + UBSan + libFuzzer
#        coverage: the fuzzers only, in MAIN_BUILD/harden-fuzz (coverage makes
#        every run half again as slow, so the suite's build goes without it)
#   harden-build.sh O0 SRC MAIN_BUILD     the main C compiler at -O0, only the
#        command-line tools, in MAIN_BUILD/harden-O0 (for the determinism test)
# Both use the main build's plugin (-DWGPERF_PLUGIN): neither instruments it.
set -euo pipefail
KIND=${1:?asan, fuzz or O0}; SRC=${2:?source dir}; MAIN=${3:?main build dir}
GEN=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$MAIN/CMakeCache.txt")
CC_MAIN=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$MAIN/CMakeCache.txt")
CXX_MAIN=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$MAIN/CMakeCache.txt")
CLANG=$(sed -n 's/^WGPERF_CLANG:[A-Z]*=//p' "$MAIN/CMakeCache.txt")
PLUGIN=$MAIN/lib/libwgperf.so
[ -f "$PLUGIN" ] || { echo "harden-build: $PLUGIN not built"; exit 1; }
JOBS=${WGPERF_HARDEN_JOBS:-2}
# the main build's test model cache: the sanitized suite's compiles (same
# plugin, same compilers, same driver sources) are the main suite's hits
CACHE=$(sed -n 's/^WGPERF_TEST_CACHE_DIR:[A-Z]*=//p' "$MAIN/CMakeCache.txt")
CACHE=${CACHE:-$MAIN/test-model-cache}
# configure B [cmake options...]: a tree with the main build's plugin, or the
# configure log and exit 1
configure() {
  local B=$1; shift
  cmake -S "$SRC" -B "$B" -G "$GEN" -DCMAKE_CXX_COMPILER="$CXX_MAIN" -DWGPERF_HARDEN=OFF \
    -DWGPERF_PLUGIN="$PLUGIN" -DWGPERF_TEST_CACHE_DIR="$CACHE" "$@" > "$B.configure.log" 2>&1 || { cat "$B.configure.log"; exit 1; }
}
SANITIZED=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$CLANG" -DWGPERF_SANITIZE=ON)
case $KIND in
  asan)
    configure "$MAIN/harden-asan" "${SANITIZED[@]}" -DWGPERF_FUZZ=OFF
    cmake --build "$MAIN/harden-asan" -j"$JOBS"
    ;;
  fuzz)
    configure "$MAIN/harden-fuzz" "${SANITIZED[@]}" -DWGPERF_FUZZ=ON
    cmake --build "$MAIN/harden-fuzz" -j"$JOBS" --target fuzzers
    ;;
  O0)
    configure "$MAIN/harden-O0" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O0 -g" -DCMAKE_C_COMPILER="$CC_MAIN"
    cmake --build "$MAIN/harden-O0" -j"$JOBS" --target wgperf-cli wgprune
    ;;
  *) echo "harden-build: unknown kind $KIND"; exit 2 ;;
esac
