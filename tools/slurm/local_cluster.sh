#!/usr/bin/env bash
# A one-node Slurm cluster on localhost in a folder of its own, for tests
# and trying `kopt slurm` (docs/scale-out.md): MUNGE with its own key and
# socket, slurmctld and slurmd as root with their state, spool, logs and
# ports under DIR. Nothing under /etc, /run or /var is used or changed.
#
#   source tools/slurm/local_cluster.sh
#   kopt_slurm_start DIR    # prints the exports to use it; sets SLURM_CONF
#   kopt_slurm_stop DIR     # stops what start started (safe to call twice)
#
# Needs slurm-wlm and munge (Debian: apt-get install slurm-wlm munge), root.

# Why the cluster cannot be started here, or nothing.
kopt_slurm_missing() {
  local tool
  for tool in munged slurmctld slurmd sbatch squeue scontrol scancel; do
    command -v "$tool" > /dev/null 2>&1 || { echo "$tool not found (apt-get install slurm-wlm munge)"; return; }
  done
  [[ $(id -u) == 0 ]] || echo "not root (slurmd runs jobs as root here)"
}

# A TCP port nobody listens on, from a range unlikely to be used.
_kopt_free_port() {
  local port
  for ((port = $1; port < $1 + 200; port++)); do
    if ! (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
      echo "$port"
      return
    fi
  done
  return 1
}

kopt_slurm_start() {
  local dir=$1
  mkdir -p "$dir"/{munge,state,spool,log}
  chmod 700 "$dir/munge"
  # MUNGE: its own key and socket.
  head -c 1024 /dev/urandom > "$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" ||
    return 1
  local node cpus memory base ctld_port slurmd_port
  node=$(hostname -s)
  cpus=$(nproc)
  # What slurmd measures, less a margin so that the node is never drained for memory.
  memory=$(($(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) * 9 / 10))
  base=$((20000 + ($$ % 200) * 50))
  ctld_port=$(_kopt_free_port "$base") && slurmd_port=$(_kopt_free_port $((ctld_port + 1))) || return 1
  cat > "$dir/slurm.conf" << CONF
ClusterName=kopt-local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=600
KillWait=5
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF" || return 1
  slurmd -f "$SLURM_CONF" || return 1
  # Up when the node answers idle.
  local t
  for ((t = 0; t < 120; t++)); do
    if sinfo -h -N -o '%T' 2> /dev/null | grep -qE '^(idle|mixed|allocated)'; then
      echo "export SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    sleep 0.5
  done
  echo "the local Slurm did not come up in 60 s:" >&2
  sinfo -N >&2 || true
  tail -20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  return 1
}

# Never fails (a cleanup step under set -e).
kopt_slurm_stop() {
  local dir=$1 name pid t
  # Jobs first, so that no job step outlives slurmd.
  if [[ -f "$dir/slurmctld.pid" ]] && kill -0 "$(cat "$dir/slurmctld.pid")" 2> /dev/null; then
    SLURM_CONF=$dir/slurm.conf scancel --user="$(id -un)" 2> /dev/null || true
    for ((t = 0; t < 50; t++)); do
      [[ -z $(SLURM_CONF=$dir/slurm.conf squeue -h 2> /dev/null) ]] && break
      sleep 0.2
    done
  fi
  for name in slurmd slurmctld munge/munged; do
    [[ -f "$dir/$name.pid" ]] || continue
    pid=$(cat "$dir/$name.pid")
    if [[ -n $pid ]] && kill -0 "$pid" 2> /dev/null; then
      kill -TERM "$pid" 2> /dev/null || true
      for ((t = 0; t < 50; t++)); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2> /dev/null || true
    fi
    rm -f "$dir/$name.pid"
  done
  return 0
}
