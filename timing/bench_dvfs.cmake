# The cost of frequency switching (timing/README.md, "DVFS overhead", run_dvfs.sh): built,
# never a test.  Both run on the sim backend through the public API only.
add_executable(bench_dvfs_switches ${CMAKE_CURRENT_LIST_DIR}/bench_dvfs_switches.c)
target_compile_options(bench_dvfs_switches PRIVATE ${HPD_WARNINGS})
target_link_libraries(bench_dvfs_switches PRIVATE hpd_support hpdaemon MPI::MPI_C)

# The thresholds that give each N_grp need the node memory exactly as the library measures
# it (cgroup limits included): hpd_add_node_memory (testing/CMakeLists.txt).
add_executable(bench_dvfs_pdgemm ${CMAKE_CURRENT_LIST_DIR}/bench_dvfs_pdgemm.c)
target_compile_options(bench_dvfs_pdgemm PRIVATE ${HPD_WARNINGS})
hpd_add_node_memory(bench_dvfs_pdgemm)
# hpdaemon before ScaLAPACK, as in bench_pdgemm: pdgemm_ must bind to hpdaemon.
target_link_libraries(bench_dvfs_pdgemm PRIVATE hpd_support hpdaemon MPI::MPI_C
                      ${SCALAPACK_LIBRARY} ${OPENBLAS_LIBRARY} Threads::Threads m)
