#!/usr/bin/env bash
# The cost of frequency switching, on the sim backend: switches alone against their number
# (Figure 5), at the emulated latency and at 0, then pdgemm under each strategy at several
# N_grp (Figure 6, Eq. 4) against reference ScaLAPACK.  How to read it: timing/README.md,
# "DVFS overhead".
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")

order=4096
block=32
grid=1x2
ngrps=1,2,4,8
reps=5
counts=0,10,20,50,100,200,500,1000
switch_reps=9
latency=70
out_dir=./timing-results
build_dir=${HPD_BUILD_DIR:-}
skip_switches=0
skip_pdgemm=0

usage() {
  cat <<EOF
usage: timing/run_dvfs.sh [options]
  --quick            smoke test: N=1024, 3 timed calls per row, 5 repetitions per switch row
  -n N               matrix order of the pdgemm rows (default $order)
  -b NB              block size (default $block)
  -g PxQ             process grid (default $grid); ranks = P*Q
  --ngrp LIST        N_grp wanted, each reached through the memory threshold (default $ngrps)
  -r REPS            timed calls per strategy and N_grp (default $reps)
  -s LIST            numbers of switches of the switch rows (default $counts)
  --switch-reps R    repetitions per switch row (default $switch_reps)
  --latency-us US    sim's emulated latency per switch (default $latency, the paper's);
                     the switch rows are also run at 0
  --switches-only    only the switch rows
  --pdgemm-only      only the pdgemm rows
  -o DIR             where the CSV files and logs go (default $out_dir)
  -B DIR             build directory holding timing/bench_dvfs_* (default: \$HPD_BUILD_DIR,
                     the current directory if it is one, else $repo_dir/build)
EOF
}

die() { echo "run_dvfs.sh: $*" >&2; exit 2; }

while (($#)); do
  case $1 in
    --quick) order=1024; reps=3; switch_reps=5 ;;
    -n) order=${2:?-n needs a value}; shift ;;
    -b) block=${2:?-b needs a value}; shift ;;
    -g) grid=${2:?-g needs a value}; shift ;;
    --ngrp) ngrps=${2:?--ngrp needs a value}; shift ;;
    -r) reps=${2:?-r needs a value}; shift ;;
    -s) counts=${2:?-s needs a value}; shift ;;
    --switch-reps) switch_reps=${2:?--switch-reps needs a value}; shift ;;
    --latency-us) latency=${2:?--latency-us needs a value}; shift ;;
    --switches-only) skip_pdgemm=1 ;;
    --pdgemm-only) skip_switches=1 ;;
    -o) out_dir=${2:?-o needs a value}; shift ;;
    -B) build_dir=${2:?-B needs a value}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done

[[ $grid =~ ^([0-9]+)x([0-9]+)$ ]] || die "bad grid '$grid': expected PxQ"
p=${BASH_REMATCH[1]} q=${BASH_REMATCH[2]}
if [[ -z $build_dir ]]; then
  if [[ -x ./timing/bench_dvfs_pdgemm ]]; then build_dir=.; else build_dir=$repo_dir/build; fi
fi
bench_switches=$build_dir/timing/bench_dvfs_switches
bench_pdgemm=$build_dir/timing/bench_dvfs_pdgemm
for exe in "$bench_switches" "$bench_pdgemm"; do
  [[ -x $exe ]] ||
    die "$exe not found: build first (cmake -S $repo_dir -B $build_dir && cmake --build $build_dir)"
done
# The plain launcher name belongs to another MPI here; ScaLAPACK and hpdaemon use MPICH.
launcher=$(command -v mpiexec.mpich) || die "mpiexec.mpich not found"

# As run_pdgemm.sh: one BLAS thread per rank, and the AVX-512 kernels where the CPU has
# them, on every side alike.
source "$script_dir/blas_kernels.sh"
blas_env=(-genv OPENBLAS_NUM_THREADS 1)
[[ -n ${OPENBLAS_CORETYPE:-} ]] && blas_env+=(-genv OPENBLAS_CORETYPE "$OPENBLAS_CORETYPE")

mkdir -p "$out_dir"
switches_csv=$out_dir/dvfs-switches.csv
pdgemm_csv=$out_dir/dvfs-pdgemm.csv
echo "run_dvfs.sh: sim backend, ${latency} us per switch; pdgemm N=$order NB=$block grid $grid" \
     "N_grp=$ngrps reps=$reps; OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>};" \
     "results in $out_dir" >&2

# ---- Figure 5: switches alone, one rank ------------------------------------------------
if ((!skip_switches)); then
  rm -f "$switches_csv"
  for us in "$latency" 0; do
    echo
    "$launcher" -n 1 "${blas_env[@]}" "$bench_switches" -s "$counts" -r "$switch_reps" \
      --latency-us "$us" --csv "$switches_csv" | tee "$out_dir/dvfs-switches-${us}us.log" ||
      die "switch rows at ${us} us failed (log: $out_dir/dvfs-switches-${us}us.log)"
  done
fi

# ---- Figure 6: pdgemm under each strategy ------------------------------------------------
if ((!skip_pdgemm)); then
  rm -f "$pdgemm_csv"
  echo
  "$launcher" -n $((p * q)) "${blas_env[@]}" "$bench_pdgemm" -p "$p" -q "$q" -n "$order" \
    -b "$block" -r "$reps" --ngrp "$ngrps" --latency-us "$latency" --csv "$pdgemm_csv" |
    tee "$out_dir/dvfs-pdgemm.log" ||
    die "pdgemm rows failed (log: $out_dir/dvfs-pdgemm.log, rows so far: $pdgemm_csv)"
fi

written=()
((skip_switches)) || written+=("$switches_csv")
((skip_pdgemm)) || written+=("$pdgemm_csv")
echo
echo "CSV: ${written[*]} (logs: $out_dir/dvfs-*.log)"
