# The benchmarks' sample statistics: medians and the median's confidence interval that
# the factorization benchmark's verdict rests on (testing/test_bench_sample.c).
add_executable(test_bench_sample test_bench_sample.c)
target_compile_options(test_bench_sample PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_bench_sample PRIVATE hpd_support m)
add_test(NAME bench_sample COMMAND test_bench_sample)
set_tests_properties(bench_sample PROPERTIES LABELS "quick;unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "bench_sample: [0-9]+ checks, 0 failed")

# --first-calls with -r 0 times the first calls alone (timing/run_simulated.sh's large
# orders); without --first-calls no round would be timed, so -r 0 is refused.
hpd_add_mpi_test(bench_first_no_rounds 2 bench_factor -f lu -n 256 -b 64 -p 1 -q 2 -r 0
                 --first-calls hpd)
set_tests_properties(bench_first_no_rounds PROPERTIES LABELS "quick" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "cold hpd: first [0-9.]+ s, second [0-9.]+ s \\(routes [^)]+\\); ref's first after them [0-9.]+ s; no rounds\n")
hpd_add_mpi_test(bench_zero_rounds_refused 2 bench_factor -f lu -n 256 -b 64 -p 1 -q 2 -r 0)
set_tests_properties(bench_zero_rounds_refused PROPERTIES LABELS "quick" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "bench_factor: -r 0 times no rounds: only with --first-calls")
