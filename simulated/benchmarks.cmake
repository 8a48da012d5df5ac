# The benchmarks against reference ScaLAPACK on simulated platforms (timing/README.md),
# built here as in timing/, never registered as tests.
foreach(bench bench_pdgemm bench_level3 bench_bcast)
  hpd_add_sim_program(${bench} ${PROJECT_SOURCE_DIR}/timing/${bench}.c ${HPD_SIM_BENCH_COMMON})
endforeach()
# LU and Cholesky against the reference (timing/run_factor.sh), judged by the factorization
# driver's residual check as natively in the correctness mode.
hpd_add_sim_program(bench_factor ${PROJECT_SOURCE_DIR}/timing/bench_factor.c
                    ${HPD_SIM_FACTOR_COMMON} ${HPD_SIM_BENCH_COMMON})
