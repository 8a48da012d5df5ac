#!/usr/bin/env bash
# A fake cpufreq tree for the sysfs backend (HPD_SYSFS_ROOT), and its before/after checks.
#
#   fake_cpufreq.sh build DIR [--no-userspace] [--shared] [--fifo] [--set-by-user]
#       ROOT layout for this machine's online CPUs: DIR/online and
#       DIR/cpuN/cpufreq/*, an acpi-cpufreq-like domain per CPU with the table
#       0.8/1.3/1.8/2.5 GHz under schedutil.  --no-userspace leaves userspace out of the
#       governors, so the backend must pin min and max; --shared puts every CPU in one
#       domain; --fifo makes each scaling_setspeed a FIFO, so that every write can be
#       logged (fifo_log_start); --set-by-user starts under userspace at 1.3 GHz, a set
#       speed to restore.
#   fake_cpufreq.sh snapshot DIR FILE
#       Every entry's type and mode, and every regular file's bytes, into FILE.
#   fake_cpufreq.sh compare DIR FILE [--except NAME]...
#       0 when DIR matches the snapshot byte for byte (files named NAME aside), else
#       prints the difference and returns 1.
#   fake_cpufreq.sh wait-restored DIR FILE [--except NAME]...
#       compare, retried for up to 5 s: a killed rank's tree is put back by its guardian
#       a moment after the rank is gone.
#
# Sourced, it also defines fifo_log_start / fifo_log_stop for the FIFO trees.
set -u

# The kernel's list of online CPUs ("0-1"): the backend compares the rank's affinity
# with it to tell a bound rank from an unbound one.
fake_online_list() {
  cat /sys/devices/system/cpu/online 2>/dev/null || echo "0-$(($(nproc --all) - 1))"
}

fake_online_cpus() {
  local part lo hi cpu
  for part in $(fake_online_list | tr , ' '); do
    lo=${part%-*} hi=${part#*-}
    for ((cpu = lo; cpu <= hi; cpu++)); do echo "$cpu"; done
  done
}

fake_build() {
  local dir=$1 userspace=1 shared=0 fifo=0 governor=schedutil speed='<unsupported>'
  local current=1800000
  shift
  while (($#)); do
    case "$1" in
      --no-userspace) userspace=0 ;;
      --shared) shared=1 ;;
      --fifo) fifo=1 ;;
      --set-by-user) governor=userspace speed=1300000 current=1300000 ;;
      *) echo "fake_cpufreq.sh: unknown build option $1" >&2; return 2 ;;
    esac
    shift
  done
  local cpus all
  cpus=$(fake_online_cpus)
  all=$(echo "$cpus" | xargs)
  mkdir -p "$dir"
  fake_online_list >"$dir/online"
  local governors="conservative ondemand powersave performance schedutil"
  ((userspace)) && governors="conservative ondemand userspace powersave performance schedutil"
  local cpu f
  for cpu in $cpus; do
    f="$dir/cpu$cpu/cpufreq"
    mkdir -p "$f"
    # The kernel's formats: one value and a newline; acpi-cpufreq lists its table from
    # the top with a trailing space.
    echo acpi-cpufreq >"$f/scaling_driver"
    echo "$governor" >"$f/scaling_governor"
    echo "$governors" >"$f/scaling_available_governors"
    echo "2500000 1800000 1300000 800000 " >"$f/scaling_available_frequencies"
    echo 800000 >"$f/cpuinfo_min_freq"
    echo 2500000 >"$f/cpuinfo_max_freq"
    echo 10000 >"$f/cpuinfo_transition_latency"
    echo 800000 >"$f/scaling_min_freq"
    echo 2500000 >"$f/scaling_max_freq"
    echo "$current" >"$f/scaling_cur_freq"
    if ((shared)); then
      echo "$all" >"$f/related_cpus"
      echo "$all" >"$f/affected_cpus"
    else
      echo "$cpu" >"$f/related_cpus"
      echo "$cpu" >"$f/affected_cpus"
    fi
    if ((fifo)); then
      mkfifo "$f/scaling_setspeed"
    else
      echo "$speed" >"$f/scaling_setspeed"
    fi
  done
  # Readable for a job run as another user (the refused-write test).
  chmod -R a+rX "$dir"
}

# One line per entry and the bytes of regular files, in a fixed order.  FIFOs are never
# opened: reading one would block or steal a logged write.
fake_manifest() {
  local dir=$1 rel type mode
  (cd "$dir" && find . -mindepth 1 -printf '%P %y %m\n' | LC_ALL=C sort) |
    while read -r rel type mode; do
      echo "$rel: type $type, mode $mode"
      [[ "$type" == f ]] && od -An -c -v "$dir/$rel" | sed 's/^/    /'
    done
}

fake_snapshot() {
  fake_manifest "$1" >"$2"
}

fake_compare() {
  local dir=$1 snap=$2 now status=0
  shift 2
  now=$(mktemp)
  fake_manifest "$dir" | fake_filter "$@" >"$now.now"
  fake_filter "$@" <"$snap" >"$now"
  diff -u --label snapshot --label "$dir" "$now" "$now.now" || status=1
  rm -f "$now" "$now.now"
  return $status
}

# A manifest on stdin without the entries named after --except (and their bytes).
fake_filter() {
  local names=()
  while (($#)); do
    [[ "$1" == --except ]] && names+=("$2") && shift
    shift
  done
  awk -v names="${names[*]-}" '
    BEGIN { n = split(names, list, " "); for (i = 1; i <= n; i++) skip[list[i]] = 1 }
    /^[^ ]/ { entry = $1; sub(/:$/, "", entry); sub(/.*\//, "", entry); drop = entry in skip }
    !drop'
}

fake_wait_restored() {
  local deadline=$(($(date +%s%N) + 5000000000))
  while (($(date +%s%N) < deadline)); do
    fake_compare "$@" >/dev/null && return 0
    sleep 0.1
  done
  fake_compare "$@"
}

# Starts a reader on every FIFO scaling_setspeed of the tree, each appending what it
# reads to LOGDIR/cpuN.log.  The reader holds the FIFO open for writing too, so it never
# sees an end of file between two writers, and a writer's open never waits.
FIFO_LOG_PIDS=()
fifo_log_start() {
  local dir=$1 logs=$2 fifo cpu
  mkdir -p "$logs"
  for fifo in "$dir"/cpu*/cpufreq/scaling_setspeed; do
    [[ -p "$fifo" ]] || continue
    cpu=${fifo#"$dir"/}
    cpu=${cpu%%/*}
    cat 0<>"$fifo" >>"$logs/$cpu.log" &
    FIFO_LOG_PIDS+=($!)
  done
}

# Marks the end of every log and waits until the readers have copied everything before
# the mark, then stops them.
fifo_log_stop() {
  local dir=$1 logs=$2 fifo cpu i pid
  for fifo in "$dir"/cpu*/cpufreq/scaling_setspeed; do
    [[ -p "$fifo" ]] || continue
    cpu=${fifo#"$dir"/}
    cpu=${cpu%%/*}
    echo end >"$fifo"
    for ((i = 0; i < 50; i++)); do
      [[ "$(tail -n 1 "$logs/$cpu.log" 2>/dev/null)" == end ]] && break
      sleep 0.1
    done
  done
  for pid in "${FIFO_LOG_PIDS[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  FIFO_LOG_PIDS=()
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  command=${1:-}
  shift || true
  case "$command" in
    build) fake_build "$@" ;;
    snapshot) fake_snapshot "$@" ;;
    compare) fake_compare "$@" ;;
    wait-restored) fake_wait_restored "$@" ;;
    *) sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
  esac
fi
