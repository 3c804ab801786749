#!/usr/bin/env bash
# slurm_local_checks.sh SRC DIR: what scripts/slurm-local.sh promises beyond
# running jobs: a second start in a running DIR is refused (and leaves the
# cluster running), and each start is a fresh cluster (a job queued before a
# stop is not there after the next start). Stops the cluster whatever happened.
set -euo pipefail
src=$1
dir=$2
local=$src/scripts/slurm-local.sh
"$local" start "$dir" > /dev/null
trap '"$local" stop "$dir"' EXIT
export SLURM_CONF=$dir/slurm.conf
if "$local" start "$dir" 2> "$dir/second.err"; then
  echo "second start: accepted"
else
  echo "second start: refused: $(cat "$dir/second.err")"
fi
echo "node after it: $(sinfo -h -n wgtune-local -o %T)"
sbatch --parsable --hold --wrap true > /dev/null
echo "jobs queued: $(squeue -h | wc -l)"
"$local" stop "$dir"
"$local" start "$dir" > /dev/null
echo "jobs after a restart: $(squeue -h | wc -l)"
