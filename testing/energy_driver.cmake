# The energy driver (testing/energy_driver.c): every strategy on pdgemm and LU, with the
# switch identity checked on every pdgemm_ call, inside pdgetrf_ too.
hpd_add_program(energy_driver energy_driver.c energy_driver_check.c energy_driver_data.c
                energy_driver_table3.c energy_driver_report.c node_memory.c)
hpd_add_node_memory(energy_driver)
# The header lines it shares with the other drivers (support/bench_describe.c).
target_link_libraries(energy_driver PRIVATE hpd_support)

# hpd_energy_driver_test(NAME ARGS...): the driver on 2 ranks under the sim backend and the
# power model (a node with a meter would otherwise report measured figures).
function(hpd_energy_driver_test name)
  add_test(NAME ${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_energy_driver.sh --mpiexec ${HPD_MPIEXEC}
                   --driver $<TARGET_FILE:energy_driver> --np 2 ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "quick" TIMEOUT 120 PROCESSORS 2
    ENVIRONMENT "HPD_DVFS=sim;HPD_ENERGY=model;OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1")
endfunction()

hpd_energy_driver_test(energy_driver_small -- -n 256 -b 32)
hpd_energy_driver_test(energy_driver_bad_strategy
  --expect-error "-s: unknown strategy 'fast'" -- -n 256 -s fast)
hpd_energy_driver_test(energy_driver_bad_grid
  --expect-error "grid 3x2 needs exactly 6 ranks, started with 2" -- -n 256 -p 3)

# The library's meter choice end to end, through HPD_ENERGY=powercap on a fake tree: a
# readable counter gives measured figures, an unreadable one a warning and the model.
hpd_energy_driver_test(energy_driver_powercap_readable --powercap readable -- -n 256 -b 32)
hpd_energy_driver_test(energy_driver_powercap_unreadable --powercap unreadable -- -n 256 -b 32)
