#!/usr/bin/env bash
# slurm_array.sh SRC DIR N KERNEL_FILE... --space SPACE.json [wgtune options]
# Starts a private single-node Slurm (scripts/slurm-local.sh) in DIR/slurm,
# submits scripts/wgtune-shards.sbatch as a job array of N tasks into
# DIR/shards (paths given must be absolute: the tasks run in DIR), merges
# them in a job that depends on the array (afterok; each job at most 30 min), waits
# for it, and stops the cluster whatever happened. The merged ranking is
# DIR/merged.json. WGTUNE names the wgtune to run.
set -euo pipefail
src=$1
dir=$2
n=$3
shift 3
: "${WGTUNE:?WGTUNE names the wgtune to run}"
"$src/scripts/slurm-local.sh" start "$dir/slurm" > /dev/null
trap '"$src/scripts/slurm-local.sh" stop "$dir/slurm"' EXIT
export SLURM_CONF=$dir/slurm/slurm.conf
jid=$(sbatch --parsable --array=1-"$n" --time=30 --chdir="$dir" --output="$dir/task-%a.log" \
  "$src/scripts/wgtune-shards.sbatch" "$dir/shards" "$@")
echo "submitted an array of $n tasks"
# --kill-on-invalid-dep: if a task fails, the merge is cancelled and --wait
# returns (with 0 for a job cancelled before it started: the files tell)
sbatch --parsable --wait --time=30 --dependency=afterok:"$jid" --kill-on-invalid-dep=yes --chdir="$dir" \
  --output="$dir/merge.log" --wrap "\"$WGTUNE\" merge $dir/shards/shard-*.json --json > $dir/merged.json" > /dev/null || true
ok=1
for k in $(seq 1 "$n"); do
  [ -s "$dir/shards/shard-$k.json" ] || ok=0
done
[ -s "$dir/merged.json" ] || ok=0
if [ $ok = 0 ]; then
  echo "slurm_array: a task or the merge failed; their logs:" >&2
  tail -n 20 "$dir"/task-*.log "$dir/merge.log" >&2 || true
  exit 1
fi
ls "$dir/shards"
