#!/bin/bash
# make check-slurm: the map step under a real Slurm on this machine. Starts
# munged, slurmctld and slurmd (private keys, ports, state and logs in a
# temporary directory), runs contrib/slurm/htx-summarize.sbatch as a job
# array and `srun -n 2 htx summarize --shard=auto`, checks that both made
# the summaries one process makes, and stops everything it started. Skips
# (exit 77) with the reason when Slurm is not installed or cannot start.
. "$(dirname "$0")/../lib.sh"

for cmd in munged slurmctld slurmd sbatch srun sinfo scancel; do
    command -v "$cmd" >/dev/null || [ -x "/usr/sbin/$cmd" ] ||
        skip "Slurm is not installed ($cmd missing: apt-get install slurm-wlm munge)"
done
PATH=$PATH:/usr/sbin
gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"

# A short path: munge's socket must fit a Unix socket name.
d=$(mktemp -d /tmp/htx-slurm.XXXXXX)
# Stops what this test started and waits until it is gone (10 s, then KILL).
stop_all() {
    local f pids=""
    scancel --quiet --user="$(id -un)" 2>/dev/null || true
    for f in slurmd slurmctld munged; do
        [ -f "$d/$f.pid" ] && pids="$pids $(cat "$d/$f.pid")"
    done
    # shellcheck disable=SC2086 # a list of pids
    [ -n "$pids" ] && kill $pids 2>/dev/null || true
    for _ in $(seq 20); do
        # shellcheck disable=SC2086
        kill -0 $pids 2>/dev/null || break
        sleep 0.5
    done
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
    rm -rf "$d" "$tmpdir"
}
trap stop_all EXIT

# A free TCP port from $1 on.
free_port() {
    local p=$1
    while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
    echo "$p"
}
ctld_port=$(free_port $((20000 + RANDOM % 20000)))
slurmd_port=$(free_port $((ctld_port + 1)))
host=$(hostname -s)
user=$(id -un)
cpus=$(nproc)

dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 status=none
chmod 600 "$d/munge.key"
munged --force --key-file="$d/munge.key" --socket="$d/munge.sock" --pid-file="$d/munged.pid" \
    --log-file="$d/munged.log" --seed-file="$d/munge.seed" ||
    skip "munged does not start here: $(tail -n 3 "$d/munged.log" 2>/dev/null)"

mkdir -p "$d/state" "$d/spool"
cat >"$d/slurm.conf" <<CONF
ClusterName=htxcheck
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$d/munge.sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$d/slurm.conf
slurmctld -c || skip "slurmctld does not start here: $(tail -n 3 "$d/slurmctld.log" 2>/dev/null)"
slurmd || skip "slurmd does not start here: $(tail -n 3 "$d/slurmd.log" 2>/dev/null)"
for _ in $(seq 60); do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
    sleep 0.5
done
[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] ||
    skip "the local Slurm node never became idle: $(tail -n 3 "$d/slurmd.log" 2>/dev/null)"
echo "slurm: slurmctld and slurmd up on $host (ports $ctld_port, $slurmd_port)"

cd "$tmp"
"$gen" -q -o job -r 6 -i 2 -l 1
"$HTX" summarize -o seq job || fail "htx summarize failed"

# The job array: 3 tasks over 6 rank files.
export HTX
timeout 180 sbatch --wait --quiet --array=0-2 --output="$tmp/array-%a.out" \
    "$HTX_SRCDIR/contrib/slurm/htx-summarize.sbatch" "$tmp/by-array" job ||
    fail "the array job failed: $(cat "$tmp"/array-*.out 2>/dev/null)"
# One allocation of 2 tasks.
timeout 180 srun -n 2 "$HTX" summarize --shard=auto -o "$tmp/by-srun" job ||
    fail "srun -n 2 htx summarize failed"
for dir in by-array by-srun; do
    [ "$(ls "$dir" 2>/dev/null | wc -l)" = 6 ] || fail "$dir has $(ls "$dir" 2>/dev/null | wc -l) summaries, want 6"
    for f in seq/*.htxs; do
        cmp -s "$f" "$dir/$(basename "$f")" || fail "$dir/$(basename "$f") differs from one process's"
    done
done
"$HTX" report --analysis=temporal by-array >/dev/null || fail "report on the array's summaries failed"
echo "slurm: the array (3 tasks) and srun -n 2 made the 6 summaries one process makes"
