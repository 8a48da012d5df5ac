#!/usr/bin/env bash
# test_package.sh SOURCE_DIR BUILD_DIR [BUILD_DIR...]: installs every build named (one per
# MPI flavour) into one temporary prefix, moves it, then, for each flavour, builds a
# program that only calls pdgetrf_ two ways, with find_package(hpdaemon COMPONENTS
# <flavour>) and with pkg-config hpdaemon-<flavour>, and checks that hpdaemon is kept in
# both, is that flavour's, and receives pdgetrf_'s calls; and runs the installed launcher
# on the program built without hpdaemon.  For MPICH, the unsuffixed names as well
# (find_package without components, pkg-config hpdaemon).
set -euo pipefail
source=$1
shift
here="$source/testing"
support="$source/support" # ScaLAPACK's prototypes: it ships no C header
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
flavours=()
for build in "$@"; do
  cmake --install "$build" --prefix "$prefix" >/dev/null
  flavours+=("$(sed -n 's/^HPD_MPI:[A-Z]*=//p' "$build/CMakeCache.txt")")
done
# A moved install must still work: the package files are relocatable.
mv "$prefix" "$work/moved" && prefix="$work/moved"
libdir=$(dirname "$(find "$prefix" -name 'libhpdaemon-*.so' | head -n 1)")
export PKG_CONFIG_PATH="$libdir/pkgconfig"
passed=0

fail() { echo "FAIL: $*" >&2; exit 1; }
run_and_check() {
  local flavour=$1 exe=$2
  local deps
  deps=$(LD_LIBRARY_PATH="$libdir" ldd "$exe")
  grep -q "libhpdaemon-$flavour\.so\.[0-9]" <<<"$deps" ||
    fail "$exe does not load libhpdaemon-$flavour: $(grep hpdaemon <<<"$deps")"
  HPD_REPORT="json:$work/report.json" LD_LIBRARY_PATH="$libdir" \
    "mpiexec.$flavour" -n 2 "$exe" | tee "$work/out.txt"
  grep -q "^1 passed, 0 failed" "$work/out.txt" || fail "$exe"
  "$here/check_report.sh" "$work/report.json" --routine pdgetrf --min-calls 1 --max-fallback 0
  rm -f "$work/report.json"
  passed=$((passed + 1))
}
consumer() {
  local flavour=$1 component=$2 dir="$work/consumer-$1-${2:-none}"
  echo "== $flavour: find_package(hpdaemon${component:+ COMPONENTS $component})"
  cmake -S "$here/consumer" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" \
    -DMPI_C_COMPILER="mpicc.$flavour" -DHPD_FLAVOUR="$component" >/dev/null
  cmake --build "$dir" >/dev/null
  run_and_check "$flavour" "$dir/lu_only"
}
pkg_config() {
  local flavour=$1 package=$2
  echo "== $flavour: pkg-config $package"
  # shellcheck disable=SC2046 # the flags are separate words
  "mpicc.$flavour" -o "$work/lu_only_$package" "$here/lu_only.c" -I"$support" \
    $(pkg-config --cflags --libs "$package")
  run_and_check "$flavour" "$work/lu_only_$package"
}

for flavour in "${flavours[@]}"; do
  consumer "$flavour" "$flavour"
  pkg_config "$flavour" "hpdaemon-$flavour"
  if [[ $flavour == mpich ]]; then
    consumer mpich ""
    pkg_config mpich hpdaemon
  fi
  echo "== $flavour: the installed launcher on a program built without hpdaemon"
  "mpicc.$flavour" -o "$work/lu_plain_$flavour" "$here/lu_only.c" -I"$support" \
    "-lscalapack-$flavour"
  "$prefix/bin/hpdaemon-run" --report="json:$work/report.json" -- \
    "mpiexec.$flavour" -n 2 "$work/lu_plain_$flavour" | tee "$work/out.txt"
  "$here/check_report.sh" "$work/report.json" --routine pdgetrf --min-calls 1 --max-fallback 0
  passed=$((passed + 1))
done
echo "$passed passed, 0 failed"
