#!/usr/bin/env bash
# run_level3.sh [-B BUILD_DIR] [-o DIR] [-r ROUNDS] [--quick]
#
# pdtrsm_, pdtrmm_, pdsymm_, pdsyr2k_ and pdlaswp_ against reference ScaLAPACK, each figure
# from the same run (bench_level3, timing/README.md), on 2 ranks:
#  1. each routine at N = 4096, NB = 64, on 1x2 and 2x1 (pdtrsm: LU's left lower solve and
#     a right upper one; pdlaswp: LU's first panel's interchanges of rows 4096 long);
#  2. the application's shapes: right-side upper solves of 1472 x 1472 and 1472 x 256,
#     NB = 32, on 2x1;
#  3. the small-call sizes, 8 to 1024, each routine, NB 32, on 1x2 and 2x1.
# Results: level3.csv and one text file per step in DIR (default ./timing-results).
# Progress goes to stderr, one line per step.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build out=./timing-results rounds=2 small_rounds=9 large=4096
small=8,16,31,64,128,256,512,1024
while (($#)); do
  case "$1" in
    -B) build=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    --quick) large=1024 small=8,64,256 rounds=3 small_rounds=6; shift ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_level3.sh: unknown option $1 (-h lists them)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
bench=$(cd "$build" && pwd)/timing/bench_level3
[[ -x "$bench" ]] || { echo "run_level3.sh: build first ($bench is missing)" >&2; exit 1; }
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
csv=$out/level3.csv
rm -f "$csv"
step() { echo "run_level3: $*" >&2; }
run() { # name p q args...
  local name=$1 p=$2 q=$3; shift 3
  mpiexec.mpich -n $((p * q)) "$bench" -p "$p" -q "$q" --csv "$csv" "$@" | tee -a "$out/level3-$name.txt"
}

for g in 1x2 2x1; do
  p=${g%x*} q=${g#*x}
  step "N = $large on $g"
  run large "$p" "$q" --routine pdtrsm -n "$large" -b 64 -r "$rounds" --side L --uplo L --diag U
  run large "$p" "$q" --routine pdtrsm -n "$large" -b 64 -r "$rounds" --side R --uplo U
  run large "$p" "$q" --routine pdtrmm -n "$large" -b 64 -r "$rounds" --side L --uplo U
  run large "$p" "$q" --routine pdsymm -n "$large" -b 64 -r "$rounds" --side L --uplo L
  run large "$p" "$q" --routine pdsyr2k -n "$large" -b 64 -r "$rounds" --uplo U
  run large "$p" "$q" --routine pdlaswp -n "$large" -b 64 -r "$rounds"
done
step "the application's right-side solves on 2x1"
run cp2k 2 1 --routine pdtrsm -m 1472,1472 -n 1472,256 -b 32 -r "$rounds" --side R --uplo U
for g in 1x2 2x1; do
  p=${g%x*} q=${g#*x}
  step "small calls on $g"
  for r in pdtrsm pdtrmm pdsymm pdsyr2k pdlaswp; do
    run small "$p" "$q" --routine "$r" -n "$small" -b 32 -r "$small_rounds"
  done
done
step "done: $csv"
