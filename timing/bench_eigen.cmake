# A whole symmetric eigen-solve (pdsyevd_) with hpdaemon against the reference: the call
# mix of an application's diagonalization, timing/README.md.
add_executable(bench_eigen ${CMAKE_CURRENT_LIST_DIR}/bench_eigen.c)
target_compile_options(bench_eigen PRIVATE ${HPD_WARNINGS})
# hpdaemon before ScaLAPACK: the solve's level-3 calls must bind to hpdaemon.
target_link_libraries(bench_eigen PRIVATE hpd_support hpdaemon MPI::MPI_C ${SCALAPACK_LIBRARY}
                      ${OPENBLAS_LIBRARY} m)
