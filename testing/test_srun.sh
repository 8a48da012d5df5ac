#!/usr/bin/env bash
# test_srun.sh --build DIR [--cluster PATH] [--flavour mpich|openmpi] CASE
# hpdaemon-run in front of SLURM's srun.
#   args   what hpdaemon-run hands a stand-in srun: the preload and the HPD_ variables in
#          --export (merged with the line's own, NONE included), the MPI plugin of the
#          program's MPI added, the preload kept out of srun itself; and its refusals (a
#          plugin the program's MPI cannot use, ScaLAPACK linked statically)
#   slurm  a real SLURM on 2 emulated hosts (scripts/cluster --launcher none): munge, a
#          controller in the control namespace, a node daemon on each host; the unmodified
#          ScaLAPACK program lu_plain as 2 ranks, one per host, through
#          "hpdaemon-run --report -- srun": one report, whose job spans both hosts, and
#          nothing of the run left afterwards
# Exit 77 (skipped) where slurm-wlm or munge is not installed (scripts/setup installs them),
# or where the hosts or the daemons cannot start.
set -uo pipefail
readonly skip_status=77

# ---- inside the emulated cluster: the control namespace ----------------------------------
# test_srun.sh inside DIR BUILD: stand SLURM up over CLUSTER_HOSTS, run the job, stop it all.
if [[ ${1-} == inside ]]; then
  dir=$2 build=$3
  read -ra names <<<"$CLUSTER_HOSTS"
  read -ra addresses <<<"$CLUSTER_ADDRESSES"
  daemons=()
  # Stopped daemons are reaped here: this shell is their parent, and a zombie answers
  # kill -0 as if it still ran.
  running() { [[ -e /proc/$1 && $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) != Z* ]]; }
  stop_daemons() {
    local pid
    for pid in "${daemons[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    for pid in "${daemons[@]}"; do
      for _ in $(seq 50); do running "$pid" || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
    done
  }
  trap stop_daemons EXIT
  trap 'exit 143' TERM INT
  cannot() {
    echo "SKIPPED: SLURM cannot start here: $*"
    tail -n 5 "$dir"/*.log 2>/dev/null
    exit $skip_status
  }

  # One munge daemon serves every host: they share this machine's file system, where its
  # socket lives, and it needs no network.
  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none && chmod 600 "$dir/munge.key"
  munged --foreground --force --socket="$dir/munge.socket" --key-file="$dir/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" \
    > "$dir/munged.out" 2>&1 &
  daemons+=($!)
  for _ in $(seq 50); do [[ -S $dir/munge.socket ]] && break; sleep 0.1; done
  [[ -S $dir/munge.socket ]] || cannot "munged did not start"

  conf=$dir/slurm.conf
  mkdir -p "$dir/state" "$dir/pmix"
  cat > "$conf" <<CONF
ClusterName=hpd
SlurmctldHost=$(hostname)($CLUSTER_CONTROL)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
CONF
  for i in "${!names[@]}"; do
    echo "NodeName=${names[i]} NodeAddr=${addresses[i]} CPUs=$(nproc) State=UNKNOWN" >> "$conf"
  done
  echo "PartitionName=hosts Nodes=ALL Default=YES MaxTime=5 State=UP" >> "$conf"
  # The hosts' /sys is a fresh one without cgroup trees, where the plugin's detection
  # fails; nothing here uses cgroups, and the v1 plugin looks for no tree at start.
  echo "CgroupPlugin=cgroup/v1" > "$dir/cgroup.conf"
  # Every host would make the same PMIx directory for a step in the shared /tmp: each host
  # sees its own folder at this one path.
  echo "PMIxCliTmpDirBase=$dir/pmix" > "$dir/mpi.conf"
  export SLURM_CONF=$conf

  slurmctld -D -f "$conf" > "$dir/slurmctld.out" 2>&1 &
  daemons+=($!)
  for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q 'is UP' && break; sleep 0.1; done
  scontrol ping 2>/dev/null | grep -q 'is UP' || cannot "slurmctld did not answer"
  for name in "${names[@]}"; do
    mkdir -p "$dir/spool-$name" "$dir/pmix-$name"
    "$CLUSTER_ENTER" "$name" "mount --bind '$dir/pmix-$name' '$dir/pmix' && exec slurmd -D -f '$conf'" \
      > "$dir/slurmd-$name.out" 2>&1 &
    daemons+=($!)
  done
  for _ in $(seq 200); do
    (($(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l) == ${#names[@]})) && break
    sleep 0.1
  done
  (($(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l) == ${#names[@]})) ||
    cannot "the node daemons did not register ($(sinfo -h -N -o '%N %T' 2>/dev/null | tr '\n' ' '))"
  echo "slurm: controller at $CLUSTER_CONTROL, nodes idle: $(sinfo -h -N -t idle -o %N | sort -u | tr '\n' ' ')"

  # No --mpi on the line and MpiDefault=none: hpdaemon-run must add the plugin, or each
  # rank starts alone and the report sees one host.
  LD_PRELOAD=$CLUSTER_PRELOAD timeout 60 "$build/hpdaemon-run" --report -- \
    srun -N "${#names[@]}" -n "${#names[@]}" --ntasks-per-node=1 -t 2 "$build/testing/lu_plain" &
  wait $!
  exit $?
fi

build="" cluster="" flavour=mpich case=""
while (($#)); do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --cluster) cluster=$2; shift 2 ;;
    --flavour) flavour=$2; shift 2 ;;
    *) case=$1; shift ;;
  esac
done
build=$(cd "$build" && pwd)
run=$build/hpdaemon-run program=$build/testing/lu_plain
work=$(mktemp -d /tmp/hpdsrun.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export OPENBLAS_NUM_THREADS=1

case "$case" in
  args)
    # A stand-in srun that shows what it was given.
    mkdir "$work/bin"
    cat > "$work/bin/srun" <<'EOF'
#!/usr/bin/env bash
echo "args: $*"
echo "own preload: ${LD_PRELOAD-none}"
EOF
    chmod +x "$work/bin/srun"
    export PATH=$work/bin:$PATH
    # Only the variables each line sets, so that the expected lists are exact.
    for name in $(compgen -e | grep '^HPD_'); do unset "$name"; done
    library=$build/libhpdaemon-$flavour.so plugin=pmi2 other=pmix guard=$build/libhpdaemon_finalize_guard.so
    [[ $flavour == openmpi ]] && plugin=pmix other=none
    expect() { # OUTPUT PATTERN WHAT
      grep -Eq -- "$2" <<<"$1" || fail "$3: expected /$2/ in: $1"
      echo "ok: $3"
    }
    out=$(HPD_WAIT=sleep LD_PRELOAD=$guard "$run" --report -- srun -N 2 -n 2 "$program" --export=x 2>&1)
    expect "$out" "^args: --export=ALL,LD_PRELOAD=$library\.[0-9]+:$guard,HPD_REPORT,HPD_WAIT --mpi=$plugin -N 2 -n 2 $program --export=x$" \
      "ALL, the preload first, every HPD_ variable by name, the plugin added, the program's own words untouched"
    expect "$out" "^own preload: none$" "nothing preloaded into srun itself"
    out=$(HPD_REPORT=x "$run" -- "$work/bin/srun" --export PATH,HPD_REPORT=summary,LD_PRELOAD=/a.so --mpi "$plugin" "$program" 2>&1)
    expect "$out" "^args: --export=PATH,HPD_REPORT=summary,LD_PRELOAD=$library\.[0-9]+:/a\.so --mpi $plugin $program$" \
      "a list of the line's own merged, its preload after hpdaemon, its HPD_ value kept, its plugin kept"
    out=$(SLURM_EXPORT_ENV=NONE "$run" -- srun "$program" 2>&1)
    expect "$out" "^args: --export=LD_PRELOAD=$library\.[0-9]+ --mpi=$plugin $program$" \
      "SLURM_EXPORT_ENV=NONE: hpdaemon's variables alone"
    out=$("$run" -- srun --mpi="$other" -n 2 "$program" 2>&1)
    status=$?
    ((status == 2)) || fail "a plugin the program's MPI cannot use: status $status, not 2: $out"
    expect "$out" "lu_plain uses [^,]+, whose ranks find each other through srun's $plugin plugin, not --mpi=$other" \
      "--mpi=$other refused"
    out=$(SLURM_MPI_TYPE=$other "$run" -- srun "$program" 2>&1)
    expect "$out" "not SLURM_MPI_TYPE=$other" "SLURM_MPI_TYPE=$other refused"
    out=$("$run" -- srun -n 1 "$build/testing/static_scalapack_like" 2>&1)
    expect "$out" "is linked statically against ScaLAPACK" "ScaLAPACK linked statically refused"
    echo "srun args: all ok" ;;
  slurm)
    for tool in srun sinfo scontrol slurmctld slurmd munged; do
      command -v "$tool" >/dev/null ||
        { echo "SKIPPED: no $tool here (scripts/setup installs slurm-wlm and munge)"; exit $skip_status; }
    done
    id=hpdr$$
    start=$SECONDS
    "$cluster" --hosts 2 --rate none --launcher none --run-id "$id" -- \
      bash "$0" inside "$work" "$build" > "$work/out" 2>&1 &
    cluster_pid=$!
    # The tool takes everything down on SIGTERM: it must get one when this test does.
    trap 'kill -TERM $cluster_pid 2>/dev/null; wait $cluster_pid; cat "$work/out"; exit 143' TERM INT
    wait $cluster_pid
    status=$?
    trap - TERM INT
    cat "$work/out"
    ((status == skip_status)) && { echo "SKIPPED: no emulated hosts or no SLURM here"; exit $skip_status; }
    ((status == 0)) || fail "the job failed (status $status)"
    left=$({ ip netns list; ip -o link show; } | grep -c "$id")
    ((left == 0)) || fail "run $id left $left namespaces or links behind"
    for proc in /proc/[0-9]*; do
      grep -qsF "$work" "$proc/cmdline" && fail "a daemon of the run is still there: $(tr '\0' ' ' < "$proc/cmdline")"
    done
    grep -Eq '^[0-9]+ passed, 0 failed$' "$work/out" || fail "no passing summary"
    reports=$(grep -c 'hpdaemon .* report (rank' "$work/out")
    ((reports == 1)) || fail "$reports reports, not one (each rank started alone?)"
    grep -Eq '^ *job: 2 ranks on 2 nodes, 1 per node: hpd-node1, hpd-node2$' "$work/out" ||
      fail "the report's job does not span both hosts"
    echo "srun: 2 ranks on hpd-node1 and hpd-node2 in $((SECONDS - start)) s, nothing left: ok" ;;
  *) echo "test_srun.sh: unknown case '$case'" >&2; exit 2 ;;
esac
