# The broadcasts: every algorithm and wait policy on 1 to 5 ranks, tuning agreement and
# the tuning file (testing/test_bcast.c).  Internal functions, so it links the objects.
add_executable(test_bcast test_bcast.c)
target_compile_options(test_bcast PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_bcast PRIVATE hpdaemon_objs)

# hpd_bcast_test(NAME NPROCS TIMEOUT ARGS...)
function(hpd_bcast_test name nprocs timeout)
  hpd_add_mpi_test(${name} ${nprocs} test_bcast ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "quick" TIMEOUT ${timeout}
    PROCESSORS ${nprocs} PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")
endfunction()

hpd_bcast_test(bcast_np1 1 60)
hpd_bcast_test(bcast_np2 2 120)
# More ranks than the 2 cores: spinning ranks hold the cores a time slice at a time, so
# spin gets at most 3 ranks, or the short list without tuning; yield and sleep get
# everything.
hpd_bcast_test(bcast_np3 3 240 --wait yield,sleep)
hpd_bcast_test(bcast_np3_spin 3 180 --wait spin)
hpd_bcast_test(bcast_np4 4 240 --wait sleep,yield)
hpd_bcast_test(bcast_np5 5 300 --wait sleep)
hpd_bcast_test(bcast_np5_yield_spin 5 240 --wait spin,yield --quick --no-tuning)

# The order broadcasts visit ranks, across hosts too (testing/test_topology.c).
add_executable(test_topology test_topology.c ${PROJECT_SOURCE_DIR}/src/bcast/topology.c)
target_compile_options(test_topology PRIVATE ${HPD_WARNINGS})
target_include_directories(test_topology PRIVATE ${PROJECT_SOURCE_DIR}/src)
add_test(NAME topology COMMAND test_topology)
set_tests_properties(topology PROPERTIES LABELS "quick"
  PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")

# Exchanges through shared memory on one node: slots never rewritten under a slow reader,
# the window made again as parts grow, and no exchange where it must not be used
# (testing/test_shared.c).
add_executable(test_shared test_shared.c)
target_compile_options(test_shared PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_shared PRIVATE hpdaemon_objs)
foreach(nprocs 2 3)
  hpd_add_mpi_test(shared_np${nprocs} ${nprocs} test_shared)
  set_tests_properties(shared_np${nprocs} PROPERTIES LABELS "quick" TIMEOUT 120
    PROCESSORS ${nprocs} PASS_REGULAR_EXPRESSION "shared: [0-9]+ ranks, [0-9]+ passed, 0 failed")
endforeach()
