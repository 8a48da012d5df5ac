#!/usr/bin/env bash
# test_package.sh BUILD_DIR SOURCE_DIR: installs hpdaemon into a temporary prefix, then
# builds a program that only calls pdgetrf_ two ways, with find_package(hpdaemon) and with
# pkg-config, and checks that hpdaemon is kept in both and receives pdgetrf_'s calls.
set -euo pipefail
build=$1 source=$2
here="$source/testing"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
# A moved install must still work: the package files are relocatable.
mv "$prefix" "$work/moved" && prefix="$work/moved"
libdir=$(dirname "$(find "$prefix" -name 'libhpdaemon.so' | head -n 1)")

run_and_check() {
  local exe=$1
  HPD_REPORT="json:$work/report.json" LD_LIBRARY_PATH="$libdir" \
    mpiexec.mpich -n 2 "$exe" | tee "$work/out.txt"
  grep -q "^1 passed, 0 failed" "$work/out.txt" || { echo "FAIL: $exe" >&2; exit 1; }
  "$here/check_report.sh" "$work/report.json" --min-calls 1 --max-fallback 0
  rm -f "$work/report.json"
}

echo "== find_package(hpdaemon)"
cmake -S "$here/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DMPI_C_COMPILER=mpicc.mpich >/dev/null
cmake --build "$work/consumer" >/dev/null
run_and_check "$work/consumer/lu_only"

echo "== pkg-config hpdaemon"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
mpicc.mpich -o "$work/lu_only_pc" "$here/lu_only.c" $(pkg-config --cflags --libs hpdaemon)
run_and_check "$work/lu_only_pc"

echo "== the installed launcher on a program built without hpdaemon"
mpicc.mpich -o "$work/lu_plain" "$here/lu_only.c" -lscalapack-mpich
"$prefix/bin/hpdaemon-run" --report="json:$work/report.json" -- \
  mpiexec.mpich -n 2 "$work/lu_plain" | tee "$work/out.txt"
"$here/check_report.sh" "$work/report.json" --min-calls 1 --max-fallback 0
echo "3 passed, 0 failed"
