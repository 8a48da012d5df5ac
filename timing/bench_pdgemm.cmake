# Benchmarks against reference ScaLAPACK (timing/README.md): built with the project, run
# by hand through run_pdgemm.sh, never registered as tests -- their numbers depend on what
# else the machine is doing, so they cannot pass or fail a build.

add_executable(bench_pdgemm ${CMAKE_CURRENT_LIST_DIR}/bench_pdgemm.c)
target_compile_options(bench_pdgemm PRIVATE ${HPD_WARNINGS})
# hpdaemon before ScaLAPACK, as a relinked application has it: pdgemm_ must bind to
# hpdaemon, which reaches the reference behind it.
target_link_libraries(bench_pdgemm PRIVATE hpd_support hpdaemon MPI::MPI_C ${SCALAPACK_LIBRARY}
                      ${OPENBLAS_LIBRARY} m)

# The local limit needs no MPI: one process, BLAS threads only.
add_executable(bench_dgemm ${CMAKE_CURRENT_LIST_DIR}/bench_dgemm.c)
target_compile_options(bench_dgemm PRIVATE ${HPD_WARNINGS})
target_link_libraries(bench_dgemm PRIVATE hpd_support ${OPENBLAS_LIBRARY} m)
