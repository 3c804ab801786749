#!/bin/sh
# WGPERF_PTXAS for a test: writes each argument on a line to $PTXAS_LOG and
# fails, as a ptxas that cannot compile would (the driver then falls back to
# the IR estimate).
printf '%s\n' "$@" >> "$PTXAS_LOG"
exit 1
