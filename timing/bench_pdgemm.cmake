# Benchmarks against reference ScaLAPACK (timing/README.md): built with the project, run
# by hand through run_pdgemm.sh, never registered as tests -- their numbers depend on what
# else the machine is doing, so they cannot pass or fail a build.

# bench_describe.c and bench_first.c are members of their own: only programs that call
# them need hpdaemon (bench_first.c also the BLAS).
add_library(bench_common STATIC ${CMAKE_CURRENT_LIST_DIR}/bench_common.c
                                ${CMAKE_CURRENT_LIST_DIR}/bench_describe.c
                                ${CMAKE_CURRENT_LIST_DIR}/bench_first.c
                                ${CMAKE_CURRENT_LIST_DIR}/bench_grid.c
                                ${CMAKE_CURRENT_LIST_DIR}/bench_sample.c)
target_compile_options(bench_common PRIVATE ${HPD_WARNINGS})
target_link_libraries(bench_common PUBLIC MPI::MPI_C ${OPENBLAS_LIBRARY} m)
target_include_directories(bench_common PUBLIC ${CMAKE_CURRENT_LIST_DIR}
                                               ${PROJECT_SOURCE_DIR}/testing)
target_include_directories(bench_common PRIVATE ${PROJECT_SOURCE_DIR}/include)

add_executable(bench_pdgemm ${CMAKE_CURRENT_LIST_DIR}/bench_pdgemm.c)
target_compile_options(bench_pdgemm PRIVATE ${HPD_WARNINGS})
# hpdaemon before ScaLAPACK, as a relinked application has it: pdgemm_ must bind to
# hpdaemon, which reaches the reference behind it.
target_link_libraries(bench_pdgemm PRIVATE bench_common hpdaemon MPI::MPI_C ${SCALAPACK_LIBRARY}
                      ${OPENBLAS_LIBRARY} m)

# The local limit needs no MPI: one process, BLAS threads only.
add_executable(bench_dgemm ${CMAKE_CURRENT_LIST_DIR}/bench_dgemm.c)
target_compile_options(bench_dgemm PRIVATE ${HPD_WARNINGS})
target_link_libraries(bench_dgemm PRIVATE bench_common ${OPENBLAS_LIBRARY} m)
