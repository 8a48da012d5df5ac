# The benchmarks against reference ScaLAPACK on simulated platforms (timing/README.md),
# built here as in timing/, never registered as tests.
foreach(bench bench_pdgemm bench_level3 bench_bcast)
  hpd_add_sim_program(${bench} ${PROJECT_SOURCE_DIR}/timing/${bench}.c ${HPD_SIM_BENCH_COMMON})
endforeach()
# LU and Cholesky against the reference (timing/run_factor.sh), judged by the factorization
# driver's residual check as natively in the correctness mode.
hpd_add_sim_program(bench_factor ${PROJECT_SOURCE_DIR}/timing/bench_factor.c
                    ${HPD_SIM_FACTOR_COMMON} ${HPD_SIM_BENCH_COMMON})

# The scaling script end to end on one small grid of each routine it runs: a CSV row with
# what the point cost the simulator and the library's own costs from its report.
foreach(routine pdgemm lu)
  add_test(NAME sim_run_simulated_${routine}
           COMMAND bash ${PROJECT_SOURCE_DIR}/timing/run_simulated.sh -B ${PROJECT_BINARY_DIR}
                   -o ${PROJECT_BINARY_DIR}/run-simulated-${routine} -f ${routine} -n 256 -b 32
                   -r 0 --grids paper-infiniband:2x2)
  set_tests_properties(sim_run_simulated_${routine} PROPERTIES LABELS simulated TIMEOUT 300
    PASS_REGULAR_EXPRESSION "cold hpd: first [0-9.]+ s, second [0-9.]+ s[^\n]*\n  simulator: [0-9.]+ s of CPU, peak [0-9]+ MiB; [^\n]*: [0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+\n"
    ENVIRONMENT "SIMULATE_KERNEL_RATES=${CMAKE_CURRENT_BINARY_DIR}/uniform-rates.txt")
endforeach()

# The CPU clocks preloaded into the simulator change no simulated figure.
add_test(NAME sim_cpu_clock_same_figures
         COMMAND bash ${PROJECT_SOURCE_DIR}/simulated/check_cpu_clock.sh ${HPD_SIMULATE}
                 ${CMAKE_CURRENT_BINARY_DIR}/uniform-rates.txt $<TARGET_FILE:bench_factor>)
set_tests_properties(sim_cpu_clock_same_figures PROPERTIES LABELS simulated TIMEOUT 300
  PASS_REGULAR_EXPRESSION "cpu clock: same figures")
