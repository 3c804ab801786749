#!/usr/bin/env bash
# A private single-node Slurm cluster on this machine, for trying a job array
# (scripts/wgtune-shards.sbatch) before a real cluster, and for its test.
#
#   scripts/slurm-local.sh start DIR    start munged, slurmctld and slurmd; print SLURM_CONF
#   scripts/slurm-local.sh stop DIR     stop them and remove their sockets
#
# DIR holds the configuration (DIR/slurm.conf), the controller's state and the
# logs (DIR/log/). The sockets (munge's and slurmd's spool) live in a short
# folder under /tmp, named in DIR/runtime, because a Unix socket's path may not
# exceed 107 bytes. Ports are chosen free; the node is this machine with all
# its CPUs, named "wgtune-local"; nothing outside DIR and that folder is touched
# (not /etc/slurm, not the system's munge). Needs Debian's slurm-wlm and munge
# (scripts/install-deps.sh installs them) and root: slurmd starts every job as
# the user who submitted it.
#
# Then, in the same shell:
#   export SLURM_CONF=DIR/slurm.conf
#   sinfo; sbatch ...; scripts/slurm-local.sh stop DIR
set -euo pipefail

usage() {
  echo "usage: scripts/slurm-local.sh start|stop DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
cmd=$1
dir=$2
case $cmd in start | stop) ;; *) usage ;; esac

die() {
  echo "slurm-local: $*" >&2
  exit 1
}

# the last lines of each log, for a start that failed
logs() {
  local f
  for f in "$dir"/log/*.log; do
    [ -s "$f" ] || continue
    echo "--- $f" >&2
    tail -n 15 "$f" >&2
  done
}

stop_pid() { # PIDFILE NAME: TERM, then wait up to 30 s, then KILL
  local pf=$1 name=$2 pid i
  [ -f "$pf" ] || return 0
  pid=$(cat "$pf" 2>/dev/null || true)
  rm -f "$pf"
  case $pid in '' | *[!0-9]*) return 0 ;; esac
  kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for i in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "slurm-local: $name (pid $pid) did not stop in 30 s; killed" >&2
  kill -9 "$pid" 2>/dev/null || true
}

if [ "$cmd" = stop ]; then
  [ -d "$dir" ] || die "$dir: no such folder (nothing started there)"
  run=$(cat "$dir/runtime" 2>/dev/null || true)
  stop_pid "$dir/slurmd.pid" slurmd
  stop_pid "$dir/slurmctld.pid" slurmctld
  if [ -n "$run" ]; then
    stop_pid "$run/munged.pid" munged
    case $run in /tmp/wgslurm.*) rm -rf "$run" ;; esac
  fi
  rm -f "$dir/runtime"
  exit 0
fi

PATH=$PATH:/usr/sbin # the daemons, for a user whose PATH leaves it out
for t in munged slurmctld slurmd sinfo; do
  command -v "$t" > /dev/null 2>&1 ||
    die "$t not found: install Debian's slurm-wlm and munge (scripts/install-deps.sh does)"
done
[ "$(id -u)" -eq 0 ] || die "needs root: slurmd starts each job as the user who submitted it"
[ -e "$dir/runtime" ] && die "$dir: a cluster is running there already (scripts/slurm-local.sh stop $dir)"

# a fresh cluster each start: no jobs recovered from a previous one
rm -rf "$dir/state"
mkdir -p "$dir/state" "$dir/log"
dir=$(cd "$dir" && pwd)
run=$(mktemp -d /tmp/wgslurm.XXXXXX)
echo "$run" > "$dir/runtime"
chmod 0755 "$run"
mkdir -p "$run/munge" "$run/spool"
chmod 0700 "$run/munge"
# If anything below fails, what was started stops again.
trap 'status=$?; if [ $status -ne 0 ]; then logs; "$0" stop "$dir" || true; fi' EXIT

# munge: a key of its own, its socket in a folder everyone may traverse
dd if=/dev/urandom of="$run/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$run/munge/munge.key"
munged --force --socket="$run/munge.sock" --key-file="$run/munge/munge.key" \
  --log-file="$dir/log/munged.log" --pid-file="$run/munged.pid" --seed-file="$run/munge/munged.seed" ||
  die "munged did not start"

# two free TCP ports, for slurmctld and slurmd
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))
')

host=$(hostname -s)
cat > "$dir/slurm.conf" << EOF
# written by scripts/slurm-local.sh: a single-node cluster on $host
ClusterName=wgtunelocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$run/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$run/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
NodeName=wgtune-local NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=wgtune-local Default=YES MaxTime=INFINITE State=UP
EOF

export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" || die "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N wgtune-local || die "slurmd did not start"

# ready when the node is idle (a loaded machine may take a while: up to 5 min)
state=
for i in $(seq 1 600); do
  state=$(sinfo -h -n wgtune-local -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || die "the node did not come up in 5 minutes (state: ${state:-none})"
echo "SLURM_CONF=$SLURM_CONF"
