#!/usr/bin/env bash
# Frequencies the user asks for that cannot be had.
#   test_dvfs_freq.sh --job PATH --mpiexec PATH BACKEND VAR VALUE
# BACKEND: sim, or sysfs on a fake tree; both offer 0.8/1.3/1.8/2.5 GHz.
# A VALUE without a unit is a syntax error: one configuration warning naming the
# variable, and the default (the lowest or highest frequency) is used.  A VALUE with a
# unit that is not in the table: one warning listing the table, DVFS off (backend none),
# the tree untouched.  Results stay correct and the job exits 0 either way.
source "$(dirname "$0")/test_dvfs_common.sh"

backend=${ARGS[0]} var=${ARGS[1]} value=${ARGS[2]}
env=(HPD_DVFS="$backend" "$var=$value") launch=(-n 2)
tree=$WORK/tree snap=$WORK/snapshot
if [[ "$backend" == sysfs ]]; then
  fake_build "$tree" --no-userspace
  fake_snapshot "$tree" "$snap"
  env+=(HPD_SYSFS_ROOT="$tree")
  launch=(-bind-to core -n 2)
fi
if [[ "$value" =~ ^[0-9.]+$ ]]; then
  expect=(--expect-backend "$backend" --expect-applied 1)
else
  expect=(--expect-backend none --expect-applied 0)
  # Off means never written, not written and put back: the tree is compared mid-run.
  [[ "$backend" == sysfs ]] &&
    expect+=(--after-call "'$dvfs_here/fake_cpufreq.sh' compare '$tree' '$snap' >&2")
fi

status=0
run_job "$WORK/out" "${env[@]}" -- "${launch[@]}" -- -n 256 -b 32 -p 1 -q 2 --calls 2 \
  --strategy basic,daemon --ngrp 3 "${expect[@]}" || status=$?
expect_clean_job "$WORK/out" $status
grep -q 'after-call command' "$WORK/out" && fail "the tree was written during the job"
warnings=$(count_lines "$WORK/out" '^hpdaemon: ')
if [[ "$value" =~ ^[0-9.]+$ ]]; then
  said=$(count_lines "$WORK/out" "^hpdaemon: .*$var='$value' is not valid")
  grep -q '^dvfs: .* low 800000 high 2500000 ' "$WORK/out" ||
    fail "the defaults (800000 and 2500000 kHz) are not in use"
else
  said=$(count_lines "$WORK/out" \
    "^hpdaemon: warning: .*$var.*available.*800000 1300000 1800000 2500000 kHz")
fi
((warnings == 1 && said == 1)) ||
  fail "expected exactly one message about $var=$value, got $warnings message(s), $said matching"
# Untouched where DVFS went off, restored where it ran.
[[ "$backend" != sysfs ]] || fake_wait_restored "$tree" "$snap" ||
  fail "the tree is not as it was before the job"
finish
