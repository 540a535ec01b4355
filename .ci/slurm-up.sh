#!/usr/bin/env bash
# Start a single-node Slurm cluster (Debian 12 / Slurm 22.05) without systemd, for the sweep
# harness tests (tests/harness/test_slurm.sh). Run as root. Idempotent: when the node is
# already idle it does nothing. Recipe and pitfalls: ../shared/howto/slurm-local.md (beside
# the project root).
# Also installs gnuplot-nox (report/plot tests) when missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

# (sinfo blocks ~10 s when no controller runs: ask it only when slurmctld's pid is alive)
if [ -s /run/slurm/slurmctld.pid ] && kill -0 "$(cat /run/slurm/slurmctld.pid)" 2>/dev/null &&
   sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
  echo "slurm-up: already running"; sinfo; exit 0
fi

# 1. Packages (the postinst starts nothing: no init system)
need=""
for p in slurmctld slurmd slurm-client munge; do dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"; done
command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
if [ -n "$need" ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $need >/dev/null
fi

# 2. munge: key from the postinst; /run/munge is a tmpfs directory created here
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
install -d -o munge -g munge -m 0755 /run/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 1 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
fi
munge -n | unmunge >/dev/null          # fails loudly if munged is not usable

# 3. Slurm directories (writable by SlurmUser=slurm for the controller)
install -d -o slurm -g slurm -m 0755 /var/spool/slurmctld /run/slurm /var/log/slurm
install -d -o root  -g root  -m 0755 /var/spool/slurmd

# 4. slurm.conf: the node line from the hardware (slurmd -C), memory lowered
MEM_MB=$(( $(awk '/MemAvailable/ {print $2}' /proc/meminfo) / 1024 * 8 / 10 ))
NODELINE=$(slurmd -C | head -1 | sed -E "s/RealMemory=[0-9]+/RealMemory=${MEM_MB}/")
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=ci
SlurmctldHost=localhost
SlurmUser=slurm
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
${NODELINE} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
# No cgroup.conf: nothing uses cgroups with linuxproc/none/none, and Slurm 22.05 rejects
# CgroupPlugin=disabled.

# 5. Daemons (they daemonize themselves); skip one that is already running
running() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
running /run/slurm/slurmctld.pid || /usr/sbin/slurmctld
running /run/slurm/slurmd.pid || /usr/sbin/slurmd

# 6. Wait until the node is idle (max ~30 s)
for _ in $(seq 1 150); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then break; fi
  sleep 0.2
done
sinfo -h -o '%T' | grep -qx idle || { tail -n 30 /var/log/slurm/*.log; exit 1; }
for f in /run/slurm/slurmctld.pid /run/slurm/slurmd.pid; do
  for _ in $(seq 1 50); do [ -s "$f" ] && break; sleep 0.1; done
done
sinfo
