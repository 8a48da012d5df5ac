# LU and Cholesky with hpdaemon against reference ScaLAPACK (timing/README.md,
# run_factor.sh): built, never a test, like the other benchmarks.  The matrices, the
# residual check and the per-call figures are the factorization driver's
# (support/factor_*.c), so both judge the factors the same way.
add_executable(bench_factor ${CMAKE_CURRENT_LIST_DIR}/bench_factor.c)
target_compile_options(bench_factor PRIVATE ${HPD_WARNINGS})
# hpdaemon before ScaLAPACK, as a relinked application has it: the pdgemm_ and pdsyrk_
# calls inside pdgetrf_ and pdpotrf_ must bind to hpdaemon.
target_link_libraries(bench_factor PRIVATE hpd_support hpdaemon MPI::MPI_C ${SCALAPACK_LIBRARY}
                      ${OPENBLAS_LIBRARY} m)
