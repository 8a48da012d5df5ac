#!/usr/bin/env bash
# The cpufreq tree is put back byte for byte however the job ends.
#   test_dvfs_restore.sh --job PATH --mpiexec PATH TREE CRASH
# TREE: pinned (no userspace governor: every file is a regular file, all compared),
# userspace (scaling_setspeed is written for every switch and not restored, since the
# original governor ignores it, so it is left out) or set-by-user (already under
# userspace at a set speed, which must come back too: everything compared).
# CRASH: none, or how dvfs_job ends after its first call: segv, term, int, abrt (abort())
# or kill on rank 0, or abort (rank 1 calls MPI_Abort); mpiexec then kills the other
# rank.  Between calls the tree must show DVFS at work (pinned at, or set to, the high
# frequency), so that an untouched tree cannot pass for a restored one; the job switches
# around every group (HPD_SWITCH_MIN_MS=0, the paper's rule), so that every call writes.
# Each rank leaves a guardian process behind that restores once the rank is gone, which
# would hide a rank failing to restore by itself.  So the guardians of the ranks that can
# restore by themselves (both after a normal end, rank 0 after a catchable signal) are
# stopped mid-run, and the tree must be back while they are still stopped; they are let
# go afterwards.  The others run free: for SIGKILL, and for the ranks mpiexec kills, they
# are what restores.
set -u
high=2500000
# The job's guardians (of the rank PARENT only, if given): processes with the job's
# environment that a rank forked (same program) into a session of their own.  mpiexec
# starts each rank in its own session too, but from its proxy.
guardians_of() {
  local proc pid stat parent
  for proc in /proc/[0-9]*; do
    pid=${proc#/proc/}
    grep -qsF "HPD_SYSFS_ROOT=$1" "$proc/environ" || continue
    read -ra stat < <(sed 's/.*) //' "$proc/stat" 2>/dev/null) # state ppid pgrp session
    parent=${stat[1]-0}
    [[ -z "${2-}" || "$parent" == "$2" ]] || continue
    [[ "${stat[3]-}" == "$pid" ]] || continue
    [[ "$(cat "$proc/comm")" == "$(cat "/proc/$parent/comm" 2>/dev/null)" ]] && echo "$pid"
  done
}

# The rank that runs this hook: the nearest ancestor running the program PROGRAM.
hook_rank() {
  local pid=$$ comm
  comm=$(basename "$1" | cut -c1-15)
  while ((pid > 1)); do
    pid=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $2}')
    [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$comm" ]] && { echo "$pid"; return; }
  done
}

# Mid-run, on rank 0 once every rank is done with the call: each CPU's domain has been
# left at the high frequency by the call's last multiply.
#   test_dvfs_restore.sh hook PROGRAM TREE-KIND TREE [both|rank0 STOPPED-LIST]
if [[ "${1-}" == hook ]]; then
  program=$2 kind=$3 tree=$4 which=${5-} stopped=${6-} bad=0 want=2
  if [[ -n "$stopped" ]]; then
    if [[ "$which" == both ]]; then
      pids=$(guardians_of "$tree")
    else
      pids=$(guardians_of "$tree" "$(hook_rank "$program")") want=1
    fi
    [[ $(echo "$pids" | wc -w) == "$want" ]] ||
      { echo "mid-run: guardians found: '$pids', expected $want" >&2; bad=1; }
    for pid in $pids; do kill -STOP "$pid" && echo "$pid" >>"$stopped"; done
  fi
  for f in "$tree"/cpu*/cpufreq; do
    if [[ "$kind" == pinned ]]; then
      [[ "$(cat "$f/scaling_min_freq")" == "$high" && "$(cat "$f/scaling_max_freq")" == "$high" &&
         "$(cat "$f/scaling_governor")" == schedutil ]] || bad=1
    else
      [[ "$(cat "$f/scaling_governor")" == userspace &&
        "$(cat "$f/scaling_setspeed")" == "$high" ]] || bad=1
    fi
  done
  if ((bad)); then
    echo "mid-run: the tree is not at the high frequency:" >&2
    grep -H . "$tree"/cpu*/cpufreq/scaling_{governor,min_freq,max_freq,setspeed} >&2
  fi
  exit $bad
fi

source "$(dirname "$0")/test_dvfs_common.sh"

kind=${ARGS[0]} crash=${ARGS[1]}
tree=$WORK/tree snap=$WORK/snapshot except=()
case "$kind" in
  pinned) fake_build "$tree" --no-userspace ;;
  userspace) fake_build "$tree"; except=(--except scaling_setspeed) ;;
  set-by-user) fake_build "$tree" --set-by-user ;;
  *) echo "unknown tree $kind" >&2; exit 2 ;;
esac
fake_snapshot "$tree" "$snap"
stopped="" which=""
case "$crash" in
  none) stopped=$WORK/stopped-guardians which=both ;;
  term|int|segv|abrt) stopped=$WORK/stopped-guardians which=rank0 ;;
esac
# Whatever happens, stopped guardians go on (and end) once the checks are done.
release_guardians() {
  [[ -n "$stopped" && -f "$stopped" ]] || return 0
  local pid
  sort -u "$stopped" | while read -r pid; do kill -CONT "$pid" 2>/dev/null; done
  rm -f "$stopped"
}
trap 'release_guardians; dvfs_cleanup' EXIT

status=0
run_job "$WORK/out" HPD_DVFS=sysfs HPD_SYSFS_ROOT="$tree" HPD_STRATEGY=daemon HPD_NGRP=3 \
  HPD_SWITCH_MIN_MS=0 -- -bind-to core -n 2 -- -n 256 -b 32 -p 1 -q 2 --calls 2 --crash "$crash" \
  --expect-backend sysfs --expect-applied 1 \
  --after-call "bash '$0' hook '$JOB' $kind '$tree' $which $stopped" || status=$?

grep -Eq '^call 0: .* ok ' "$WORK/out" || fail "the first call did not complete correctly"
grep -q 'after-call command' "$WORK/out" && fail "the tree was not switched mid-run"
grep -q 'failures before --crash' "$WORK/out" && fail "the job found failures before crashing"
if [[ "$crash" == none ]]; then
  expect_clean_job "$WORK/out" $status
else
  ((status != 0)) || fail "the job was to crash ($crash) but exited 0"
  grep -q '^call 1:' "$WORK/out" && fail "the job went on after --crash $crash"
fi

if fake_wait_restored "$tree" "$snap" ${except[@]+"${except[@]}"}; then
  echo "tree restored${stopped:+ while the guardians ($which) were stopped}"
else
  fail "the tree was not restored after the job ($crash)${stopped:+, guardians ($which) stopped}"
fi
if [[ -n "$stopped" ]]; then
  [[ -s "$stopped" ]] || fail "no guardian was stopped"
  release_guardians
  fake_wait_restored "$tree" "$snap" ${except[@]+"${except[@]}"} ||
    fail "the tree changed once the guardians went on"
fi
# Nothing of the job may outlive it for long: the guardians exit once the tree is back.
for ((i = 0; i < 50; i++)); do
  left=$(grep -lsF "HPD_SYSFS_ROOT=$tree" /proc/[0-9]*/environ | grep -v "^/proc/$$/" || true)
  [[ -z "$left" ]] && break
  sleep 0.1
done
[[ -z "$left" ]] || fail "processes of the job still running: $left"
finish
