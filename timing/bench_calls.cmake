# The call-mix benchmark (small and nested calls against the reference) and the fixed
# background load it is also run under: timing/run_calls.sh.
add_executable(bench_calls ${CMAKE_CURRENT_LIST_DIR}/bench_calls.c)
target_compile_options(bench_calls PRIVATE ${HPD_WARNINGS})
target_link_libraries(bench_calls PRIVATE hpd_support hpdaemon MPI::MPI_C ${SCALAPACK_LIBRARY}
                      ${OPENBLAS_LIBRARY} m)

add_executable(load_gen ${CMAKE_CURRENT_LIST_DIR}/load_gen.c)
target_compile_options(load_gen PRIVATE ${HPD_WARNINGS})
