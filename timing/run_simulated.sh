#!/usr/bin/env bash
# run_simulated.sh [-o DIR] [-B BUILD] [-f pdgemm|lu|chol] [-n N | --per-rank ROWS] [-b NB]
#                  [-r ROUNDS] [--grids "PLATFORM:PxQ ..."]
# pdgemm (or LU, pdgetrf, or Cholesky, pdpotrf's lower triangle: -f) under hpdaemon's
# default settings against the reference on simulated clusters (README: "Simulated
# clusters"; needs simulated/build, whose folder -B names: build-simulated by default):
# per platform and grid, one bench_pdgemm (or bench_factor) --first-calls hpd in the
# timing mode, which gives hpdaemon's first, second and steady calls and the reference's.
# Simulated times do not depend on this machine's load, so one run per grid says it all.
# Rows: DIR/simulated.csv (bench_first.h's columns after the platform's, then what the
# point cost: the simulator's CPU seconds and its peak proportional set in MiB, sampled
# every few seconds (a run of a second or two reads low), and rank 0's own costs from the library's report, in simulated
# seconds, with its extra memory per rank); each run's whole output in
# DIR/simulated-PLATFORM-PxQ-nN.log; plot: DIR/simulated-scaling.png where gnuplot is
# installed (plots/simulated_scaling.gp).  -r 0 times the first two calls and the
# reference's alone (no steady column), which large orders afford.  Defaults: order
# 4096, NB 64, 4 rounds, 4x4 and 8x8 on paper-infiniband and paper-ethernet; 16x16 and
# 16x32 take minutes each (--grids "paper-infiniband:16x16 paper-infiniband:16x32").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
out=results-simulated build=$repo/build-simulated n=4096 nb=64 rounds=4 routine=pdgemm per_rank=""
grids="paper-infiniband:4x4 paper-infiniband:8x8 paper-ethernet:4x4 paper-ethernet:8x8"
while (($#)); do
  case $1 in
    -o) out=$2; shift 2 ;;
    -B) build=$2; shift 2 ;;
    -f) routine=$2; shift 2 ;;
    -n) n=$2; shift 2 ;;
    -b) nb=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    --grids) grids=$2; shift 2 ;;
    --per-rank) per_rank=$2; shift 2 ;;
    *) echo "run_simulated.sh: unknown argument '$1' (see the comment at its top)" >&2; exit 2 ;;
  esac
done
case $routine in
  pdgemm) bench=$build/bench_pdgemm what=() report=pdgemm ;;
  lu) bench=$build/bench_factor what=(-f lu) report=pdgetrf ;;
  chol) bench=$build/bench_factor what=(-f chol) report=pdpotrf ;;
  *) echo "run_simulated.sh: -f takes pdgemm, lu or chol, not '$routine'" >&2; exit 2 ;;
esac
[[ -x $bench ]] || { echo "run_simulated.sh: $bench is missing: run simulated/build" >&2; exit 1; }
mkdir -p "$out"
csv=$out/simulated.csv row=$out/simulated-row.csv
rm -f "$csv"

# The processes below pid, at every depth (from /proc: no process tools needed).
descendants() {
  local child
  for child in $(cat /proc/"$1"/task/*/children 2>/dev/null || true); do
    echo "$child"
    descendants "$child"
  done
}

# The largest proportional set (MiB) that pid's descendants held together, sampled while
# pid lives, at 0.5 s, 1 s, 2 s and 4 s apart, then every 5 s (reading it takes a large
# simulation's tenths of a second): the simulator's memory, counted once where the timing
# mode folds many buffers onto one (its resident set counts every mapping of it).
peak_pss_mib() {
  local pid=$1 peak=0 kib value proc wait_s=0.5
  while kill -0 "$pid" 2>/dev/null; do
    sleep "$wait_s"
    wait_s=$(awk -v w="$wait_s" 'BEGIN { print (2 * w < 5 ? 2 * w : 5) }')
    kib=0
    for proc in $(descendants "$pid"); do
      value=$(awk '/^Pss:/ { print $2 }' "/proc/$proc/smaps_rollup" 2>/dev/null || true)
      kib=$((kib + ${value:-0}))
    done
    ((kib > peak)) && peak=$kib
  done
  echo $((peak / 1024))
}

# From the library's report in log: rank 0's own costs (set-up, tuning, agreements,
# buffers: simulated seconds) and the routine's extra memory per rank (MiB, observed).
own_costs() {
  awk -v routine="$report" '
    / own costs \(rank 0\):/ {
      for (i = 1; i < NF; i++)
        if ($i == "setup" || $i == "tuning" || $i == "agreement" || $i == "buffers")
          cost[$i] = $(i + 1)
    }
    $1 == routine && $2 ~ /^[0-9]+$/ { mine = 1; next }
    $2 ~ /^[0-9]+$/ && $1 ~ /^pd/ { mine = 0 }
    mine && /extra memory per rank/ && extra == "" {
      for (i = 3; i <= NF; i++) if ($i == "observed") extra = $(i - 2)
    }
    END { printf "%s,%s,%s,%s,%s", cost["setup"], cost["tuning"], cost["agreement"],
                 cost["buffers"], extra }' "$1"
}

for spec in $grids; do
  platform=${spec%%:*} grid=${spec#*:}
  p=${grid%x*} q=${grid#*x}
  [[ $platform && $p =~ ^[0-9]+$ && $q =~ ^[0-9]+$ ]] ||
    { echo "run_simulated.sh: bad grid '$spec' (PLATFORM:PxQ)" >&2; exit 2; }
  if [[ $per_rank ]]; then
    [[ $per_rank =~ ^[1-9][0-9]*$ ]] ||
      { echo "run_simulated.sh: --per-rank takes a number of rows, not '$per_rank'" >&2; exit 2; }
    n=$(awk -v r="$per_rank" -v p="$p" -v q="$q" -v nb="$nb" \
      'BEGIN { k = int(r * sqrt(p * q) / nb + 0.5); print (k < 1 ? 1 : k) * nb }')
  fi
  echo "run_simulated [$(date +%H:%M:%S)] $routine, $platform ${p}x${q} ($((p * q)) ranks)," \
    "N=$n NB=$nb" >&2
  rm -f "$row"
  log=$out/simulated-$platform-${p}x${q}-n$n.log
  # bash's times: the CPU of the subshell's children, the simulator's included.
  (
    HPD_REPORT=summary "$repo/scripts/simulate" --platform "$platform" --ranks $((p * q)) \
      --mode timing -- "$bench" "${what[@]}" -n "$n" -b "$nb" -p "$p" -q "$q" -r "$rounds" \
      --first-calls hpd --csv "$row" > "$log" 2>&1 && status=0 || status=$?
    times > "$log.cpu"
    exit $status
  ) &
  run=$!
  peak=$(peak_pss_mib "$run")
  wait "$run" || { echo "run_simulated.sh: the run failed; its output is in $log" >&2; exit 1; }
  cpu=$(awk 'NR == 2 {
    for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] }
    printf "%.1f", s }' "$log.cpu")
  rm -f "$log.cpu"
  grep '^first-calls' "$log" >&2 || true
  costs=$(own_costs "$log")
  echo "  simulator: ${cpu} s of CPU, peak ${peak} MiB; rank 0's own costs (setup, tuning," \
    "agreement, buffers s; extra MiB a rank): $costs" >&2
  [[ -s $csv ]] ||
    echo "platform,$(head -1 "$row"),sim_cpu_s,sim_peak_mib,setup_s,tuning_s,agreement_s,buffers_s,extra_mib" > "$csv"
  tail -n +2 "$row" | sed "s/^/$platform,/; s/\$/,$cpu,$peak,$costs/" >> "$csv"
done
rm -f "$row"
echo "run_simulated.sh: rows in $csv" >&2
if command -v gnuplot >/dev/null; then
  gnuplot -e "dir='$out'; routine='$routine'" "$here/plots/simulated_scaling.gp"
  echo "run_simulated.sh: plot in $out/simulated-scaling.png" >&2
fi
