#!/usr/bin/env bash
# test_cluster.sh --cluster PATH --build DIR CASE
# Emulated hosts (scripts/cluster).  Exit 77 (skipped) where namespaces cannot be made.
#   identity  3 hosts x 2 ranks: one host name and boot id per host, each shared by its two
#             ranks, none shared across hosts; nothing of the run left afterwards
#   sigterm   a run stopped with SIGTERM mid-way leaves nothing behind
#   pdgemm_4x1  4 hosts x 1 rank at 1 Gbit/s: the pdgemm sweep on 2x2; the report counts 4
#             nodes and every rank's calls
#   pdgemm_3x2  3 hosts x 2 ranks dealt cyclically: the pdgemm sweep on 2x2, 1x3 and 3x1
#   pdsyrk_4x1, pdsyrk_3x2  the pdsyrk sweep on 2x2, 1x3 and 3x1, 4 hosts x 1 rank and
#             3 hosts x 2 ranks
#   bcast     2 hosts x 2 ranks dealt cyclically (each row of ranks interleaves hosts):
#             every broadcast algorithm, any root
#   warning   2 hosts x 2 ranks, a bad HPD_WAIT on every rank: one warning per host,
#             naming it
#   nodes     3 hosts x 2 ranks dealt cyclically: the nodes learned from host names are
#             those the shared-memory split gives, each led by its lowest rank
#   dvfs      2 hosts x 2 ranks (bound to a core each), each host its own fake cpufreq
#             tree: both trees at the high frequency between calls, both put back after a
#             normal end, and again after SIGTERM to one rank of host 2 mid-run
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# Mid-run hooks, run by rank 0 (on host 1) between calls of testing/dvfs_job:
#   test_cluster.sh at-high TREES: every CPU of every host's tree is at the high frequency
#   test_cluster.sh term-host2 TREES: at-high, then on the first call SIGTERM to one rank
#                                     of host 2
if [[ ${1-} == at-high || ${1-} == term-host2 ]]; then
  bad=0
  for f in "$2"/hpd-node*/cpu*/cpufreq; do
    [[ $(cat "$f/scaling_governor") == userspace && $(cat "$f/scaling_setspeed") == 2500000 ]] ||
      { echo "mid-run: $f is not at the high frequency" >&2; bad=1; }
  done
  if [[ $1 == at-high ]] || ((bad)); then exit $bad; fi
  ((DVFS_JOB_CALL == 0)) || exit 0
  for proc in /proc/[0-9]*; do
    [[ $(cat "$proc/comm" 2>/dev/null) == dvfs_job ]] || continue
    grep -qsF "HPD_SYSFS_ROOT=$2/hpd-node2" "$proc/environ" || continue
    # A rank, not a guardian (which a rank forked).
    parent=$(sed 's/.*) //' "$proc/stat" | awk '{ print $2 }')
    [[ $(cat "/proc/$parent/comm" 2>/dev/null) != dvfs_job ]] || continue
    echo "mid-run: SIGTERM to rank process ${proc#/proc/} on hpd-node2" >&2
    kill -TERM "${proc#/proc/}"
    exit 0
  done
  echo "mid-run: no rank of hpd-node2 found" >&2
  exit 1
fi
cluster="" build="" case=""
while (($#)); do
  case "$1" in
    --cluster) cluster=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) case=$1; shift ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# run OUTPUT CLUSTER-ARGS... -- PROGRAM...: the tool's status; 77 passes through as a skip.
run() {
  local out=$1; shift
  "$cluster" "$@" > "$out" 2>&1
  local status=$?
  if ((status == 77)); then cat "$out"; echo "SKIPPED: no emulated hosts here"; exit 77; fi
  return $status
}
left_of() { # anything named after run id $1
  { ip netns list; ip -o link show; ls /sys/fs/cgroup/cpu /sys/fs/cgroup 2>/dev/null; } | grep -c "$1"
}
export OPENBLAS_NUM_THREADS=1

case "$case" in
  identity)
    id=hpdt$$
    run "$work/out" --hosts 3 --ranks-per-host 2 --run-id "$id" -- \
      bash -c 'echo "id $(hostname) $(cat /proc/sys/kernel/random/boot_id) $PMI_RANK"' ||
      fail "the run failed: $(cat "$work/out")"
    cat "$work/out"
    hosts=$(awk '$1 == "id" { print $2 }' "$work/out" | sort -u | wc -l)
    boots=$(awk '$1 == "id" { print $3 }' "$work/out" | sort -u | wc -l)
    pairs=$(awk '$1 == "id" { print $2, $3 }' "$work/out" | sort -u | wc -l)
    per_host=$(awk '$1 == "id" { print $2 }' "$work/out" | sort | uniq -c | awk '{ print $1 }' | sort -u)
    ((hosts == 3 && boots == 3 && pairs == 3)) || fail "expected 3 hosts with 3 boot ids, got $hosts, $boots, $pairs pairs"
    [[ $per_host == 2 ]] || fail "expected 2 ranks per host, got: $per_host"
    (($(left_of "$id") == 0)) || fail "run $id left something behind"
    echo "identity: 3 hosts, 2 ranks each, own boot ids; nothing left: ok" ;;
  sigterm)
    id=hpds$$
    "$cluster" --hosts 2 --run-id "$id" -- sleep 60 > "$work/out" 2>&1 &
    pid=$!
    for _ in $(seq 50); do ip netns list | grep -q "$id-h2" && break; sleep 0.2; done
    ip netns list | grep -q "$id-h2" || { wait $pid; [[ $? == 77 ]] && exit 77; fail "the hosts never came up"; }
    sleep 1
    kill -TERM $pid
    { wait $pid; } 2>/dev/null # without the shell's "Terminated" line
    status=$?
    ((status == 143)) || fail "expected status 143 after SIGTERM, got $status"
    (($(left_of "$id") == 0)) || fail "run $id left something behind after SIGTERM"
    echo "sigterm: status 143, nothing left: ok" ;;
  pdgemm_4x1)
    HPD_REPORT=json:$work/report.json run "$work/out" --hosts 4 --rate 1gbit -- \
      "$build/testing/pdgemm_check" --grids 2x2 --quick ||
      fail "the sweep failed: $(tail -20 "$work/out")"
    tail -3 "$work/out"
    grep -q "passed, 0 failed" "$work/out" || fail "no passing summary"
    python3 - "$work/report.json" <<'PY' || fail "the report's job figures are wrong"
import json, sys
job = json.load(open(sys.argv[1]))["job"]
calls = job["routines"]["pdgemm"]["calls"]
ok = job["gathered"] == 1 and job["nodes"] == 4 and job["ranks"] == 4 \
    and job["ranks_per_node_min"] == 1 and len(job["hosts"]) == 4 \
    and calls["min"] > 0 and calls["sum"] == 4 * calls["min"]
print("report: nodes", job["nodes"], "hosts", job["hosts"], "pdgemm calls", calls)
sys.exit(0 if ok else 1)
PY
    echo "pdgemm: 4 hosts ok" ;;
  pdgemm_3x2|pdsyrk_4x1|pdsyrk_3x2)
    routine=${case%_*} layout=(--hosts 3 --ranks-per-host 2 --order cyclic)
    [[ $case == *_4x1 ]] && layout=(--hosts 4)
    run "$work/out" "${layout[@]}" -- "$build/testing/${routine}_check" \
      --grids 2x2,1x3,3x1 --quick || fail "the sweep failed: $(tail -20 "$work/out")"
    tail -2 "$work/out"
    grep -q "passed, 0 failed" "$work/out" || fail "no passing summary" ;;
  strategy)
    # The default strategy across two hosts is auto; HPD_STRATEGY still wins.
    env -u HPD_STRATEGY "$cluster" --hosts 2 -- "$build/testing/test_strategy_default" \
      > "$work/out" 2>&1
    status=$?
    ((status == 77)) && { cat "$work/out"; echo "SKIPPED: no emulated hosts here"; exit 77; }
    cat "$work/out"
    ((status == 0)) && grep -q "2 node(s), HPD_STRATEGY unset, 4 of 4 engine calls under auto" \
      "$work/out" || fail "the default across two hosts is not auto"
    HPD_STRATEGY=daemon run "$work/out" --hosts 2 -- "$build/testing/test_strategy_default" ||
      fail "HPD_STRATEGY=daemon across two hosts: $(tail -5 "$work/out")"
    grep -q "0 of 4 engine calls under auto" "$work/out" || fail "HPD_STRATEGY=daemon lost"
    echo "strategy: auto across hosts by default, HPD_STRATEGY wins: ok" ;;
  bcast)
    run "$work/out" --hosts 2 --ranks-per-host 2 --order cyclic -- "$build/testing/test_bcast" \
      --quick --wait sleep || fail "the broadcasts failed: $(tail -20 "$work/out")"
    tail -1 "$work/out"
    grep -qE "[0-9]+ passed, 0 failed" "$work/out" || fail "no passing summary" ;;
  nodes)
    run "$work/out" --hosts 3 --ranks-per-host 2 --order cyclic -- \
      "$build/testing/test_energy_node" --nodes 3 || fail "the run failed: $(tail -20 "$work/out")"
    cat "$work/out"
    grep -q "passed on 6 ranks, 3 node(s)" "$work/out" || fail "no passing summary" ;;
  warning)
    HPD_WAIT=bogus run "$work/out" --hosts 2 --ranks-per-host 2 -- \
      "$build/testing/pdgemm_check" --grids 2x2 --cases 4 || fail "the run failed: $(tail -20 "$work/out")"
    grep "^hpdaemon: warning" "$work/out"
    n=$(grep -c "^hpdaemon: warning: HPD_WAIT='bogus'" "$work/out")
    h1=$(grep -c "^hpdaemon: warning: HPD_WAIT='bogus'.*on hpd-node1)" "$work/out")
    h2=$(grep -c "^hpdaemon: warning: HPD_WAIT='bogus'.*on hpd-node2)" "$work/out")
    ((n == 2 && h1 == 1 && h2 == 1)) || fail "expected one warning per host, got $n ($h1, $h2)"
    echo "warning: once per host, naming it: ok" ;;
  dvfs)
    source "$here/fake_cpufreq.sh"
    trees=$work/trees
    for host in hpd-node1 hpd-node2; do
      fake_build "$trees/$host" && fake_snapshot "$trees/$host" "$work/$host.snapshot"
    done
    restored() { # every host's tree back, the set speed aside (the governor ignores it)
      local host
      for host in hpd-node1 hpd-node2; do
        fake_wait_restored "$trees/$host" "$work/$host.snapshot" --except scaling_setspeed ||
          fail "$host's tree was not restored after $1"
      done
      echo "dvfs: both hosts' trees restored after $1"
    }
    dvfs_run() { # OUTPUT HOOK CALLS
      HPD_DVFS=sysfs HPD_STRATEGY=daemon HPD_NGRP=3 HPD_SWITCH_MIN_MS=0 \
        run "$1" --hosts 2 --ranks-per-host 2 --sysfs-root "$trees" -- -bind-to core \
        "$build/testing/dvfs_job" -n 256 -b 32 -p 2 -q 2 --calls "$3" \
        --expect-backend sysfs --expect-applied 1 --after-call "bash '$0' $2 '$trees'"
    }
    dvfs_run "$work/out" at-high 2 || fail "the job failed: $(tail -20 "$work/out")"
    grep -Eq '^dvfs_job: 2 calls, 0 failures$' "$work/out" || fail "the job reported failures"
    restored "a normal end"
    dvfs_run "$work/term" term-host2 3
    status=$?
    grep -E "mid-run|signal|Terminated" "$work/term" | head -5
    ((status != 0)) || fail "the job went on after SIGTERM to a rank of host 2"
    grep -q "SIGTERM to rank process" "$work/term" || fail "no rank of host 2 was stopped"
    grep -q '^dvfs_job: 3 calls' "$work/term" && fail "the job ran every call after SIGTERM"
    restored "SIGTERM to a rank of hpd-node2" ;;
  *) echo "test_cluster.sh: unknown case '$case'" >&2; exit 2 ;;
esac
