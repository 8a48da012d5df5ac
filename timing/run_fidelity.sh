#!/usr/bin/env bash
# run_fidelity.sh [-o DIR] [-n N] [-b NB] [-r REPS] [-s BYTES] [--parts LIST] [--settings LIST]
# How far the simulated timing mode is from this machine: the same benchmarks run natively
# and simulated on the platform that models it (emulated: this machine's dgemm rate per
# core, 1 Gbit/s links), in two settings:
#   node   2 ranks on this machine (mpiexec), against one simulated node of 2 cores
#   hosts  2 emulated hosts of one rank at 1 Gbit/s (scripts/cluster, needs root), against
#          the emulated platform's 2 nodes
# Parts (default all): pdgemm (bench_pdgemm), lu and chol (bench_factor, Cholesky's lower
# triangle), each hpdaemon under its default settings and the reference, on a 1x2 grid;
# bcast (bench_bcast --mode bandwidth: one message of BYTES by each broadcast algorithm).
# Each native figure is the median of REPS timed calls after a warm-up; a simulated run
# takes the same calls (its times do not depend on this machine's load).
# Rows: DIR/fidelity.csv (setting, part, side, native_s, simulated_s, simulated over
# native); plot: DIR/fidelity.png where gnuplot is installed (plots/fidelity.gp).
# Defaults: order 4096, NB 64, 3 repetitions, 8 MiB; about 6 minutes on 2 cores.  Needs
# build/ (native, MPICH) and simulated/build's build-simulated/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
out=results-fidelity n=4096 nb=64 reps=3 bytes=8M
parts=pdgemm,lu,chol,bcast settings=node,hosts
while (($#)); do
  case $1 in
    -o) out=$2; shift 2 ;;
    -n) n=$2; shift 2 ;;
    -b) nb=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -s) bytes=$2; shift 2 ;;
    --parts) parts=$2; shift 2 ;;
    --settings) settings=$2; shift 2 ;;
    *) echo "run_fidelity.sh: unknown argument '$1' (see the comment at its top)" >&2; exit 2 ;;
  esac
done
native=${HPD_BUILD_DIR:-$repo/build}
simulated=${HPD_BUILD_DIR:-$repo/build}-simulated
for program in "$native/timing/bench_pdgemm" "$simulated/bench_pdgemm"; do
  [[ -x $program ]] || { echo "run_fidelity.sh: $program is missing (README: build, simulated/build)" >&2; exit 1; }
done
source "$here/blas_kernels.sh"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
mkdir -p "$out"
raw=$out/fidelity-raw
rm -rf "$raw"
mkdir -p "$raw"

# The launchers of a setting: natively, then simulated.
launch() { # launch SETTING native|simulated PROGRAM ARGS...
  local setting=$1 how=$2
  shift 2
  case $setting:$how in
    node:native) mpiexec.mpich -n 2 "$@" ;;
    hosts:native) "$repo/scripts/cluster" --hosts 2 --rate 1gbit -- "$@" ;;
    node:simulated) "$repo/scripts/simulate" --platform emulated --hosts 1 --cores 2 \
                      --mode timing -- "$@" ;;
    hosts:simulated) "$repo/scripts/simulate" --platform emulated --mode timing -- "$@" ;;
  esac
}

# One part in one setting, both ways: each run appends its benchmark's CSV rows to
# RAW/SETTING-PART-HOW.csv.
run_part() { # run_part SETTING PART
  local setting=$1 part=$2 how dir program args
  for how in native simulated; do
    dir=$native/timing
    [[ $how == simulated ]] && dir=$simulated
    case $part in
      pdgemm) program=bench_pdgemm args=(-n "$n" -b "$nb" -p 1 -q 2 -r "$reps") ;;
      lu) program=bench_factor args=(-n "$n" -b "$nb" -p 1 -q 2 -r "$reps" -f lu) ;;
      chol) program=bench_factor args=(-n "$n" -b "$nb" -p 1 -q 2 -r "$reps" -f chol -u L) ;;
      bcast) program=bench_bcast args=(--mode bandwidth -s "$bytes" -r "$reps") ;;
      *) echo "run_fidelity.sh: unknown part '$part' (pdgemm, lu, chol, bcast)" >&2; exit 2 ;;
    esac
    echo "run_fidelity [$(date +%H:%M:%S)] $setting $part $how" >&2
    launch "$setting" "$how" "$dir/$program" "${args[@]}" \
      --csv "$raw/$setting-$part-$how.csv" > "$raw/$setting-$part-$how.log" 2>&1 || {
      echo "run_fidelity.sh: $setting $part $how failed (exit $?):" >&2
      tail -5 "$raw/$setting-$part-$how.log" >&2
      exit 1
    }
  done
}

IFS=, read -ra setting_list <<< "$settings"
IFS=, read -ra part_list <<< "$parts"
for setting in "${setting_list[@]}"; do
  case $setting in
    node|hosts) ;;
    *) echo "run_fidelity.sh: unknown setting '$setting' (node, hosts)" >&2; exit 2 ;;
  esac
  for part in "${part_list[@]}"; do
    run_part "$setting" "$part"
  done
done

python3 - "$raw" "$out/fidelity.csv" <<'EOF'
import csv, glob, os, sys
raw, out = sys.argv[1], sys.argv[2]

def sides(path, part):
    """side -> median seconds, from one benchmark's CSV."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if part == "bcast":
        return {r["algorithm"]: float(r["median_s"]) for r in rows}
    row = rows[-1]
    return {"hpdaemon": float(row["hpd_median_s"]), "reference": float(row["ref_median_s"])}

lines = []
for native in sorted(glob.glob(os.path.join(raw, "*-native.csv"))):
    setting, part = os.path.basename(native)[:-len("-native.csv")].split("-", 1)
    simulated = native.replace("-native.csv", "-simulated.csv")
    a, b = sides(native, part), sides(simulated, part)
    for side in a:
        if side in b:
            lines.append((setting, part, side, a[side], b[side], b[side] / a[side]))
with open(out, "w") as f:
    f.write("setting,part,side,native_s,simulated_s,simulated_over_native\n")
    for l in lines:
        f.write("%s,%s,%s,%.6f,%.6f,%.3f\n" % l)
print("%-7s %-7s %-10s %10s %12s %8s" % ("setting", "part", "side", "native_s", "simulated_s", "sim/nat"))
for l in lines:
    print("%-7s %-7s %-10s %10.4f %12.4f %8.3f" % l)
EOF
echo "run_fidelity.sh: rows in $out/fidelity.csv" >&2
if command -v gnuplot >/dev/null; then
  gnuplot -e "dir='$out'" "$here/plots/fidelity.gp"
  echo "run_fidelity.sh: plot in $out/fidelity.png" >&2
fi
