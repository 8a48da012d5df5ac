# The benchmarks against reference ScaLAPACK on simulated platforms (timing/README.md),
# built here as in timing/, never registered as tests.
foreach(bench bench_pdgemm bench_level3 bench_bcast)
  hpd_add_sim_program(${bench} ${PROJECT_SOURCE_DIR}/timing/${bench}.c ${HPD_SIM_BENCH_COMMON})
  if(TARGET ${bench})
    target_include_directories(${bench} PRIVATE ${PROJECT_SOURCE_DIR}/timing)
  endif()
endforeach()
