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
add_library(hpdaemon_sim OBJECT ${HPD_SOURCES} ${PROJECT_SOURCE_DIR}/simulated/compat.c)
target_compile_options(hpdaemon_sim PRIVATE ${HPD_WARNINGS})
set_source_files_properties(src/level3/small_trsm.c PROPERTIES COMPILE_OPTIONS
                                                              -ffp-contract=fast)
target_compile_definitions(hpdaemon_sim PUBLIC HPD_SIMULATED _POSIX_C_SOURCE=200809L)
target_include_directories(hpdaemon_sim PUBLIC ${PROJECT_SOURCE_DIR}/include
                                               ${HPD_MODULE_DIRS})

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
                                             ${HPD_MODULE_DIRS} ${PROJECT_SOURCE_DIR}/testing)
  target_link_libraries(${name} PRIVATE ${HPD_SIM_SCALAPACK} ${OPENBLAS_LIBRARY} gfortran m)
endfunction()

# hpd_add_sim_test(NAME RANKS N PLATFORM NAME [platform options...] [ENV VAR=VALUE...]
#                  COMMAND PROGRAM ARGS...): PROGRAM on N simulated ranks of the platform
# (scripts/simulate) in correctness mode, labelled "simulated"; skipped (exit 77) where it
# could not be built.
function(hpd_add_sim_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RANKS" "PLATFORM;ENV;COMMAND")
  list(POP_FRONT arg_COMMAND program)
  if(TARGET ${program})
    set(path $<TARGET_FILE:${program}>)
  else()
    set(path ${CMAKE_CURRENT_BINARY_DIR}/${program})
  endif()
  add_test(NAME ${name} COMMAND ${HPD_SIMULATE} --platform ${arg_PLATFORM}
                                --ranks ${arg_RANKS} --mode correctness -- ${path}
                                ${arg_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS simulated SKIP_RETURN_CODE 77
                       ENVIRONMENT "OPENBLAS_NUM_THREADS=1;HPD_DISPATCH=engine;${arg_ENV}")
endfunction()

# What timing/'s bench_common library holds, for the drivers that share its option reader.
set(HPD_SIM_BENCH_COMMON ${PROJECT_SOURCE_DIR}/timing/bench_common.c
                         ${PROJECT_SOURCE_DIR}/timing/bench_describe.c
                         ${PROJECT_SOURCE_DIR}/timing/bench_first.c
                         ${PROJECT_SOURCE_DIR}/timing/bench_grid.c
                         ${PROJECT_SOURCE_DIR}/timing/bench_sample.c)

file(GLOB hpd_sim_modules CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/simulated/*.cmake)
foreach(module ${hpd_sim_modules})
  include(${module})
endforeach()
