# pdtrsm_, pdtrmm_, pdsymm_ and pdsyr2k_ against the reference, large and small calls:
# timing/run_level3.sh.
add_executable(bench_level3 ${CMAKE_CURRENT_LIST_DIR}/bench_level3.c)
target_compile_options(bench_level3 PRIVATE ${HPD_WARNINGS})
target_link_libraries(bench_level3 PRIVATE hpd_support hpdaemon MPI::MPI_C ${SCALAPACK_LIBRARY}
                      ${OPENBLAS_LIBRARY} m)
