#!/usr/bin/env bash
# check_cpu_clock.sh SIMULATE RATES BENCH_FACTOR: the same simulated LU (2x2, order 512,
# timing mode) with the simulator's CPU clocks as they are and with the monotonic clock
# that scripts/simulate preloads in their place (simulated/cpu_clock.c) gives the same
# figures, to the CSV's microsecond.  Prints "cpu clock: same figures" where it does.
set -euo pipefail
simulate=$1 rates=$2 bench=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() {
  "$simulate" --platform paper-infiniband --ranks 4 --mode timing --rates "$rates" -- \
    "$bench" -f lu -n 512 -b 32 -p 2 -q 2 -r 0 --first-calls hpd --csv "$dir/$1.csv" > /dev/null
  tail -n 1 "$dir/$1.csv"
}
native=$(HPD_SIM_NATIVE_CPU_CLOCK=1 run native)
preloaded=$(run preloaded)
echo "native CPU clock:    $native"
echo "monotonic preloaded: $preloaded"
[[ -n $native && $native == "$preloaded" ]] && echo "cpu clock: same figures"
