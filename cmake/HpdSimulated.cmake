# The simulated mode (README: "Simulated clusters"): the library's sources, the drivers
# and the benchmarks built with SimGrid's smpicc, against reference ScaLAPACK built for
# the simulator (simulated/build-scalapack), to run on simulated platforms through
# scripts/simulate.  Configured by simulated/build; included from the top CMakeLists.txt.
#
# Every rank of a simulation lives in one process: programs link hpdaemon's objects and
# ScaLAPACK statically, so that the simulator gives each rank its own copy of their
# globals, and the reference routines are reached under ScaLAPACK's renamed definitions.

if(NOT CMAKE_C_COMPILER MATCHES "smpicc$")
  message(FATAL_ERROR "hpdaemon: HPD_SIMULATED needs CMAKE_C_COMPILER=smpicc "
                      "(simulated/build configures it)")
endif()
set(HPD_SIM_SCALAPACK "" CACHE FILEPATH
    "reference ScaLAPACK for the simulator (simulated/build-scalapack prints it)")
find_library(OPENBLAS_LIBRARY NAMES openblas REQUIRED)

set(HPD_WARNINGS -Wall -Wextra)
# The kernels of the timing mode (simulated/kernels/kernel.h): every BLAS and LAPACK name
# below reaches simulated/kernels' wrapper, which runs the real kernel or charges its time.
set(HPD_SIM_KERNELS ${PROJECT_SOURCE_DIR}/simulated/kernels)
set(HPD_SIM_WRAPPED dgemm_ dsymm_ dsyrk_ dsyr2k_ dtrmm_ dtrsm_ dgemv_ dger_ dsymv_ dsyr_
                    dsyr2_ dtrmv_ dtrsv_ daxpy_ ddot_ dscal_ dcopy_ dswap_ idamax_ dgetrf_
                    dpotrf_ dlaswp_)
list(TRANSFORM HPD_SIM_WRAPPED PREPEND "LINKER:--wrap=" OUTPUT_VARIABLE hpd_sim_wraps)
add_library(hpdaemon_sim OBJECT ${HPD_SOURCES} ${PROJECT_SOURCE_DIR}/simulated/compat.c
            ${PROJECT_SOURCE_DIR}/simulated/requests.c
            ${HPD_SIM_KERNELS}/blas.c ${HPD_SIM_KERNELS}/lapack.c
            ${HPD_SIM_KERNELS}/charge.c ${HPD_SIM_KERNELS}/rates.c ${HPD_SIM_KERNELS}/kernel.c)
target_compile_options(hpdaemon_sim PRIVATE ${HPD_WARNINGS})
set_source_files_properties(src/level3/small_trsm.c PROPERTIES COMPILE_OPTIONS
                                                              -ffp-contract=fast)
target_compile_definitions(hpdaemon_sim PUBLIC HPD_SIMULATED _POSIX_C_SOURCE=200809L)
target_include_directories(hpdaemon_sim PUBLIC ${PROJECT_SOURCE_DIR}/include
                                               ${PROJECT_SOURCE_DIR}/src ${HPD_SIM_KERNELS})

# kernel_rates: the kernels' rates on this machine (simulated/kernels/measure.c), built
# natively against the BLAS and LAPACK that the simulated programs link.
find_program(HPD_HOST_CC NAMES cc gcc REQUIRED)
set(hpd_rates_sources ${HPD_SIM_KERNELS}/measure.c ${HPD_SIM_KERNELS}/kernel.c
                      ${PROJECT_SOURCE_DIR}/src/level3/small_trsm.c)
set(hpd_rates_headers ${HPD_SIM_KERNELS}/kernel.h ${PROJECT_SOURCE_DIR}/src/level3/small_trsm.h
                      ${PROJECT_SOURCE_DIR}/src/level3/small_trsm_kernel.h)
add_custom_command(OUTPUT kernel_rates
                   COMMAND ${HPD_HOST_CC} -O2 -Wall -Wextra -ffp-contract=fast
                           -I${HPD_SIM_KERNELS} -I${PROJECT_SOURCE_DIR}/src
                           -o kernel_rates ${hpd_rates_sources} ${OPENBLAS_LIBRARY} -lm
                   DEPENDS ${hpd_rates_sources} ${hpd_rates_headers} VERBATIM)
add_custom_target(kernel_rates_program ALL DEPENDS kernel_rates)

# The CPU clocks that scripts/simulate preloads into the simulator where computation is
# not simulated (simulated/cpu_clock.c): built natively, since smpicc's macros would
# turn its clock_gettime into the simulator's.
add_custom_command(OUTPUT libhpd_sim_cpu_clock.so
                   COMMAND ${HPD_HOST_CC} -O2 -Wall -Wextra -shared -fPIC
                           -o libhpd_sim_cpu_clock.so ${PROJECT_SOURCE_DIR}/simulated/cpu_clock.c
                           -ldl
                   DEPENDS ${PROJECT_SOURCE_DIR}/simulated/cpu_clock.c VERBATIM)
add_custom_target(sim_cpu_clock ALL DEPENDS libhpd_sim_cpu_clock.so)

include(CTest)
set(HPD_SIMULATE ${PROJECT_SOURCE_DIR}/scripts/simulate)

# hpd_add_sim_program(NAME SOURCES...): a driver with hpdaemon, ScaLAPACK and the BLAS
# linked in.  Without the reference ScaLAPACK nothing is built (the tests say skipped).
function(hpd_add_sim_program name)
  if(NOT HPD_SIM_SCALAPACK)
    return()
  endif()
  add_executable(${name} ${ARGN} $<TARGET_OBJECTS:hpdaemon_sim>)
  target_compile_options(${name} PRIVATE ${HPD_WARNINGS})
  target_compile_definitions(${name} PRIVATE HPD_SIMULATED _POSIX_C_SOURCE=200809L)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include
                                             ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/support
                                             ${PROJECT_SOURCE_DIR}/testing
                                             ${HPD_SIM_KERNELS})
  target_link_libraries(${name} PRIVATE ${HPD_SIM_SCALAPACK} ${OPENBLAS_LIBRARY} gfortran m)
  target_link_options(${name} PRIVATE ${hpd_sim_wraps})
endfunction()

# The timing mode's tests charge every kernel at one rate (kernel_rates --uniform), so
# that they need no measuring and their times follow from the flops.
add_custom_command(OUTPUT uniform-rates.txt
                   COMMAND ${CMAKE_CURRENT_BINARY_DIR}/kernel_rates --uniform 1e10 uniform-rates.txt
                   DEPENDS kernel_rates_program VERBATIM)
add_custom_target(uniform_rates ALL DEPENDS uniform-rates.txt)

# hpd_add_sim_test(NAME RANKS N [MODE timing] PLATFORM NAME [platform options...]
#                  [ENV VAR=VALUE...] COMMAND PROGRAM ARGS...): PROGRAM on N simulated
# ranks of the platform (scripts/simulate) in correctness mode (or the timing mode, on
# the uniform rates), labelled "simulated"; skipped (exit 77) where it could not be built.
function(hpd_add_sim_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RANKS;MODE" "PLATFORM;ENV;COMMAND")
  set(mode --mode correctness)
  if(arg_MODE STREQUAL "timing")
    set(mode --mode timing --rates ${CMAKE_CURRENT_BINARY_DIR}/uniform-rates.txt)
  endif()
  list(POP_FRONT arg_COMMAND program)
  if(TARGET ${program})
    set(path $<TARGET_FILE:${program}>)
  else()
    set(path ${CMAKE_CURRENT_BINARY_DIR}/${program})
  endif()
  add_test(NAME ${name} COMMAND ${HPD_SIMULATE} --platform ${arg_PLATFORM}
                                --ranks ${arg_RANKS} ${mode} -- ${path}
                                ${arg_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS simulated SKIP_RETURN_CODE 77
                       ENVIRONMENT "OPENBLAS_NUM_THREADS=1;HPD_DISPATCH=engine;${arg_ENV}")
endfunction()

# What the native build's support library holds (support/CMakeLists.txt), compiled here
# in the simulated mode with each program that uses it: the benchmarks' option reader and
# statistics, and the factorizations' matrices, residual check and per-call figures.
set(HPD_SIM_BENCH_COMMON ${PROJECT_SOURCE_DIR}/support/bench_common.c
                         ${PROJECT_SOURCE_DIR}/support/bench_describe.c
                         ${PROJECT_SOURCE_DIR}/support/bench_first.c
                         ${PROJECT_SOURCE_DIR}/support/bench_grid.c
                         ${PROJECT_SOURCE_DIR}/support/bench_interleave.c
                         ${PROJECT_SOURCE_DIR}/support/bench_sample.c)
set(HPD_SIM_FACTOR_COMMON ${PROJECT_SOURCE_DIR}/support/factor_problem.c
                          ${PROJECT_SOURCE_DIR}/support/factor_residual.c
                          ${PROJECT_SOURCE_DIR}/support/factor_measure.c)
# The matrix to factor stays each rank's own in the timing mode, which folds other large
# blocks onto one memory: nothing computes it there, but PBLAS's unblocked Cholesky reads
# its diagonal, and a diagonal written by other ranks stops it as not positive definite.
set_source_files_properties(${PROJECT_SOURCE_DIR}/support/factor_problem.c
                            PROPERTIES COMPILE_DEFINITIONS SMPI_NO_OVERRIDE_MALLOC)

file(GLOB hpd_sim_modules CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/simulated/*.cmake)
foreach(module ${hpd_sim_modules})
  include(${module})
endforeach()
