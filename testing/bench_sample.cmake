# The benchmarks' sample statistics: medians and the median's confidence interval that
# the factorization benchmark's verdict rests on (testing/test_bench_sample.c).
add_executable(test_bench_sample test_bench_sample.c)
target_compile_options(test_bench_sample PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_bench_sample PRIVATE hpd_support m)
add_test(NAME bench_sample COMMAND test_bench_sample)
set_tests_properties(bench_sample PROPERTIES LABELS "quick;unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "bench_sample: [0-9]+ checks, 0 failed")
