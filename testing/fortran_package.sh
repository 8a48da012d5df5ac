#!/usr/bin/env bash
# fortran_package.sh BUILD_DIR SOURCE_DIR: installs hpdaemon into a temporary prefix, moves
# it, then builds the Fortran example against the installed module two ways, with
# find_package(hpdaemon COMPONENTS fortran) and with pkg-config, and runs both on 2 ranks.
# The example itself fails unless its solves pass and hpdaemon's engine served pdgemm_.
set -euo pipefail
build=$1 source=$2
example="$source/examples/fortran/factor.f90"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
mv "$prefix" "$work/moved" && prefix="$work/moved"
libdir=$(dirname "$(find "$prefix" -name 'libhpdaemon_fortran.so' | head -n 1)")
[[ -f "$prefix/include/hpdaemon.mod" ]] || { echo "FAIL: hpdaemon.mod not installed" >&2; exit 1; }

run_and_check() {
  local exe=$1 status=0
  LD_LIBRARY_PATH="$libdir" OPENBLAS_NUM_THREADS=1 mpiexec.mpich -n 2 "$exe" \
    >"$work/out.txt" 2>&1 || status=$?
  cat "$work/out.txt"
  ((status == 0)) || { echo "FAIL: $exe exited with $status" >&2; exit 1; }
  grep -q "^4 passed, 0 failed" "$work/out.txt" || { echo "FAIL: $exe" >&2; exit 1; }
}

echo "== find_package(hpdaemon COMPONENTS fortran)"
mkdir -p "$work/consumer"
cat >"$work/consumer/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(hpdaemon_fortran_consumer LANGUAGES Fortran)
find_package(MPI REQUIRED COMPONENTS Fortran)
find_package(hpdaemon 0.1 REQUIRED COMPONENTS fortran)
add_executable(factor "$example")
target_link_libraries(factor PRIVATE hpdaemon::fortran MPI::MPI_Fortran)
CMAKE
cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DMPI_Fortran_COMPILER=mpif90.mpich >/dev/null
cmake --build "$work/consumer/build" >/dev/null
run_and_check "$work/consumer/build/factor"

echo "== pkg-config hpdaemon-fortran"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046 # the flags are separate words
mpif90.mpich -o "$work/factor_pc" "$example" $(pkg-config --cflags --libs hpdaemon-fortran)
run_and_check "$work/factor_pc"
echo "2 passed, 0 failed"
