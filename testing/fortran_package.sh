#!/usr/bin/env bash
# fortran_package.sh BUILD_DIR SOURCE_DIR: installs hpdaemon into a temporary prefix, moves
# it, then builds the Fortran example against the installed module of the build's MPI
# flavour two ways, with find_package(hpdaemon COMPONENTS <flavour> fortran) and with
# pkg-config hpdaemon-fortran-<flavour>, and runs both on 2 ranks (for MPICH, the
# unsuffixed names as well).  The example itself fails unless its solves pass and
# hpdaemon's engine served pdgemm_.
set -euo pipefail
build=$1 source=$2
flavour=$(sed -n 's/^HPD_MPI:[A-Z]*=//p' "$build/CMakeCache.txt")
example="$source/examples/fortran/factor.f90"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
mv "$prefix" "$work/moved" && prefix="$work/moved"
libdir=$(dirname "$(find "$prefix" -name "libhpdaemon_fortran-$flavour.so" | head -n 1)")
[[ -f "$prefix/include/hpdaemon-$flavour/hpdaemon.mod" ]] ||
  { echo "FAIL: include/hpdaemon-$flavour/hpdaemon.mod not installed" >&2; exit 1; }
passed=0

run_and_check() {
  local exe=$1 status=0
  LD_LIBRARY_PATH="$libdir" OPENBLAS_NUM_THREADS=1 "mpiexec.$flavour" -n 2 "$exe" \
    >"$work/out.txt" 2>&1 || status=$?
  cat "$work/out.txt"
  ((status == 0)) || { echo "FAIL: $exe exited with $status" >&2; exit 1; }
  grep -q "^4 passed, 0 failed" "$work/out.txt" || { echo "FAIL: $exe" >&2; exit 1; }
  passed=$((passed + 1))
}

consumer() {
  local components=$1 dir="$work/consumer-${1// /-}"
  echo "== find_package(hpdaemon COMPONENTS $components)"
  mkdir -p "$dir"
  cat >"$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(hpdaemon_fortran_consumer LANGUAGES Fortran)
find_package(MPI REQUIRED COMPONENTS Fortran)
find_package(hpdaemon 0.1 REQUIRED COMPONENTS $components)
add_executable(factor "$example")
target_link_libraries(factor PRIVATE hpdaemon::fortran MPI::MPI_Fortran)
CMAKE
  cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DMPI_Fortran_COMPILER="mpif90.$flavour" >/dev/null
  cmake --build "$dir/build" >/dev/null
  grep -q "libhpdaemon_fortran-$flavour" <<<"$(LD_LIBRARY_PATH="$libdir" ldd "$dir/build/factor")" ||
    { echo "FAIL: not $flavour's module library" >&2; exit 1; }
  run_and_check "$dir/build/factor"
}
pkg_config() {
  local package=$1
  echo "== pkg-config $package"
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  # shellcheck disable=SC2046 # the flags are separate words
  "mpif90.$flavour" -o "$work/factor_$package" "$example" $(pkg-config --cflags --libs "$package")
  run_and_check "$work/factor_$package"
}

consumer "$flavour fortran"
pkg_config "hpdaemon-fortran-$flavour"
if [[ $flavour == mpich ]]; then
  consumer fortran
  pkg_config hpdaemon-fortran
fi
echo "$passed passed, 0 failed"
