#!/usr/bin/env bash
# The paper's evaluation in one command, against reference ScaLAPACK: the broadcasts
# (Figure 4), the cost of frequency switches (Figure 5), energy and time per strategy
# (Figure 6), the memory threshold against N_grp (Table 3), pdgemm's rate against N with
# LU and Cholesky; CSV files and PNG plots in one folder.  How to read the plots:
# timing/README.md, "The whole evaluation".
set -euo pipefail
# The whole file is one block, read before any of it runs: a run takes minutes, and the
# file may change under it (an edit, a checkout) without the rest of the run changing.
# shellcheck disable=SC2317 # the step functions are called by name, through run_step
{
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
plot_dir=$script_dir/plots

out_dir=./timing-results/suite
build_dir=${HPD_BUILD_DIR:-}
quick=0
grid=1x2
orders=""
ranks=""
cluster=auto

usage() {
  cat <<EOF
usage: timing/run_suite.sh [options]
  --quick     smoke run (well under a minute): tiny sizes, few repetitions; the plots
              only show that every step works
  -o DIR      where every CSV and PNG goes, logs in DIR/logs (default $out_dir)
  -B DIR      build directory holding timing/ and testing/ programs (default:
              \$HPD_BUILD_DIR, else $repo_dir/build)
  -g PxQ      process grid of the pdgemm, energy, DVFS and factorization steps (default
              $grid; the pdgemm step also runs QxP)
  -n N[,N...] matrix orders of the energy, pdgemm and factorization steps (default: see
              timing/README.md)
  --ranks P[,P...]  rank counts of the broadcast step (default 2,4)
  --cluster on|off|auto  the network step on emulated hosts (timing/run_cluster.sh,
              about 15 minutes; needs root): auto (default) runs it in the default run
              where hosts can be made, never in a quick one
The default run takes about 10 minutes on 2 cores.  HPD_DVFS, HPD_SIM_SWITCH_US,
HPD_ENERGY and HPD_SWITCH_MIN_MS in the environment choose the backend, emulated latency,
meter and daemon's switch rule of the energy and factorization steps (default sim, 70 us,
auto: modeled where no meter can be read, auto: the power model's break-even; 0 is the
paper's rule).  Every launch is mpiexec.mpich's: HYDRA_HOST_FILE spreads the ranks over nodes,
HYDRA_BINDING=core binds them.
EOF
}

die() { echo "run_suite.sh: $*" >&2; exit 2; }

while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    -o) out_dir=${2:?-o needs a value}; shift ;;
    -B) build_dir=${2:?-B needs a value}; shift ;;
    -g) grid=${2:?-g needs a value}; shift ;;
    -n) orders=${2:?-n needs a value}; shift ;;
    --ranks) ranks=${2:?--ranks needs a value}; shift ;;
    --cluster) cluster=${2:?--cluster needs a value}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done
build_dir=${build_dir:-$repo_dir/build}
[[ $grid =~ ^([0-9]+)x([0-9]+)$ ]] || die "bad grid '$grid': expected PxQ"
p=${BASH_REMATCH[1]} q=${BASH_REMATCH[2]}
((p * q >= 2)) || die "grid $grid has one process: nothing would be broadcast"
[[ -z $orders || $orders =~ ^[0-9]+(,[0-9]+)*$ ]] ||
  die "bad orders '$orders': expected N[,N...]"
[[ -z $ranks || $ranks =~ ^[0-9]+(,[0-9]+)*$ ]] || die "bad rank counts '$ranks': expected P[,P...]"

# ---- sizes ---------------------------------------------------------------------------
# Chosen so that the default run takes about 10 minutes on a 2-core machine that runs
# nothing else (two or three times that while other jobs share its cores); the matrices
# stay far below memory, so a larger node only runs them faster.
if ((quick)); then
  bcast_ranks=2,4 bcast_reps=3 bcast_size=4M chunks=8K,64K,512K,4M
  switch_counts=0,10,100,1000 switch_reps=3
  dvfs_order=1024 dvfs_ngrps=1,4,32 dvfs_reps=3
  energy_orders=512,1024 energy_reps=1
  pdgemm_orders=512,1024 pdgemm_reps=2
  factor_orders=512,1024 factor_reps=1
else
  bcast_ranks=2,4 bcast_reps=9 bcast_size=16M
  chunks=8K,16K,32K,64K,128K,256K,512K,1M,2M,4M,16M
  switch_counts=0,10,20,50,100,200,500,1000,2000 switch_reps=9
  dvfs_order=2048 dvfs_ngrps=1,2,4,8,16,32,64 dvfs_reps=7
  energy_orders=1024,2048,3072,4096,5120 energy_reps=5
  pdgemm_orders=1024,2048,3072,4096,5120 pdgemm_reps=5
  factor_orders=1024,2048,3072,4096,5120 factor_reps=5
fi
if [[ -n $orders ]]; then
  energy_orders=$orders pdgemm_orders=$orders factor_orders=$orders
fi
[[ -n $ranks ]] && bcast_ranks=$ranks
pdgemm_grids=${p}x$q
((p != q)) && pdgemm_grids+=,${q}x$p
block=32         # the paper's block size, ScaLAPACK's default
threshold=0.2    # the paper's example, hpdaemon's default
latency_us=${HPD_SIM_SWITCH_US:-70}

# ---- what the run needs ----------------------------------------------------------------
[[ -d $build_dir ]] || die "build directory $build_dir not found: build first" \
  "(bash scripts/build, or cmake -S $repo_dir -B $build_dir && cmake --build $build_dir)"
build_dir=$(cd "$build_dir" && pwd)
missing=()
for exe in timing/bench_bcast timing/bench_dvfs_switches timing/bench_dvfs_pdgemm \
           timing/bench_pdgemm timing/bench_dgemm testing/energy_driver; do
  [[ -x $build_dir/$exe ]] || missing+=("$build_dir/$exe")
done
((${#missing[@]} == 0)) ||
  die "not built: ${missing[*]} (build first: cmake --build $build_dir)"
for script in run_bcast.sh run_dvfs.sh run_pdgemm.sh; do
  [[ -f $script_dir/$script ]] || die "$script_dir/$script is missing"
done
launcher=$(command -v mpiexec.mpich) || die "mpiexec.mpich not found (bash scripts/setup)"
command -v gnuplot >/dev/null ||
  die "gnuplot not found: the plots need it (bash scripts/setup installs gnuplot-nox)"
# LU and Cholesky against the reference come from a benchmark that may not be built yet;
# without it that part of the last plot says so, and the rest of the suite runs.
have_factor=0
[[ -x $build_dir/timing/bench_factor && -f $script_dir/run_factor.sh ]] && have_factor=1

# As every timing script: one BLAS thread per rank, and the AVX-512 kernels where the CPU
# has them (OpenBLAS picks slower ones there), the same on every side of a comparison.
export OPENBLAS_NUM_THREADS=1
source "$script_dir/blas_kernels.sh"

mkdir -p "$out_dir/logs"
out_dir=$(cd "$out_dir" && pwd)
logs=$out_dir/logs
csv_files=(bcast.csv dvfs-switches.csv dvfs-pdgemm.csv energy.csv table3.csv dgemm.csv
           pdgemm.csv calls.csv drivers.csv)
png_files=(fig4-broadcast.png fig5-dvfs-overhead.png fig6-energy-time.png table3-memory.png
           pdgemm-scaling.png calls.png)
((have_factor)) && csv_files+=(factor.csv)
# The network step needs namespaces (root); auto leaves it out of quick runs.
have_cluster=0
case $cluster in
  on) have_cluster=1 ;;
  auto) ((quick)) || { ((EUID == 0)) && command -v ip >/dev/null && have_cluster=1; } ;;
  off) ;;
  *) die "bad --cluster '$cluster': expected on, off or auto" ;;
esac
((have_cluster)) && csv_files+=(cluster-bcast.csv cluster-pdgemm.csv cluster-factor.csv) &&
  png_files+=(cluster-bcast.png)
# A file left from an earlier run would pass for this run's if its step failed.
for f in "${csv_files[@]}" "${png_files[@]}" factor.csv cluster-bcast.csv cluster-pdgemm.csv \
         cluster-factor.csv cluster-bcast.png; do
  rm -f "$out_dir/$f"
done

# ---- progress --------------------------------------------------------------------------
# Seconds each step takes on a quiet 2-core machine; the estimate of what is left scales
# them by how this machine has kept to them so far.
if ((quick)); then
  declare -A cost=([bcast]=3 [switches]=1 [dvfs]=2 [energy]=3 [pdgemm]=3 [factor]=1
                   [calls]=25 [plots]=2 [cluster]=150)
else
  declare -A cost=([bcast]=15 [switches]=4 [dvfs]=70 [energy]=210 [pdgemm]=150
                   [factor]=85 [calls]=240 [plots]=2 [cluster]=900)
fi
steps=(bcast switches dvfs energy pdgemm)
((have_factor)) && steps+=(factor)
((have_cluster)) && steps+=(cluster)
steps+=(calls plots)
start=$SECONDS
done_cost=0
total_cost=0
for k in "${steps[@]}"; do total_cost=$((total_cost + cost[$k])); done
exec 3>&2 # a step's output goes to its log; its progress lines come here
step_index=0
failed=()

clock() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# progress STEP TEXT: one line on stderr as a step starts.
progress() {
  local key=$1 text=$2 left=0 k seen=0 elapsed=$((SECONDS - start))
  step_index=$((step_index + 1))
  for k in "${steps[@]}"; do
    [[ $k == "$key" ]] && seen=1
    ((seen)) && left=$((left + cost[$k]))
  done
  # A quarter of the whole run's usual time weighs in as already kept to, so that one
  # short step on a busy moment does not multiply the whole estimate.
  left=$((left * (elapsed + total_cost / 4) / (done_cost + total_cost / 4)))
  printf 'suite [%d/%d] %s elapsed, about %s left: %s\n' "$step_index" "${#steps[@]}" \
    "$(clock "$elapsed")" "$(clock "$left")" "$text" >&2
}

# finish STEP STATUS LOG: books the step's cost; a failure is reported with its log's end.
finish() {
  local key=$1 status=$2 log=$3
  done_cost=$((done_cost + cost[$key]))
  if ((status != 0)); then
    failed+=("$key")
    echo "suite: step '$key' failed (status $status); the end of $log:" >&2
    tail -n 8 "$log" | sed 's/^/  | /' >&2
  fi
}

# run_step STEP TEXT MORE_TEXT FUNCTION: a failed step leaves the others to run.
run_step() {
  local key=$1 text="$2${3:+ $3}" fn=$4 status=0
  progress "$key" "$text"
  "$fn" > "$logs/$key.log" 2>&1 || status=$?
  finish "$key" "$status" "$logs/$key.log"
}

echo "run_suite.sh: $( ((quick)) && echo "quick smoke run" || echo "default run");" \
     "build $build_dir; results in $out_dir;" \
     "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>}, $(nproc) cores" >&2

# ---- the steps -------------------------------------------------------------------------
# They are called through run_step, by name.

# Figure 4: the pipeline at each chunk size with the binomial tree (chunk sweep), and the
# same message through MPI_Ibcast and MPI_Bcast (bandwidth table at that one size).  Both
# under yield: a sleeping receiver stalls the tree's and MPI's single large piece.
step_bcast() {
  "$script_dir/run_bcast.sh" -B "$build_dir" -o "$logs/bcast" --ranks "$bcast_ranks" \
    -r "$bcast_reps" --sizes "$bcast_size" --bandwidth-wait yield --chunk-wait yield \
    --chunk-size "$bcast_size" --chunks "$chunks" --delays 20 &&
    cp "$logs/bcast/bcast.csv" "$out_dir/bcast.csv"
}

# Figure 5, left: switches alone on one rank, at the emulated latency and at 0.
step_switches() {
  "$script_dir/run_dvfs.sh" -B "$build_dir" -o "$logs/dvfs" --switches-only \
    -s "$switch_counts" --switch-reps "$switch_reps" --latency-us "$latency_us" &&
    cp "$logs/dvfs/dvfs-switches.csv" "$out_dir/dvfs-switches.csv"
}

# Figure 5, right: the same switches inside pdgemm, each strategy at several N_grp.
step_dvfs() {
  "$script_dir/run_dvfs.sh" -B "$build_dir" -o "$logs/dvfs" --pdgemm-only -n "$dvfs_order" \
    -b "$block" -g "$grid" --ngrp "$dvfs_ngrps" -r "$dvfs_reps" --latency-us "$latency_us" &&
    cp "$logs/dvfs/dvfs-pdgemm.csv" "$out_dir/dvfs-pdgemm.csv"
}

# Figure 6 and Table 3: the energy driver at each order.  Its CSV holds the strategies;
# the reference's row, the DVFS backend and Table 3 are printed only, so they are taken
# from its output.  energy.csv is the driver's CSV with the reference's rows and a last
# column, dvfs: the backend (under sim the clock never changed, whatever the model books).
step_energy() {
  local n count=0 total status=0 rows=$logs/energy-rows.csv
  local -a order_list
  IFS=, read -r -a order_list <<< "$energy_orders"
  total=${#order_list[@]}
  rm -f "$rows"
  printf 'n,nb,p,q,kind,threshold,ngrp,panels,extra_mib_model,extra_mib_observed,%s\n' \
    'rss_growth_mib,time_s' > "$out_dir/table3.csv"
  for n in "${order_list[@]}"; do
    count=$((count + 1))
    echo "suite [$step_index/${#steps[@]}]   energy driver N=$n ($count of $total)" >&3
    local log=$logs/energy-$n.log csv=$logs/energy-$n.csv
    rm -f "$csv"
    HPD_DVFS=${HPD_DVFS:-sim} HPD_SIM_SWITCH_US=$latency_us \
      "$launcher" -n $((p * q)) "$build_dir/testing/energy_driver" -n "$n" -b "$block" \
      -p "$p" -q "$q" -r "$energy_reps" -t "$threshold" --csv "$csv" > "$log" 2>&1 ||
      { status=$?; echo "energy driver N=$n failed (status $status): $log"; }
    cat "$log"
    [[ -s $csv ]] || continue
    # "# DVFS: sim backend (...)"
    local backend
    backend=$(awk '$1 == "#" && $2 == "DVFS:" { print $3; exit }' "$log")
    [[ -s $rows ]] || sed -n '1s/$/,dvfs/p' "$csv" > "$rows"
    sed -n "2,\$s/\$/,${backend:-unknown}/p" "$csv" >> "$rows"
    # The reference's medians: "... for context: pdgemm T s, pdgetrf T s; energy pdgemm
    # E J, pdgetrf E J (source)", in the driver's columns, empty where it has no figure.
    awk -v n="$n" -v nb="$block" -v p="$p" -v q="$q" -v t="$threshold" \
        -v runs="$energy_reps" -v backend="${backend:-unknown}" '
      /^# reference ScaLAPACK/ {
        line = $0
        sub(/.*for context: /, "", line)
        gsub(/[,;()]/, " ", line)
        k = split(line, w, " ")
        for (i = 1; i + 2 <= k; i++) {
          if (w[i + 2] == "s") time[w[i]] = w[i + 1]
          if (w[i + 2] == "J") energy[w[i]] = w[i + 1]
        }
        for (r in time)
          printf "%s,reference,%s,%s,%s,%s,%s,%s,,,,,%s,%s,%s,,,,,%s\n", r, n, nb, p, q, t,
                 runs, time[r], energy[r], (r in energy ? w[k] : "none"), backend
      }' "$log" >> "$rows"
    # Table 3's rows sit between its header line and the "# model:" note.
    awk -v n="$n" -v nb="$block" -v p="$p" -v q="$q" -v own="$threshold" '
      /^# Table 3/ { on = 1; next }
      /^# model:/ { on = 0 }
      on && $1 ~ /^[0-9.e+-]+$/ && NF == 7 {
        kind = ($1 - own) ^ 2 < (0.01 * own) ^ 2 ? "own" : "ladder"
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", n, nb, p, q, kind, $1, $2, $3, $4,
               $5, $6, $7
      }' "$log" >> "$out_dir/table3.csv"
  done
  [[ -s $rows ]] || { echo "no energy rows written"; return 1; }
  mv "$rows" "$out_dir/energy.csv"
  return "$status"
}

# The rate against N, with the local dgemm limit for the efficiency.
step_pdgemm() {
  "$script_dir/run_pdgemm.sh" -B "$build_dir" -o "$logs/pdgemm" -n "$pdgemm_orders" \
    -b "$block" -g "$pdgemm_grids" -r "$pdgemm_reps" &&
    cp "$logs/pdgemm/pdgemm.csv" "$logs/pdgemm/dgemm.csv" "$out_dir/"
}

# LU (pdgetrf) and Cholesky (pdpotrf) under daemon, each against the reference in the
# same run, as the energy step: sim backend at the emulated latency.
step_factor() {
  HPD_SIM_SWITCH_US=$latency_us "$script_dir/run_factor.sh" -B "$build_dir" \
    -o "$logs/factor" -n "$factor_orders" -b "$block" -g "$grid" -r "$factor_reps" -f both \
    -s daemon &&
    cp "$logs/factor/factor.csv" "$out_dir/factor.csv"
}

# The network regime on emulated hosts: broadcasts on 2, 4 and 8 hosts at 1 and 10
# Gbit/s, pdgemm and the factorizations under daemon and overlap (its own plot); not the
# first calls (run_cluster.sh --quick prints those).
step_cluster() {
  local -a more=(--hosts 2,4,8 --rates 1gbit,10gbit --sizes 64K,1M,8M,64M -r 3 -n 4096
                 -b 64 --calls 3 --parts bcast,pdgemm,factor)
  ((quick)) && more=(--smoke)
  "$script_dir/run_cluster.sh" -B "$build_dir" -o "$logs/cluster" "${more[@]}" &&
    cp "$logs/cluster"/cluster-*.csv "$logs/cluster/cluster-bcast.png" "$out_dir/"
}

# Never slower on any call: small and nested calls, the drivers' call mixes, on 1x1 and
# 1x2, quiet and under a fixed load (timing/run_calls.sh, its own plot).
step_calls() {
  local -a more=(-g 1x1,1x2 -r 9 --factor-orders 1024)
  ((quick)) && more=(--quick)
  "$script_dir/run_calls.sh" -B "$build_dir" -o "$logs/calls" "${more[@]}" &&
    cp "$logs/calls/calls.csv" "$logs/calls/drivers.csv" "$logs/calls/calls.png" "$out_dir/"
}

# One gnuplot script per figure; each reads the CSV files and writes its PNG.
step_plots() {
  local gp status=0
  for gp in fig4_broadcast fig5_dvfs_overhead fig6_energy_time table3_memory pdgemm_scaling; do
    echo "== $gp"
    gnuplot -e "dir='$out_dir'; quick=$quick" "$plot_dir/$gp.gp" || status=1
  done
  return "$status"
}

run_step bcast "broadcast time against chunk size, pipeline, binomial and MPI," \
  "ranks $bcast_ranks (Figure 4)" step_bcast
run_step switches "time of frequency switches alone, sim backend at $latency_us us" \
  "(Figure 5)" step_switches
run_step dvfs "switches inside pdgemm N=$dvfs_order, each strategy at N_grp $dvfs_ngrps" \
  "(Figure 5)" step_dvfs
run_step energy "energy and time per strategy and Table 3, energy driver" \
  "N=$energy_orders (Figure 6, Table 3)" step_energy
run_step pdgemm "pdgemm GFLOP/s against N=$pdgemm_orders on $pdgemm_grids," \
  "and local dgemm" step_pdgemm
if ((have_factor)); then
  run_step factor "LU and Cholesky with and without hpdaemon," "N=$factor_orders" step_factor
else
  echo "suite: LU and Cholesky skipped: $build_dir/timing/bench_factor is not built" \
       "(the last plot says so)" >&2
fi
((have_cluster)) && run_step cluster "broadcasts, pdgemm, LU and Cholesky on emulated hosts" \
  "(timing/run_cluster.sh)" step_cluster
run_step calls "small and nested calls against the reference, quiet and under load," \
  "and the drivers' call mixes" step_calls
run_step plots "plots" "" step_plots

# ---- what was written ----------------------------------------------------------------------
elapsed=$((SECONDS - start))
absent=()
for f in "${csv_files[@]}" "${png_files[@]}"; do
  [[ -s $out_dir/$f ]] || absent+=("$f")
done
echo "suite: done in $(clock "$elapsed")" >&2
echo "results in $out_dir (logs in $logs):"
for f in "${csv_files[@]}" "${png_files[@]}"; do
  [[ -s $out_dir/$f ]] && printf '  %-24s %8d bytes\n' "$f" "$(stat -c %s "$out_dir/$f")"
done
if ((${#failed[@]} || ${#absent[@]})); then
  echo "run_suite.sh: failed steps: ${failed[*]:-none};" \
       "missing or empty: ${absent[*]:-none}" >&2
  exit 1
fi
exit 0
}
