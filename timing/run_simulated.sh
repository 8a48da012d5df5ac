#!/usr/bin/env bash
# run_simulated.sh [-o DIR] [-f pdgemm|lu|chol] [-n N | --per-rank ROWS] [-b NB] [-r ROUNDS]
#                  [--grids "PLATFORM:PxQ ..."]
# pdgemm (or LU, pdgetrf, or Cholesky, pdpotrf's lower triangle: -f) under hpdaemon's
# default settings against the reference on simulated clusters (README: "Simulated
# clusters"; needs simulated/build): per platform and grid, one bench_pdgemm (or
# bench_factor) --first-calls hpd in the timing mode, which gives hpdaemon's first,
# second and steady calls and the reference's.  Simulated times do not depend on this machine's
# load, so one run per grid says it all.  Rows: DIR/simulated.csv (bench_first.h's
# columns after the platform's); plot: DIR/simulated-scaling.png where gnuplot is
# installed (plots/simulated_scaling.gp).  -r 0 times the first two calls and the
# reference's alone (no steady column), which large orders afford.  Defaults: order
# 4096, NB 64, 4 rounds, 4x4 and 8x8 on paper-infiniband and paper-ethernet; 16x16 and
# 16x32 take minutes each (--grids "paper-infiniband:16x16 paper-infiniband:16x32").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
out=results-simulated n=4096 nb=64 rounds=4 routine=pdgemm per_rank=""
grids="paper-infiniband:4x4 paper-infiniband:8x8 paper-ethernet:4x4 paper-ethernet:8x8"
while (($#)); do
  case $1 in
    -o) out=$2; shift 2 ;;
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
  pdgemm) bench=$repo/build-simulated/bench_pdgemm what=() ;;
  lu | chol) bench=$repo/build-simulated/bench_factor what=(-f "$routine") ;;
  *) echo "run_simulated.sh: -f takes pdgemm, lu or chol, not '$routine'" >&2; exit 2 ;;
esac
[[ -x $bench ]] || { echo "run_simulated.sh: $bench is missing: run simulated/build" >&2; exit 1; }
mkdir -p "$out"
csv=$out/simulated.csv row=$out/simulated-row.csv
rm -f "$csv"
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
  "$repo/scripts/simulate" --platform "$platform" --ranks $((p * q)) --mode timing -- \
    "$bench" "${what[@]}" -n "$n" -b "$nb" -p "$p" -q "$q" -r "$rounds" --first-calls hpd \
    --csv "$row" |
    grep '^first-calls' >&2
  [[ -s $csv ]] || echo "platform,$(head -1 "$row")" > "$csv"
  tail -n +2 "$row" | sed "s/^/$platform,/" >> "$csv"
done
rm -f "$row"
echo "run_simulated.sh: rows in $csv" >&2
if command -v gnuplot >/dev/null; then
  gnuplot -e "dir='$out'; routine='$routine'" "$here/plots/simulated_scaling.gp"
  echo "run_simulated.sh: plot in $out/simulated-scaling.png" >&2
fi
