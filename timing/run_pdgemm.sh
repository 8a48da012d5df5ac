#!/usr/bin/env bash
# hpdaemon's pdgemm against reference ScaLAPACK: the local dgemm limit first, then each
# grid; two CSV files and one table at the end.  Usage and columns: timing/README.md.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")

orders=2048,4096
blocks=32,64,256
grids=1x2,2x1,2x2
reps=5
reps_over=2   # grids with more ranks than cores: the reference crawls there
local_threads=2
target_n=4096
out_dir=./timing-results
build_dir=${HPD_BUILD_DIR:-}
extra=()

usage() {
  cat <<EOF
usage: timing/run_pdgemm.sh [options] [-- hpdaemon options for bench_pdgemm]
  --quick               smoke test: N=1024, 2 timed calls per side (1 when oversubscribed)
  -n N[,N...]           matrix orders (default $orders)
  -b NB[,NB...]         block sizes (default $blocks)
  -g PxQ[,PxQ...]       grids (default $grids)
  -r REPS               timed calls per side (default $reps)
  --reps-oversub REPS   timed calls per side on grids with more ranks than cores
                        (default $reps_over)
  --local-threads T     BLAS threads of the local dgemm limit: the cores the ranks use
                        (default $local_threads)
  -o DIR                where the CSV files and logs go (default $out_dir)
  -B DIR                build directory holding timing/bench_pdgemm (default: \$HPD_BUILD_DIR,
                        the current directory if it is one, else $repo_dir/build)
EOF
}

die() { echo "run_pdgemm.sh: $*" >&2; exit 2; }

while (($#)); do
  case $1 in
    --quick) orders=1024; reps=2; reps_over=1 ;;
    -n) orders=${2:?-n needs a value}; shift ;;
    -b) blocks=${2:?-b needs a value}; shift ;;
    -g) grids=${2:?-g needs a value}; shift ;;
    -r) reps=${2:?-r needs a value}; shift ;;
    --reps-oversub) reps_over=${2:?--reps-oversub needs a value}; shift ;;
    --local-threads) local_threads=${2:?--local-threads needs a value}; shift ;;
    -o) out_dir=${2:?-o needs a value}; shift ;;
    -B) build_dir=${2:?-B needs a value}; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done

if [[ -z $build_dir ]]; then
  if [[ -x ./timing/bench_pdgemm ]]; then build_dir=.; else build_dir=$repo_dir/build; fi
fi
bench_pdgemm=$build_dir/timing/bench_pdgemm
bench_dgemm=$build_dir/timing/bench_dgemm
for exe in "$bench_pdgemm" "$bench_dgemm"; do
  [[ -x $exe ]] ||
    die "$exe not found: build first (cmake -S $repo_dir -B $build_dir && cmake --build $build_dir)"
done
# The plain launcher name belongs to another MPI here; ScaLAPACK and hpdaemon use MPICH.
launcher=$(command -v mpiexec.mpich) || die "mpiexec.mpich not found"

# Both sides must run the same BLAS kernels.  The default kernels on AVX-512 machines are
# the slower AVX2 ones, so AVX-512 is chosen unless the caller chose something.
source "$script_dir/blas_kernels.sh"
coretype_env=()
[[ -n ${OPENBLAS_CORETYPE:-} ]] && coretype_env=(-genv OPENBLAS_CORETYPE "$OPENBLAS_CORETYPE")

cores=$(nproc)
mkdir -p "$out_dir"
dgemm_csv=$out_dir/dgemm.csv
pdgemm_csv=$out_dir/pdgemm.csv
rm -f "$dgemm_csv" "$pdgemm_csv"  # each CSV describes one run
echo "run_pdgemm.sh: N=$orders NB=$blocks grids=$grids reps=$reps (oversubscribed: $reps_over)," \
     "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>}, $cores cores, results in $out_dir" >&2

# ---- the limit: local dgemm on the same cores ----------------------------------------
OPENBLAS_NUM_THREADS=$local_threads "$bench_dgemm" -n "$orders" -r "$reps" --csv "$dgemm_csv" \
  > "$out_dir/dgemm.log"
# One rate per order, in the order given, for --local-gflops.
local_rates=$(awk -F, 'NR > 1 { printf "%s%s", sep, $7; sep = "," }' "$dgemm_csv")

# ---- pdgemm, grid by grid --------------------------------------------------------------
IFS=, read -r -a grid_list <<< "$grids"
for grid in "${grid_list[@]}"; do
  [[ $grid =~ ^([0-9]+)x([0-9]+)$ ]] || die "bad grid '$grid': expected PxQ"
  p=${BASH_REMATCH[1]} q=${BASH_REMATCH[2]}
  ranks=$((p * q))
  grid_reps=$reps
  ((ranks > cores)) && grid_reps=$reps_over
  log=$out_dir/pdgemm-${grid}.log
  "$launcher" -n "$ranks" -genv OPENBLAS_NUM_THREADS 1 "${coretype_env[@]}" \
    "$bench_pdgemm" -p "$p" -q "$q" -n "$orders" -b "$blocks" -r "$grid_reps" \
    --local-gflops "$local_rates" --csv "$pdgemm_csv" "${extra[@]}" > "$log" ||
    die "grid $grid failed (rows so far in $log and $pdgemm_csv)"
done

# ---- the table ---------------------------------------------------------------------------
echo
echo "local dgemm, 1 process, $local_threads BLAS threads (limit for efficiency):"
awk -F, 'NR == 1 { printf "%6s %10s %10s\n", "N", "median_s", "GFLOP/s"; next }
         { printf "%6d %10.4f %10.2f\n", $1, $4, $7 }' "$dgemm_csv"
echo
echo "pdgemm, hpdaemon vs reference, 1 BLAS thread per rank," \
     "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>} (ref/hpd > 1: hpdaemon faster):"
columns="%6s %5s %5s %4s %9s %-19s %9s %-19s %8s %8s %7s %6s %5s %6s %6s %8s %-11s %5s\n"
awk -F, -v fmt="$columns" '
  function seconds(x) { return sprintf("%.4f", x) }
  function span(lo, hi) { return sprintf("%.4f..%.4f", lo, hi) }
  function or_dash(x) { return x == "" || x == 0 ? "-" : x }
  NR == 1 { printf fmt, "N", "NB", "grid", "reps", "hpd_s", "hpd_min..max", "ref_s",
                   "ref_min..max", "hpd_GF/s", "ref_GF/s", "ref/hpd", "eff", "N_grp", "panels",
                   "engine", "fallback", "reason", "check"; next }
  { printf fmt, $1, $2, $3 "x" $4, $5, seconds($6), span($7, $8), seconds($9), span($10, $11),
           sprintf("%.2f", $12), sprintf("%.2f", $13), sprintf("%.3f", $14),
           ($16 == "" ? "-" : sprintf("%.3f", $16)), or_dash($17), ($17 > 0 ? $18 : "-"),
           $19, $20, or_dash($21), $23 }
' "$pdgemm_csv"

# ---- the targets -------------------------------------------------------------------------
echo
awk -F, -v n="$target_n" '
  function verdict(ok) { return ok ? "PASS" : "FAIL" }
  NR > 1 && $1 == n {
    grid = $3 "x" $4; rows++
    gf[grid, $2] = $12
    if (grid == "1x2" || grid == "2x1")
      printf "target %s N=%d NB=%-4d ref/hpd %.3f >= 1.05: %s   efficiency %s >= 0.93: %s\n",
             grid, n, $2, $14, verdict($14 >= 1.05),
             ($16 == "" ? "-" : sprintf("%.3f", $16)), ($16 == "" ? "n/a" : verdict($16 >= 0.93))
    else if (grid == "2x2")
      printf "target %s N=%d NB=%-4d ref/hpd %.3f > 1: %s\n", grid, n, $2, $14, verdict($14 > 1)
  }
  END {
    split("1x2 2x1", small, " ")
    for (i = 1; i in small; i++) {
      grid = small[i]
      if ((grid, 32) in gf && (grid, 256) in gf)
        printf "target %s N=%d NB=32 %.2f GFLOP/s >= 0.95 x NB=256 %.2f GFLOP/s: %s\n",
               grid, n, gf[grid, 32], gf[grid, 256], verdict(gf[grid, 32] >= 0.95 * gf[grid, 256])
    }
    if (!rows)
      printf "targets: defined at N=%d, which this run did not measure\n", n
  }' "$pdgemm_csv"
echo
echo "CSV: $dgemm_csv $pdgemm_csv (logs: $out_dir/*.log)"
