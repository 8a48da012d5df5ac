#!/usr/bin/env bash
# The network regime on emulated hosts (scripts/cluster): broadcast time against message
# size for each algorithm on several host counts and link rates, with the models T_P and
# T_B from the measured per-message time Ts and rate BW; pdgemm, LU and Cholesky under
# each schedule against reference ScaLAPACK in the same run; the first, second and steady
# calls of each Level 3 routine and factorization under the default settings, and a whole
# eigen-solve (pdsyevd, N=1472, NB=32, 2x1) against the reference (--quick: those two
# alone, in under 3 minutes).  CSV files and one plot.
# Needs root (network namespaces); exits 77 where they cannot be made.
# Usage and columns: timing/README.md ("Across emulated hosts").
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")

hosts=2,4,8
rates=1gbit,10gbit
sizes=64K,256K,1M,4M,8M,16M,64M
reps=5
orders=4096
blocks=            # -b; else 64 for pdgemm and the factorizations, 64,32 for the first calls
strategies=daemon,overlap,auto
gemm_grids="2:2x1 2:1x2 4:2x2 4:1x4 8:2x4"
factor_grids="2:1x2 2:2x1 4:2x2"
first_grids="2:1x2 2:2x1"
call_reps=5
eigen_order=1472
tune_file=          # --tune-file: the first calls keep and read verdicts there
out_dir=./timing-results/cluster
build_dir=${HPD_BUILD_DIR:-}
parts=bcast,pdgemm,factor,first,eigen

usage() {
  cat <<EOF2
usage: timing/run_cluster.sh [options]
  --quick               the first calls alone: each routine's first, second and steady
                        calls against the reference on 1x2 and 2x1, 1 Gbit/s, N=2048,
                        NB=64, 3 rounds: one table; and the eigen-solve: under 3
                        minutes on 2 cores
  --smoke               smoke run of the rest: 2 and 4 hosts at 1 Gbit/s, three sizes,
                        N=1024, 2 reps, no first calls
  --hosts H[,H...]      host counts of the broadcast part (default $hosts)
  --rates R[,R...]      link rates, tc's units (default $rates)
  --sizes S[,S...]      message sizes, K and M suffixes (default $sizes)
  -r REPS               repetitions of each broadcast (default $reps)
  -n N[,N...]           orders of pdgemm, the factorizations and the first calls
                        (default $orders)
  -b NB[,NB...]         block sizes (default 64; 64,32 for the first calls)
  -s S[,S...]           hpdaemon's strategies, one row each (default $strategies)
  --eigen-order N       the eigen-solve's order (default $eigen_order)
  --tune-file FILE      the first calls' processes run with HPD_TUNE_FILE=FILE: a run
                        saves its chunks, rates and settled routes there, and a later
                        run with the same FILE shows what an application's next run sees
  --calls REPS          timed calls (factorizations) per side and row, and the first
                        calls' steady rounds (default $call_reps)
  --parts P[,P...]      of bcast, pdgemm, factor, first, eigen (default $parts)
  -o DIR                where the CSV files, logs and the plot go (default $out_dir)
  -B DIR                build directory (default: \$HPD_BUILD_DIR, else $repo_dir/build)
pdgemm runs on $gemm_grids and the factorizations on $factor_grids (hosts:grid, one
rank per host, 1 Gbit/s), those with more hosts than --hosts allows left out; the first
calls on ${first_grids} at each rate of --rates, each order and block size (default 64,32);
the eigen-solve (bench_eigen: pdsyevd, NB=32) on 2x1 at each rate of --rates.
EOF2
}

die() { echo "run_cluster.sh: $*" >&2; exit 2; }

# The modes first, so that the other options win wherever they stand.
for arg in "$@"; do
  case $arg in
    --quick) parts=first,eigen rates=1gbit orders=2048 blocks=64 call_reps=3 ;;
    --smoke) hosts=2,4 rates=1gbit sizes=256K,4M,16M reps=2 orders=1024 call_reps=2
             parts=bcast,pdgemm,factor ;;
  esac
done
while (($#)); do
  case $1 in
    --quick|--smoke) ;;
    --hosts) hosts=${2:?}; shift ;;
    --rates) rates=${2:?}; shift ;;
    --sizes) sizes=${2:?}; shift ;;
    -r) reps=${2:?}; shift ;;
    -n) orders=${2:?}; shift ;;
    -b) blocks=${2:?}; shift ;;
    -s) strategies=${2:?}; shift ;;
    --calls) call_reps=${2:?}; shift ;;
    --eigen-order) eigen_order=${2:?}; shift ;;
    --tune-file) tune_file=${2:?}; shift ;;
    --parts) parts=${2:?}; shift ;;
    -o) out_dir=${2:?}; shift ;;
    -B) build_dir=${2:?}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done
first_blocks=${blocks:-64,32} blocks=${blocks:-64}
build_dir=${build_dir:-$repo_dir/build}
for exe in bench_bcast bench_pdgemm bench_factor bench_level3 bench_eigen; do
  [[ -x $build_dir/timing/$exe ]] || die "$build_dir/timing/$exe not found: build first"
done
cluster=$repo_dir/scripts/cluster
most_hosts=$(tr , '\n' <<< "$hosts" | sort -n | tail -1)

export OPENBLAS_NUM_THREADS=1
source "$script_dir/blas_kernels.sh"
mkdir -p "$out_dir/logs"
out_dir=$(cd "$out_dir" && pwd)
logs=$out_dir/logs

# A first run tells whether namespaces can be made here at all.
status=0
"$cluster" --hosts 2 -- true || status=$?
((status == 77)) && { echo "run_cluster.sh: emulated hosts cannot be made here (skipped)"; exit 77; }
((status == 0)) || die "scripts/cluster failed (status $status)"

step=0
steps() { # progress: one line per run
  step=$((step + 1))
  echo "run_cluster [$step] $(date +%T) $*" >&2
}

# ---- broadcasts ------------------------------------------------------------------------
bcast_csv=$out_dir/cluster-bcast.csv
if [[ ,$parts, == *,bcast,* ]]; then
  echo "hosts,rate,algorithm,bytes,chunk,median_s,min_s,max_s,gbps,ts_us,bw_gbps,model_s" \
    > "$bcast_csv"
  IFS=, read -r -a host_list <<< "$hosts"
  IFS=, read -r -a rate_list <<< "$rates"
  for rate in "${rate_list[@]}"; do
    for h in "${host_list[@]}"; do
      steps "broadcasts, $h hosts at $rate, sizes $sizes"
      raw=$logs/bcast-$h-$rate.csv log=$logs/bcast-$h-$rate.log
      rm -f "$raw"
      "$cluster" --hosts "$h" --rate "$rate" -- "$build_dir/timing/bench_bcast" \
        --mode bandwidth -s "$sizes" -r "$reps" --csv "$raw" > "$log"
      # Ts and BW between ranks 0 and 1, as the chunk sweep measures them.
      "$cluster" --hosts "$h" --rate "$rate" -- "$build_dir/timing/bench_bcast" \
        --mode chunks -s 1M -c 64K -r 3 >> "$log"
      read -r ts_us bw < <(sed -n 's/.*Ts = \([0-9.]*\) us and BW = \([0-9.]*\) GB\/s.*/\1 \2/p' \
                             "$log" | head -1)
      # T_B = (Ts + S/BW) ceil(log2 P); T_P = (Ts + c/BW) (S/c + P - 1) at the tuned chunk c, as bench_bcast prints them.
      awk -F, -v h="$h" -v rate="$rate" -v ts="${ts_us:-0}" -v bw="${bw:-0}" '
        NR > 1 && $1 == "bandwidth" {
          s = $5; c = $6; model = ""
          if (bw > 0) {
            steps = 0; for (p = 1; p < h; p *= 2) steps++
            if ($3 == "pipeline" && c > 0)
              model = (ts * 1e-6 + c / (bw * 1e9)) * (s / c + h - 1)
            else if ($3 == "binomial")
              model = (ts * 1e-6 + s / (bw * 1e9)) * steps
          }
          printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", h, rate, $3, s, c, $9, $10, $11,
                 $12, ts, bw, model
        }' "$raw" >> "$bcast_csv"
      grep -A20 '^bandwidth' "$log" | sed -n '1,/^$/p'
    done
  done
  # The targets: pipeline against the link, binomial and MPI_Bcast from 8 MiB on.
  awk -F, 'NR > 1 && $2 == "1gbit" && $4 >= 8388608 { g[$1, $4, $3] = $9; k[$1, $4] = 1 }
    END {
      for (x in k) {
        split(x, q, SUBSEP); p = g[x, "pipeline"]
        printf "target %s hosts %d MiB: pipeline %.3f GB/s = %.2f of the link; %.2fx binomial, %.2fx MPI_Bcast\n",
               q[1], q[2] / 1048576, p, p / 0.125, p / g[x, "binomial"], p / g[x, "mpi_bcast"]
      }
    }' "$bcast_csv" | sort -n -k2 -k4
fi

# ---- pdgemm and the factorizations -----------------------------------------------------
# one_row KIND HOSTS GRID STRATEGY: a benchmark on HOSTS emulated hosts, one rank each.
one_row() {
  local kind=$1 h=$2 grid=$3 strategy=$4 csv=$out_dir/cluster-$1.csv
  local p=${grid%x*} q=${grid#*x}
  steps "$kind $grid on $h hosts, strategy $strategy, N=$orders NB=$blocks"
  if [[ $kind == pdgemm ]]; then
    HPD_STRATEGY=$strategy "$cluster" --hosts "$h" -- "$build_dir/timing/bench_pdgemm" \
      -n "$orders" -b "$blocks" -p "$p" -q "$q" -r "$call_reps" --csv "$csv"
  else
    HPD_STRATEGY=$strategy "$cluster" --hosts "$h" -- "$build_dir/timing/bench_factor" \
      -n "$orders" -b "$blocks" -p "$p" -q "$q" -r "$call_reps" --csv "$csv"
  fi
}

IFS=, read -r -a strategy_list <<< "$strategies"
for kind in pdgemm factor; do
  [[ ,$parts, == *,$kind,* ]] || continue
  rm -f "$out_dir/cluster-$kind.csv"
  grids=$gemm_grids
  [[ $kind == factor ]] && grids=$factor_grids
  for entry in $grids; do
    h=${entry%%:*} grid=${entry#*:}
    ((h <= most_hosts)) || continue
    for s in "${strategy_list[@]}"; do
      one_row "$kind" "$h" "$grid" "$s" | tee -a "$logs/$kind.log" | grep -v '^#' || true
    done
  done
done

[[ ,$parts, == *,first,* ]] && source "$script_dir/run_cluster_first.sh"

# ---- a whole eigen-solve: hundreds of one-panel calls, none of which may lose ----------
# eigen_first_pairs RATE: the fair first solves, each side's first and second in a fresh
# process of its own (--first-calls), in pairs whose order alternates.  In the run above
# hpdaemon's first solve also takes the process's first touches of the solve's arrays,
# which the reference's first, after it, finds made.  Rows: cluster-eigen-first.csv (the
# rate, the pair, then bench_first.h's columns); one line: the medians, and the pairs'
# ratios (reference over hpdaemon) with their range.
eigen_first_pairs() {
  local rate=$1 pair side row=$logs/eigen-first-row.csv csv=$out_dir/cluster-eigen-first.csv
  local -a sides
  for ((pair = 1; pair <= call_reps; pair++)); do
    sides=(hpd ref)
    ((pair % 2 == 0)) && sides=(ref hpd)
    for side in "${sides[@]}"; do
      steps "eigen-solve's first solves, pair $pair of $call_reps, cold $side at $rate"
      rm -f "$row"
      "$cluster" --hosts 2 --rate "$rate" -- "$build_dir/timing/bench_eigen" \
        -n "$eigen_order" -b 32 -p 2 -q 1 -r 0 --first-calls "$side" --csv "$row" \
        >> "$logs/eigen.log" 2>&1 ||
        echo "run_cluster.sh: the eigen-solve's cold $side process failed (see $logs/eigen.log)" >&2
      [[ -s $csv ]] || sed -n '1s/^/rate,pair,/p' "$row" > "$csv" 2>/dev/null || true
      [[ -s $row ]] && tail -n +2 "$row" | sed "s/^/$rate,$pair,/" >> "$csv"
    done
  done
  [[ -s $csv ]] || { echo "eigen first solves: no process finished (see the eigen log)"; return; }
  awk -F, -v rate="$rate" '
    $1 == rate && $9 == "hpd" { hf[$2] = $10; hs[$2] = $11 }
    $1 == rate && $9 == "ref" { rf[$2] = $10; rs[$2] = $11 }
    function median(a, n,   i, j, t) { # sorts a[1..n]
      for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
      for (p in hf) if (p in rf) {
        n++; a[n] = hf[p]; b[n] = rf[p]; c[n] = rf[p] / hf[p]; d[n] = rs[p] / hs[p]
      }
      if (!n) { print "eigen first solves: no pair finished (see the eigen log)"; exit }
      ratio = median(c, n)
      printf "eigen first solves at %s, fresh processes, %d of each side: hpd %.3f s, " \
             "ref %.3f s (medians); ref/hpd first %.3f (%.3f..%.3f), second %.3f\n", rate, n,
             median(a, n), median(b, n), ratio, c[1], c[n], median(d, n)
    }' "$csv"
}

if [[ ,$parts, == *,eigen,* ]]; then
  rm -f "$out_dir/cluster-eigen.csv" "$out_dir/cluster-eigen-first.csv"
  IFS=, read -r -a rate_list <<< "$rates"
  for rate in "${rate_list[@]}"; do
    steps "eigen-solve pdsyevd 2x1 on 2 hosts at $rate, N=$eigen_order NB=32"
    "$cluster" --hosts 2 --rate "$rate" -- "$build_dir/timing/bench_eigen" -n "$eigen_order" -b 32 \
      -p 2 -q 1 -r $((call_reps < 6 ? 7 : call_reps)) --csv "$out_dir/cluster-eigen.csv" \
      | tee -a "$logs/eigen.log" | grep -v '^#' || true
    eigen_first_pairs "$rate"
  done
fi

if command -v gnuplot >/dev/null && [[ -s $bcast_csv ]]; then
  gnuplot -e "dir='$out_dir'" "$script_dir/plots/cluster_bcast.gp" ||
    echo "run_cluster.sh: the plot failed" >&2
fi
echo "CSV: $out_dir/cluster-*.csv (logs: $logs)"
