# The Fortran module against the C library: struct layouts, constants, strings, settings
# seen from C, refused values, and the counters of a PDGEMM.  The C helper reports how the
# C compiler lays the structs out; it is built apart so that the MPI Fortran flags stay
# off the C compiler's command line.
add_library(fortran_module_sizes OBJECT fortran_module_sizes.c)
target_compile_options(fortran_module_sizes PRIVATE ${HPD_WARNINGS})
target_include_directories(fortran_module_sizes PRIVATE ${PROJECT_SOURCE_DIR}/include)
add_executable(fortran_module fortran_module.f90 $<TARGET_OBJECTS:fortran_module_sizes>)
target_compile_options(fortran_module PRIVATE -Wall)
target_link_libraries(fortran_module PRIVATE hpdaemon_fortran hpdaemon MPI::MPI_Fortran
                      ${SCALAPACK_LIBRARY} ${OPENBLAS_LIBRARY})
# CTest ignores the exit status once a pass expression is set, so the shell appends it.
add_test(NAME fortran_module
         COMMAND sh -c "\"$0\" -n 2 \"$1\"; echo \"exit status $?\""
                 ${HPD_MPIEXEC} $<TARGET_FILE:fortran_module>)
set_tests_properties(fortran_module PROPERTIES
  LABELS "quick;unit" TIMEOUT 120 PROCESSORS 2
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "(^|\n) *[1-9][0-9]* passed, 0 failed *\n(.*\n)?exit status 0\n?$")

# The installed module and library, found by find_package and by pkg-config.
add_test(NAME fortran_package
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fortran_package.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(fortran_package PROPERTIES LABELS "quick" TIMEOUT 300 PROCESSORS 2
                     RESOURCE_LOCK install_manifest)
