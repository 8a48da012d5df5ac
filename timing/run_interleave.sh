#!/usr/bin/env bash
# pdgemm (or LU, Cholesky, or a level-3 routine) calls of several orders in turn, call
# by call against the reference, under
# hpdaemon's default settings (support/bench_interleave.h): per pair, two fresh
# processes, one making every call through hpdaemon and one through the reference, which
# goes first alternating from pair to pair.  Prints one row per call: its order, both
# sides' median seconds over the pairs, and the median ratio ref/hpd with its range.
# On one node, or across emulated hosts (--hosts, needs root as scripts/cluster does).
# Usage and columns: timing/README.md ("Orders in turn").
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")

p=2 q=1 orders=2048,1024 nb=64 rounds=6 pairs=3 hosts=0 rate=1gbit factor= uplo=L level3=
out_dir=./timing-results/interleave
build_dir=${HPD_BUILD_DIR:-$repo_dir/build}

usage() {
  cat <<EOF2
usage: timing/run_interleave.sh [options]
  -f lu|chol       LU or Cholesky (bench_factor) instead of pdgemm
  -u L|U           Cholesky's triangle (default $uplo)
  --level3 "R ..." a level-3 routine (bench_level3) and its letters, for example
                   "pdtrmm --side L --uplo U"
  -p P -q Q        process grid (default ${p}x${q})
  -n N,N[,...]     orders called in turn, two or more (default $orders)
  -b NB            block size (default $nb)
  -r ROUNDS        rounds of one call per order (default $rounds)
  --pairs K        process pairs, hpdaemon's and the reference's (default $pairs)
  --hosts H        across H emulated hosts at --rate, ranks spread over them (default:
                   one node, mpiexec.mpich)
  --rate R         link rate of the emulated hosts, tc's units (default $rate)
  -o DIR           where interleave.csv and the log go (default $out_dir)
  -B DIR           build directory (default: \$HPD_BUILD_DIR, else $repo_dir/build)
EOF2
}

die() { echo "run_interleave.sh: $*" >&2; exit 2; }

while (($#)); do
  case $1 in
    -f) factor=${2:?}; shift ;;
    -u) uplo=${2:?}; shift ;;
    --level3) level3=${2:?}; shift ;;
    -p) p=${2:?}; shift ;;
    -q) q=${2:?}; shift ;;
    -n) orders=${2:?}; shift ;;
    -b) nb=${2:?}; shift ;;
    -r) rounds=${2:?}; shift ;;
    --pairs) pairs=${2:?}; shift ;;
    --hosts) hosts=${2:?}; shift ;;
    --rate) rate=${2:?}; shift ;;
    -o) out_dir=${2:?}; shift ;;
    -B) build_dir=${2:?}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done
bench=$build_dir/timing/bench_pdgemm routine=pdgemm bench_args=()
if [[ $factor ]]; then
  [[ $factor == lu || $factor == chol ]] || die "-f takes lu or chol"
  bench=$build_dir/timing/bench_factor routine=$factor bench_args=(-f "$factor" -u "$uplo")
elif [[ $level3 ]]; then
  read -r -a spec <<< "$level3"
  bench=$build_dir/timing/bench_level3 routine=${spec[0]}
  bench_args=(--routine "${spec[@]}")
fi
[[ -x $bench ]] || die "$bench not found: build first"
((pairs >= 1)) || die "--pairs must be 1 or more"

export OPENBLAS_NUM_THREADS=1
source "$script_dir/blas_kernels.sh"
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
raw=$out_dir/interleave-raw.csv log=$out_dir/interleave.log csv=$out_dir/interleave.csv
rm -f "$raw" "$log"

# The default settings: the caller's HPD_* variables stay out of both processes.
run_env=(env)
for v in $(compgen -e | grep '^HPD_' || true); do
  [[ $v == HPD_FINALIZE_GUARD ]] || run_env+=(-u "$v")
done
if ((hosts > 0)); then
  launch=("$repo_dir/scripts/cluster" --hosts "$hosts" --rate "$rate" --)
  where="$hosts emulated hosts at $rate"
else
  launch=(mpiexec.mpich -n $((p * q)))
  where="one node"
fi

for ((k = 0; k < pairs; k++)); do
  sides=(hpd ref)
  ((k % 2)) && sides=(ref hpd)
  for side in "${sides[@]}"; do
    echo "run_interleave [$((k + 1))/$pairs] $(date +%T) $side: $routine ${p}x${q}, orders" \
         "$orders in turn, NB=$nb, $rounds rounds, $where" >&2
    row=$out_dir/interleave-row.csv
    rm -f "$row"
    "${run_env[@]}" "${launch[@]}" "$bench" "${bench_args[@]}" -n "$orders" -b "$nb" \
      -p "$p" -q "$q" -r "$rounds" --interleave "$side" --csv "$row" >> "$log" 2>&1 ||
      die "$(basename "$bench") --interleave $side failed (see $log)"
    tail -n +2 "$row" | sed "s/^/$k,/" >> "$raw"
    rm -f "$row"
  done
done

# Per call: both sides' medians over the pairs, and the median of the pairs' ratios.
python3 - "$raw" "$csv" <<'EOF2'
import csv, statistics, sys
raw, out = sys.argv[1], sys.argv[2]
calls = {}
for pair, routine, letters, p, q, nb, side, call, n, seconds, route in csv.reader(open(raw)):
    c = calls.setdefault(int(call), {"n": int(n), "hpd": {}, "ref": {}, "routes": []})
    c[side][pair] = float(seconds)
    if side == "hpd":
        c["routes"].append(route)
with open(out, "w") as f:
    f.write("call,n,hpd_median_s,ref_median_s,ratio,ratio_min,ratio_max,routes\n")
    print(f"{'call':>4} {'N':>6} {'hpd_s':>8} {'ref_s':>8} {'ref/hpd':>7} {'range':>13}  routes")
    for call in sorted(calls):
        c = calls[call]
        ratios = [c["ref"][k] / c["hpd"][k] for k in c["hpd"] if k in c["ref"]]
        h, r = statistics.median(c["hpd"].values()), statistics.median(c["ref"].values())
        m = statistics.median(ratios)
        routes = " ".join(c["routes"])
        f.write(f"{call},{c['n']},{h:.6f},{r:.6f},{m:.4f},{min(ratios):.4f},"
                f"{max(ratios):.4f},{routes}\n")
        print(f"{call:>4} {c['n']:>6} {h:8.4f} {r:8.4f} {m:7.3f} "
              f"{min(ratios):6.3f}..{max(ratios):.3f}  {routes}")
EOF2
echo "run_interleave.sh: $csv" >&2
