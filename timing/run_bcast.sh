#!/usr/bin/env bash
# hpdaemon's broadcasts on their own, then (with --pdgemm) what they do for pdgemm: the
# bandwidth of each algorithm, the chunk sweep with the models T_B and T_P, the CPU cost
# of each wait policy, and pdgemm against reference ScaLAPACK on 2x2 and 1x2.
# Usage and columns: timing/README.md.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")

ranks=2,4
reps=7
sizes=8K,32K,128K,512K,2M,8M,32M,64M
bandwidth_waits=sleep,yield
chunk_wait=yield
chunk_size=16M
chunks=8K,16K,32K,64K,128K,256K,512K,1M,2M,4M,16M
wait_size=1M
delays=0,2,20
pdgemm=0
pdgemm_wait=sleep
pdgemm_reps=5
out_dir=./timing-results
build_dir=${HPD_BUILD_DIR:-}

usage() {
  cat <<EOF
usage: timing/run_bcast.sh [options]
  --quick               smoke test: three sizes, 3 repetitions, one delay
  --ranks P[,P...]      rank counts (default $ranks; more than the cores oversubscribe)
  -r REPS               repetitions of every measurement (default $reps)
  --sizes S[,S...]      bandwidth message sizes, K and M suffixes (default $sizes)
  --bandwidth-wait W[,W...]  wait policies of the bandwidth table (default $bandwidth_waits)
  --chunk-size S        message size of the chunk sweep (default $chunk_size)
  --chunk-wait W        wait policy of the chunk sweep (default $chunk_wait: the binomial
                        tree's one large piece crawls under sleep)
  --chunks C[,C...]     chunk sizes of the sweep (default $chunks)
  --wait-size S         message size of the wait-policy table (default $wait_size)
  --delays MS[,MS...]   what the root computes before each broadcast there (default $delays)
  --pdgemm              also pdgemm at N=4096 against reference ScaLAPACK: 2x2 with
                        --pdgemm-wait, 1x2 with the defaults and with the MPI broadcast
  --pdgemm-wait W       wait policy for the 2x2 run (default $pdgemm_wait)
  --pdgemm-reps R       timed calls per side there (default $pdgemm_reps)
  -o DIR                where bcast.csv, logs and pdgemm results go (default $out_dir)
  -B DIR                build directory holding timing/bench_bcast (default: \$HPD_BUILD_DIR,
                        the current directory if it is one, else $repo_dir/build)
EOF
}

die() { echo "run_bcast.sh: $*" >&2; exit 2; }

while (($#)); do
  case $1 in
    --quick) sizes=8K,512K,8M; reps=3; delays=20; chunks=8K,64K,512K,4M ;;
    --ranks) ranks=${2:?--ranks needs a value}; shift ;;
    -r) reps=${2:?-r needs a value}; shift ;;
    --sizes) sizes=${2:?--sizes needs a value}; shift ;;
    --bandwidth-wait) bandwidth_waits=${2:?--bandwidth-wait needs a value}; shift ;;
    --chunk-size) chunk_size=${2:?--chunk-size needs a value}; shift ;;
    --chunk-wait) chunk_wait=${2:?--chunk-wait needs a value}; shift ;;
    --chunks) chunks=${2:?--chunks needs a value}; shift ;;
    --wait-size) wait_size=${2:?--wait-size needs a value}; shift ;;
    --delays) delays=${2:?--delays needs a value}; shift ;;
    --pdgemm) pdgemm=1 ;;
    --pdgemm-wait) pdgemm_wait=${2:?--pdgemm-wait needs a value}; shift ;;
    --pdgemm-reps) pdgemm_reps=${2:?--pdgemm-reps needs a value}; shift ;;
    -o) out_dir=${2:?-o needs a value}; shift ;;
    -B) build_dir=${2:?-B needs a value}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done

if [[ -z $build_dir ]]; then
  if [[ -x ./timing/bench_bcast ]]; then build_dir=.; else build_dir=$repo_dir/build; fi
fi
bench=$build_dir/timing/bench_bcast
[[ -x $bench ]] ||
  die "$bench not found: build first (cmake -S $repo_dir -B $build_dir && cmake --build $build_dir)"
# The plain launcher name belongs to another MPI here; hpdaemon uses MPICH.
launcher=$(command -v mpiexec.mpich) || die "mpiexec.mpich not found"

mkdir -p "$out_dir"
csv=$out_dir/bcast.csv
rm -f "$csv" # one run per file
echo "run_bcast.sh: ranks=$ranks reps=$reps, $(nproc) cores, results in $out_dir" >&2

# Every table is printed as it comes and kept in a log.
run() {
  local n=$1 log=$2
  shift 2
  "$launcher" -n "$n" "$bench" "$@" -r "$reps" --csv "$csv" | tee -a "$out_dir/$log"
}

IFS=, read -r -a rank_list <<< "$ranks"
IFS=, read -r -a wait_list <<< "$bandwidth_waits"
rm -f "$out_dir"/bcast-*.log
for n in "${rank_list[@]}"; do
  for w in "${wait_list[@]}"; do
    HPD_WAIT=$w run "$n" "bcast-bandwidth.log" --mode bandwidth -s "$sizes"
  done
done
for n in "${rank_list[@]}"; do
  ((n >= 2)) || continue
  HPD_WAIT=$chunk_wait run "$n" "bcast-chunks.log" --mode chunks -s "$chunk_size" -c "$chunks"
done
for n in "${rank_list[@]}"; do
  run "$n" "bcast-wait.log" --mode wait -s "$wait_size" -d "$delays"
done

# ---- the targets on the broadcasts alone --------------------------------------------------
echo
awk -F, '
  $1 == "wait" && $7 > 0 { cpu[$2, $7, $4] = $13; key[$2, $7] = 1 }
  END {
    for (k in key) {
      split(k, part, SUBSEP)
      spin = cpu[k, "spin"]
      if (spin == "") continue
      best = ""
      for (w in cpu) {
        split(w, q, SUBSEP)
        if (q[1] != part[1] || q[2] != part[2] || q[3] == "spin" || cpu[w] <= 0) continue
        ratio = spin / cpu[w]
        if (best == "" || ratio > best) { best = ratio; name = q[3] }
      }
      if (best != "")
        printf "target %s ranks, root computing %s ms: CPU in broadcasts spin/%s = %.1f >= 5: %s\n",
               part[1], part[2], name, best, (best >= 5 ? "PASS" : "FAIL")
    }
  }' "$csv" | sort -n -k2

# ---- pdgemm ---------------------------------------------------------------------------------
if ((pdgemm)); then
  pdgemm_runs=("2x2 HPD_WAIT=$pdgemm_wait" "1x2 HPD_WAIT=$pdgemm_wait"
               "1x2 HPD_BCAST=mpi HPD_WAIT=spin")
  summary=()
  for entry in "${pdgemm_runs[@]}"; do
    read -r grid settings <<< "$entry"
    tag=$(tr ' =' '_-' <<< "$grid $settings")
    echo >&2
    echo "pdgemm N=4096 on $grid with $settings" >&2
    # mpiexec.mpich passes the environment on to the ranks.
    env $settings "$script_dir/run_pdgemm.sh" -B "$build_dir" -n 4096 -b 64 -g "$grid" \
      -r "$pdgemm_reps" --reps-oversub "$pdgemm_reps" -o "$out_dir/pdgemm-$tag" \
      > "$out_dir/pdgemm-$tag.txt"
    row=$(awk -F, 'NR == 2 { printf "hpd %.3f s (%.3f..%.3f)  ref %.3f s (%.3f..%.3f)  ref/hpd %.3f",
                            $6, $7, $8, $9, $10, $11, $14 }' "$out_dir/pdgemm-$tag/pdgemm.csv")
    summary+=("$(printf '%-4s %-30s %s' "$grid" "$settings" "$row")")
  done
  echo
  echo "pdgemm N=4096 NB=64, hpdaemon against reference ScaLAPACK in the same run" \
       "(medians, min..max over $pdgemm_reps calls per side):"
  printf '%s\n' "${summary[@]}"
  awk '/^2x2/ { r = $NF; printf "target 2x2: ref/hpd %.3f >= 1.5: %s\n", r, (r >= 1.5 ? "PASS" : "FAIL") }' \
    <<< "$(printf '%s\n' "${summary[@]}")"
fi
echo
logs="$out_dir/bcast-*.log"
((pdgemm)) && logs+=", $out_dir/pdgemm-*"
echo "CSV: $csv (logs: $logs)"
