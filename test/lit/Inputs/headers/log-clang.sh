#!/bin/sh
# WGPERF_CLANG for a test: writes each argument on a line to $CLANG_LOG, then runs
# the real clang ($REAL_CLANG) with them.
printf '%s\n' "$@" >> "$CLANG_LOG"
exec "$REAL_CLANG" "$@"
