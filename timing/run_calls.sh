#!/usr/bin/env bash
# run_calls.sh [-B BUILD_DIR] [-o DIR] [-g PxQ[,...]] [-r ROUNDS] [-n SIZES] [--load W]
#              [--drivers trd,sep,svd,ls] [--driver-reps R] [--factor-orders N[,N...]]
#              [--quick]
#
# Never slower on any call: hpdaemon's pdgemm_ against reference ScaLAPACK on the calls
# applications make by the thousand, each figure from the same run (timing/README.md).
#  1. bench_calls on each grid: square sizes 8 to 1024 and the eigen-solve mix, NB 32 and
#     64, quiet; then on 1x2 again under a fixed background load (load_gen: W workers, each
#     keeping a core busy, 3 by default) -> calls.csv
#  2. ScaLAPACK's own drivers (xdtrd, xdsep, xdsvd, xdls) on 1x1 and 1x2 grids
#     (timing/drivers/*.dat), each run alternately with hpdaemon routing and with every
#     call sent to the reference (--disable); the pdgemm plus pdsyrk seconds of rank 0
#     from hpdaemon's report, median of R runs per side -> drivers.csv
#  3. LU and Cholesky with and without hpdaemon (bench_factor) -> factor.csv
#  4. calls.png (gnuplot, when installed): hpd/ref against N per grid, with intervals.
# Progress goes to stderr, one line per step.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build out=./timing-results grids=1x1,1x2,2x1,2x2 rounds=15 load=3
sizes=8,13,16,31,32,47,64,100,128,200,256,383,512,1024 driver_reps=3 factor_orders=1024
drivers=trd,sep,svd,ls quick=0
while (($#)); do
  case "$1" in
    -B) build=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -g) grids=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    -n) sizes=$2; shift 2 ;;
    --load) load=$2; shift 2 ;;
    --drivers) drivers=$2; shift 2 ;;
    --driver-reps) driver_reps=$2; shift 2 ;;
    --factor-orders) factor_orders=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_calls.sh: unknown option $1 (-h lists them)" >&2; exit 2 ;;
  esac
done
if ((quick)); then
  grids=1x1,1x2 rounds=6 sizes=8,32,100,256 driver_reps=1 factor_orders=512 drivers=trd
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$(cd "$build" && pwd)
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
bench=$build/timing/bench_calls
[[ -x "$bench" ]] || { echo "run_calls.sh: build first ($bench is missing)" >&2; exit 1; }
step() { echo "run_calls: $*" >&2; }

rm -f "$out/calls.csv"
IFS=, read -r -a grid_list <<< "$grids"
for g in "${grid_list[@]}"; do
  p=${g%x*} q=${g#*x} r=$rounds n=$sizes
  # Four ranks on two cores: every message waits for a time slice, so fewer, smaller rows.
  if ((p * q > $(getconf _NPROCESSORS_ONLN))); then r=$(( rounds < 6 ? rounds : 6 )) n=8,32,64,128,256; fi
  step "square sizes and the eigen mix on ${g}, quiet"
  mpiexec.mpich -n $((p * q)) "$bench" -p "$p" -q "$q" -r "$r" -n "$n" --csv "$out/calls.csv" \
    | tee "$out/calls-$g.txt"
done
step "square sizes and the eigen mix on 1x2 under load_gen --workers $load"
"$build/timing/load_gen" --workers "$load" --seconds 3600 &
load_pid=$!
trap 'kill $load_pid 2>/dev/null || true' EXIT
sleep 1
mpiexec.mpich -n 2 "$bench" -p 1 -q 2 -r "$rounds" -n "$sizes" --label "load$load" \
  --csv "$out/calls.csv" | tee "$out/calls-1x2-load$load.txt"
kill "$load_pid" 2>/dev/null || true
wait "$load_pid" 2>/dev/null || true
trap - EXIT

# The seconds rank 0 spent in pdgemm_ and pdsyrk_, from a JSON report.
routine_seconds() {
  grep -o '"time_total_s": [0-9.eE+-]*' "$1" | awk '{ s += $2 } END { printf "%.6f", s }'
}
routine_calls() {
  grep -o '"pdgemm": {"calls": [0-9]*' "$1" | grep -o '[0-9]*$'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

testers=/usr/lib/x86_64-linux-gnu/scalapack/mpich-tests
echo "driver,calls,ref_s,hpd_s,hpd_over_ref" > "$out/drivers.csv"
IFS=, read -r -a driver_list <<< "$drivers"
for d in "${driver_list[@]}"; do
  name=xd$d dat=${d^^}.dat
  step "$name (timing/drivers/$dat), $driver_reps runs per side"
  work=$(mktemp -d)
  cp "$here/drivers/$dat" "$work/"
  : > "$work/hpd" ; : > "$work/ref"
  for ((i = 0; i < driver_reps; i++)); do
    for side in hpd ref; do
      flag=""; [[ $side == ref ]] && flag=--disable
      (cd "$work" && "$build/hpdaemon-run" $flag --report="json:$work/$side.json" -- \
        mpiexec.mpich -n 2 "$testers/$name" > "$work/$side.out" 2>&1)
      routine_seconds "$work/$side.json" >> "$work/$side"; echo >> "$work/$side"
    done
  done
  calls=$(routine_calls "$work/hpd.json")
  hpd=$(median < "$work/hpd") ref=$(median < "$work/ref")
  ratio=$(awk -v h="$hpd" -v r="$ref" 'BEGIN { printf "%.3f", (r > 0 ? h / r : 0) }')
  echo "$name,$calls,$ref,$hpd,$ratio" >> "$out/drivers.csv"
  printf '%-6s %6s pdgemm calls  ref %.4f s  hpd %.4f s  hpd/ref %s\n' "$name" "$calls" \
    "$ref" "$hpd" "$ratio"
  rm -rf "$work"
done

step "LU and Cholesky, N=$factor_orders, NB 32 and 64, 1x2"
rm -f "$out/factor.csv"
mpiexec.mpich -n 2 "$build/timing/bench_factor" -n "$factor_orders" -r "$( ((quick)) && echo 3 || echo 9)" \
  --csv "$out/factor.csv" | tee "$out/factor.txt"

if command -v gnuplot >/dev/null; then
  step "calls.png"
  gnuplot -e "csv='$out/calls.csv'; png='$out/calls.png'" "$here/plots/calls.gp"
fi
step "done: $out/calls.csv, drivers.csv, factor.csv"
