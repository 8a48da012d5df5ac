# Interposition from Fortran: a gfortran program calling PDGEMM.
add_executable(interpose_f interpose_f.f90)
target_link_libraries(interpose_f PRIVATE hpdaemon MPI::MPI_Fortran ${SCALAPACK_LIBRARY}
                      ${OPENBLAS_LIBRARY})
add_test(NAME interpose_fortran
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_with_report.sh --min-calls 1 --max-fallback 0 --
                 ${HPD_MPIEXEC} -n 2 $<TARGET_FILE:interpose_f>)
set_tests_properties(interpose_fortran PROPERTIES LABELS "quick" TIMEOUT 120)
