#!/usr/bin/env bash
# Two ranks of a node on one frequency domain: neither may switch it (the other would be
# slowed in its multiply), so one warning, nothing written to the tree, not even for a
# moment (it is compared between calls too), and correct results.
#   test_dvfs_shared.sh --job PATH --mpiexec PATH CASE
# CASE: domain (ranks bound to one CPU each, every CPU in one domain) or unbound
# (a domain per CPU, but ranks not bound, so each may run on every CPU: the warning
# must say to bind them).
source "$(dirname "$0")/test_dvfs_common.sh"

case=${ARGS[0]}
tree=$WORK/tree snap=$WORK/snapshot
case "$case" in
  domain) fake_build "$tree" --shared; bind=(-bind-to core) words='share a frequency domain' ;;
  unbound) fake_build "$tree"; bind=() words='not bound.*bind' ;;
  *) echo "unknown case $case" >&2; exit 2 ;;
esac
[[ "$case" == unbound && $(fake_online_cpus | wc -l) -lt 2 ]] &&
  { echo "one online CPU: ranks cannot be told apart by binding" >&2; exit 77; }
fake_snapshot "$tree" "$snap"

status=0
run_job "$WORK/out" HPD_DVFS=sysfs HPD_SYSFS_ROOT="$tree" \
  -- ${bind[@]+"${bind[@]}"} -n 2 -- -n 256 -b 32 -p 1 -q 2 --calls 4 --ngrp 1,3 \
  --strategy basic,daemon --expect-backend none --expect-applied 0 \
  --after-call "'$dvfs_here/fake_cpufreq.sh' compare '$tree' '$snap' >&2" || status=$?
expect_clean_job "$WORK/out" $status
grep -q 'after-call command' "$WORK/out" && fail "the tree changed during the job"
warnings=$(count_lines "$WORK/out" '^hpdaemon: warning: .*DVFS')
matching=$(count_lines "$WORK/out" "^hpdaemon: warning: .*$words")
((warnings == 1 && matching == 1)) ||
  fail "expected one warning matching '$words', got $warnings DVFS warning(s), $matching matching"
fake_compare "$tree" "$snap" || fail "the tree changed"
finish
