#!/usr/bin/env bash
# test_cluster.sh --cluster PATH --build DIR CASE
# Emulated hosts (scripts/cluster).  Exit 77 (skipped) where namespaces cannot be made.
#   identity  3 hosts x 2 ranks: one host name and boot id per host, each shared by its two
#             ranks, none shared across hosts; nothing of the run left afterwards
#   sigterm   a run stopped with SIGTERM mid-way leaves nothing behind
#   pdgemm    4 hosts x 1 rank at 1 Gbit/s: the pdgemm sweep on 2x2; the report counts 4
#             nodes and every rank's calls
#   pdsyrk    3 hosts x 2 ranks: the pdsyrk sweep on 2x2, 1x3 and 3x1
#   bcast     2 hosts x 2 ranks dealt cyclically (each row of ranks interleaves hosts):
#             every broadcast algorithm, any root
#   warning   2 hosts x 2 ranks, a bad HPD_WAIT on every rank: one warning per host,
#             naming it
set -uo pipefail
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
  pdgemm)
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
  pdsyrk)
    run "$work/out" --hosts 3 --ranks-per-host 2 -- "$build/testing/pdsyrk_check" \
      --grids 2x2,1x3,3x1 --quick || fail "the sweep failed: $(tail -20 "$work/out")"
    tail -2 "$work/out"
    grep -q "passed, 0 failed" "$work/out" || fail "no passing summary" ;;
  bcast)
    run "$work/out" --hosts 2 --ranks-per-host 2 --order cyclic -- "$build/testing/test_bcast" \
      --quick --wait sleep || fail "the broadcasts failed: $(tail -20 "$work/out")"
    tail -1 "$work/out"
    grep -qE "[0-9]+ passed, 0 failed" "$work/out" || fail "no passing summary" ;;
  warning)
    HPD_WAIT=bogus run "$work/out" --hosts 2 --ranks-per-host 2 -- \
      "$build/testing/pdgemm_check" --grids 2x2 --cases 4 || fail "the run failed: $(tail -20 "$work/out")"
    grep "^hpdaemon: warning" "$work/out"
    n=$(grep -c "^hpdaemon: warning: HPD_WAIT='bogus'" "$work/out")
    h1=$(grep -c "^hpdaemon: warning: HPD_WAIT='bogus'.*on hpd-node1)" "$work/out")
    h2=$(grep -c "^hpdaemon: warning: HPD_WAIT='bogus'.*on hpd-node2)" "$work/out")
    ((n == 2 && h1 == 1 && h2 == 1)) || fail "expected one warning per host, got $n ($h1, $h2)"
    echo "warning: once per host, naming it: ok" ;;
  *) echo "test_cluster.sh: unknown case '$case'" >&2; exit 2 ;;
esac
