#!/usr/bin/env bash
# The frequencies a job writes, in order: every scaling_setspeed of a fake tree is a FIFO
# whose writes are logged, and the job marks the end of each call in every log (its
# after-call hook writes "call-end" into the FIFOs once every rank is done with the call).
# Each call's segment must be exactly low, high, low, high, ... with one pair per group:
# per panel under basic, per N_grp panels under daemon, none under none; where low and
# high are the same frequency, only the job's first switch writes.  The sim backend's
# record of the same job, run in-process, must be the same sequence.  These are the
# paper's sequences: HPD_SWITCH_MIN_MS=0 keeps the switch rule from holding any group
# back, and the job checks that none was.
#   test_dvfs_sequence.sh --job PATH --mpiexec PATH GRID [VAR=VALUE...]
# GRID is PxQ on two ranks; the variables go to both jobs (HPD_FREQ_LOW, ...), and the
# expected low and high come from the job's own report of what it chose.
source "$(dirname "$0")/test_dvfs_common.sh"

p=${ARGS[0]%x*} q=${ARGS[0]#*x}
extra=("${ARGS[@]:1}")
n=256 nb=32 ngrps=(1 2 3 4) strategies=(basic daemon none)
calls=$((${#ngrps[@]} * ${#strategies[@]}))
job_args=(-n "$n" -b "$nb" -p "$p" -q "$q" --calls "$calls"
  --ngrp "$(IFS=,; echo "${ngrps[*]}")" --strategy "$(IFS=,; echo "${strategies[*]}")"
  --expect-held never)

tree=$WORK/tree
fake_build "$tree" --fifo
fifo_log_start "$tree" "$WORK/logs"
status=0
run_job "$WORK/sysfs.out" HPD_DVFS=sysfs HPD_SYSFS_ROOT="$tree" HPD_SWITCH_MIN_MS=0 \
  ${extra[@]+"${extra[@]}"} \
  -- -bind-to core -n 2 -- "${job_args[@]}" --expect-backend sysfs --expect-applied 1 \
  --after-call "for f in '$tree'/cpu*/cpufreq/scaling_setspeed; do echo call-end >\"\$f\"; done" ||
  status=$?
fifo_log_stop "$tree" "$WORK/logs"
expect_clean_job "$WORK/sysfs.out" $status

status=0
run_job "$WORK/sim.out" HPD_DVFS=sim HPD_SWITCH_MIN_MS=0 ${extra[@]+"${extra[@]}"} \
  -- -n 2 -- "${job_args[@]}" --trace --expect-backend sim || status=$?
expect_clean_job "$WORK/sim.out" $status

read -r low high < <(sed -n 's/^dvfs: .* low \([0-9]*\) high \([0-9]*\) .*/\1 \2/p' \
  "$WORK/sysfs.out")
[[ -n "${low-}" && -n "${high-}" ]] || fail "the job did not report its frequencies"
echo "low $low kHz, high $high kHz"

# What call i must write, worked out here: panels = n / nb (nb divides n), the grid has
# two processes so an operand travels, the groups follow the strategy, and a request for
# the frequency already set writes nothing (so equal low and high write once per job).
current=""
expected_call() {
  local i=$1 g=${ngrps[$(($1 % ${#ngrps[@]}))]}
  local s=${strategies[$(($1 / ${#ngrps[@]} % ${#strategies[@]}))]}
  local steps=$((n / nb)) groups=0 k khz
  case "$s" in
    basic) groups=$steps ;;
    daemon) groups=$(((steps + g - 1) / g)) ;;
  esac
  want=""
  for ((k = 0; k < 2 * groups; k++)); do
    khz=$low
    ((k % 2)) && khz=$high
    [[ "$khz" == "$current" ]] && continue
    want+="$khz "
    current=$khz
  done
}

# The log's segment of call i, as one line of space-separated values.
log_segment() {
  awk -v want="$2" '$0 == "call-end" { call++; next } call == want { printf "%s ", $0 }' "$1"
}

logs=("$WORK"/logs/*.log)
[[ -f "${logs[0]}" && ${#logs[@]} == $(fake_online_cpus | wc -l) ]] ||
  fail "expected a log per online CPU, found ${#logs[@]}"
for log in "${logs[@]}"; do
  [[ "$(count_lines "$log" '^call-end$')" == "$calls" ]] ||
    fail "$(basename "$log"): $(count_lines "$log" '^call-end$') call ends logged, not $calls"
  [[ "$(tail -n 1 "$log")" == end ]] || fail "$(basename "$log") did not end cleanly"
  grep -Evq '^([0-9]+|call-end|end)$' "$log" && fail "$(basename "$log") holds a malformed write"
done
for ((i = 0; i < calls; i++)); do
  expected_call $i
  traced=$(sed -n "s/^trace $i:\(.*\)/\1/p" "$WORK/sim.out" | xargs)
  [[ "$traced" == "${want% }" ]] ||
    fail "call $i: the sim record is '$traced', expected '${want% }'"
  for log in "${logs[@]}"; do
    got=$(log_segment "$log" $i)
    [[ "$got" == "$want" ]] ||
      fail "call $i: $(basename "$log") has '$got', expected '$want'"
  done
  echo "call $i: $(wc -w <<<"$want") writes per CPU expected"
done
finish
