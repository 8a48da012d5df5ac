# Sourced by the test_dvfs_*.sh scenarios: arguments, a scratch directory, running
# dvfs_job under mpiexec with a time limit, and the verdict.
#   SCRIPT --job PATH --mpiexec PATH [SCENARIO ARGS...]
set -u
dvfs_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=fake_cpufreq.sh
source "$dvfs_here/fake_cpufreq.sh"

JOB="" MPIEXEC=mpiexec.mpich ARGS=()
while (($#)); do
  case "$1" in
    --job) JOB=$2; shift 2 ;;
    --mpiexec) MPIEXEC=$2; shift 2 ;;
    *) ARGS+=("$1"); shift ;;
  esac
done
[[ -x "$JOB" ]] || { echo "FAIL: --job must name the dvfs_job program" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1

# Another user (the refused-write case) must reach the trees and write its scratch files.
WORK=$(mktemp -d /tmp/hpd-dvfs-test-XXXXXX)
chmod 755 "$WORK"
FAILURES=0

dvfs_cleanup() {
  fifo_log_stop_quietly
  rm -rf "$WORK"
}
trap dvfs_cleanup EXIT

fifo_log_stop_quietly() {
  local pid
  for pid in "${FIFO_LOG_PIDS[@]-}"; do
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null
  done
  FIFO_LOG_PIDS=()
}

fail() {
  echo "FAIL: $*" >&2
  FAILURES=$((FAILURES + 1))
}

# run_job OUTPUT [VAR=VALUE...] -- MPIEXEC-OPTIONS... -- JOB-ARGS...
# Runs the job, output (stdout and stderr) to OUTPUT and to this script's stdout; returns
# the job's exit status.  A job that hangs (a blocked write, a rank waiting for a dead
# one) is cut off after 60 s.
run_job() {
  local out=$1 env=() launch=()
  shift
  while (($#)) && [[ "$1" != -- ]]; do env+=("$1"); shift; done
  shift
  while (($#)) && [[ "$1" != -- ]]; do launch+=("$1"); shift; done
  shift
  echo "+ ${env[*]-} $MPIEXEC ${launch[*]-} dvfs_job $*"
  local status=0 started=$SECONDS
  env ${env[@]+"${env[@]}"} timeout -k 5 60 \
    ${DVFS_AS_USER[@]+"${DVFS_AS_USER[@]}"} "$MPIEXEC" ${launch[@]+"${launch[@]}"} \
    "$JOB" "$@" >"$out" 2>&1 || status=$?
  sed 's/^/    /' "$out"
  # Judged by the time taken, not by the status: Open MPI's launcher itself exits 137
  # when a rank was killed by SIGKILL.
  ((SECONDS - started < 60)) || fail "the job hung and was cut off (status $status)"
  return $status
}

# count_lines FILE REGEX: lines of FILE matching the extended regular expression.
count_lines() {
  grep -Ec -- "$2" "$1" || true
}

# The job said every call was right and exited 0.
expect_clean_job() {
  local out=$1 status=$2
  ((status == 0)) || fail "the job exited with status $status"
  grep -Eq '^dvfs_job: [0-9]+ calls, 0 failures$' "$out" || fail "the job reported failures"
}

finish() {
  if ((FAILURES)); then
    echo "$FAILURES check(s) failed"
    exit 1
  fi
  echo "all checks passed"
  exit 0
}
