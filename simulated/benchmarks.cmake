# The benchmarks against reference ScaLAPACK on simulated platforms (timing/README.md),
# built here as in timing/, never registered as tests.
foreach(bench bench_pdgemm bench_level3 bench_bcast)
  hpd_add_sim_program(${bench} ${PROJECT_SOURCE_DIR}/timing/${bench}.c ${HPD_SIM_BENCH_COMMON})
  if(TARGET ${bench})
    target_include_directories(${bench} PRIVATE ${PROJECT_SOURCE_DIR}/timing)
  endif()
endforeach()
# LU and Cholesky against the reference (timing/run_factor.sh), judged by the factorization
# driver's residual check as natively in the correctness mode.
hpd_add_sim_program(bench_factor ${PROJECT_SOURCE_DIR}/timing/bench_factor.c
                    ${PROJECT_SOURCE_DIR}/testing/factor_driver_problem.c
                    ${PROJECT_SOURCE_DIR}/testing/factor_driver_residual.c
                    ${PROJECT_SOURCE_DIR}/testing/factor_driver_measure.c
                    ${HPD_SIM_BENCH_COMMON})
if(TARGET bench_factor)
  target_include_directories(bench_factor PRIVATE ${PROJECT_SOURCE_DIR}/timing)
endif()
# The matrix to factor stays each rank's own in the timing mode, which folds other large
# blocks onto one memory: nothing computes it there, but PBLAS's unblocked Cholesky reads
# its diagonal, and a diagonal written by other ranks stops it as not positive definite.
set_source_files_properties(${PROJECT_SOURCE_DIR}/testing/factor_driver_problem.c
                            PROPERTIES COMPILE_DEFINITIONS SMPI_NO_OVERRIDE_MALLOC)
