#!/usr/bin/env bash
# Writes the system refuses: the job goes on without DVFS, with one warning for the whole
# job, correct results and exit status 0, and the tree is left as it was.
#   test_dvfs_refused.sh --job PATH --mpiexec PATH CASE
# CASE: pinned or userspace (the trees of test_dvfs_restore.sh) made read-only before the
# job.  Root writes through file modes, so as root the job runs as nobody (setpriv) to
# meet the EACCES an unprivileged job gets from the kernel's cpufreq files.
# CASE midrun: a userspace tree whose scaling_setspeed files become immutable after the
# first call, while the job holds them open: its next switch is refused (EPERM) in the
# middle of the job; the rest of the tree must be put back then and there.
source "$(dirname "$0")/test_dvfs_common.sh"

kind=${ARGS[0]}
tree=$WORK/tree snap=$WORK/snapshot
case "$kind" in
  pinned) fake_build "$tree" --no-userspace ;;
  userspace|midrun) fake_build "$tree" ;;
  *) echo "unknown case $kind" >&2; exit 2 ;;
esac
if [[ "$kind" == midrun ]]; then
  # The scratch directory cannot be removed while a file in it is immutable.
  trap 'chattr -i "$tree"/cpu*/cpufreq/scaling_setspeed 2>/dev/null; dvfs_cleanup' EXIT
  chattr +i "$tree/cpu0/cpufreq/scaling_setspeed" 2>/dev/null ||
    { echo "no immutable files on this file system" >&2; exit 77; }
  chattr -i "$tree/cpu0/cpufreq/scaling_setspeed"
  fake_snapshot "$tree" "$snap"
  # After the first call the set speeds become immutable; after the next, which met the
  # refusal, the rest of the tree must be back already, not only at the end of the job.
  hook="if [ \$DVFS_JOB_CALL = 0 ]; then chattr +i '$tree'/cpu*/cpufreq/scaling_setspeed;
        else '$dvfs_here/fake_cpufreq.sh' compare '$tree' '$snap' --except scaling_setspeed >&2; fi"
  status=0
  run_job "$WORK/out" HPD_DVFS=sysfs HPD_SYSFS_ROOT="$tree" HPD_STRATEGY=basic \
    -- -bind-to core -n 2 -- -n 256 -b 32 -p 1 -q 2 --calls 3 --expect-backend sysfs \
    --expect-applied 0 --after-call "$hook" || status=$?
  expect_clean_job "$WORK/out" $status
  grep -q '^dvfs: backend sysfs applied 1 ' "$WORK/out" || fail "DVFS was not on at first"
  grep -q 'after-call command' "$WORK/out" && fail "the tree was not put back at the refusal"
  warnings=$(count_lines "$WORK/out" '^hpdaemon: warning: .*DVFS')
  refusals=$(count_lines "$WORK/out" '^hpdaemon: warning: .*refused.*Operation not permitted')
  ((warnings == 1 && refusals == 1)) ||
    fail "expected one warning about the refused write, got $warnings DVFS warning(s)," \
      "$refusals about the refusal"
  fake_wait_restored "$tree" "$snap" --except scaling_setspeed ||
    fail "the tree was not restored after the refusal"
  finish
fi
chmod -R a-w "$tree"
find "$tree" -type d -exec chmod u+w {} +
fake_snapshot "$tree" "$snap"

mkdir -p "$WORK/home"
libs=""
if ((EUID == 0)); then
  command -v setpriv >/dev/null || { echo "setpriv is needed to run as nobody" >&2; exit 77; }
  user=$(id -u nobody) group=$(id -g nobody)
  DVFS_AS_USER=(setpriv --reuid="$user" --regid="$group" --clear-groups)
  # nobody needs a writable home, temporary and working directory, and the program and
  # library where it can reach them: a build tree may sit in a private home.
  chown "$user:$group" "$WORK/home"
  mkdir "$WORK/bin"
  cp "$JOB" "$WORK/bin/"
  lib=$(ldd "$JOB" | awk '/libhpdaemon/ { print $3 }')
  [[ -f "$lib" ]] && cp -L "$lib" "$WORK/bin/"
  chmod -R a+rX "$WORK/bin"
  JOB=$WORK/bin/$(basename "$JOB") libs=$WORK/bin
  cd "$WORK/home" || exit 2 # mpiexec starts the ranks in its working directory
  "${DVFS_AS_USER[@]}" env LD_LIBRARY_PATH="$libs" ldd "$JOB" | grep -q 'libhpdaemon.*not found' &&
    { echo "libhpdaemon is not reachable for nobody" >&2; exit 77; }
  "${DVFS_AS_USER[@]}" sh -c "echo x >'$tree/cpu0/cpufreq/scaling_max_freq'" 2>/dev/null &&
    { fail "nobody can write the read-only tree"; finish; }
fi

status=0
run_job "$WORK/out" HPD_DVFS=sysfs HPD_SYSFS_ROOT="$tree" HPD_STRATEGY=basic \
  HOME="$WORK/home" TMPDIR="$WORK/home" ${libs:+LD_LIBRARY_PATH="$libs"} \
  -- -bind-to core -n 2 -- -n 256 -b 32 -p 1 -q 2 --calls 3 --expect-applied 0 ||
  status=$?
expect_clean_job "$WORK/out" $status
warnings=$(count_lines "$WORK/out" '^hpdaemon: warning: .*DVFS')
refusals=$(count_lines "$WORK/out" '^hpdaemon: warning: .*(Permission denied|refused)')
((warnings == 1 && refusals == 1)) ||
  fail "expected one warning about the refused write, got $warnings DVFS warning(s)," \
    "$refusals about the refusal"
fake_compare "$tree" "$snap" || fail "the read-only tree changed"
finish
