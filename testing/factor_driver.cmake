# The factorization driver (testing/factor_driver.c): ScaLAPACK's pdgetrf_ and pdpotrf_
# (both triangles) with hpdaemon underneath, under every strategy, each run's factors
# checked as ScaLAPACK's testers check them.
hpd_add_program(factor_driver factor_driver.c factor_driver_options.c factor_driver_table.c)
# The matrices, the residual check and the per-call figures it shares with the benchmark,
# and the benchmarks' option reader (support/).
target_link_libraries(factor_driver PRIVATE hpd_support)

# hpd_factor_driver_test(NAME SCRIPT-OPTIONS... -- DRIVER-ARGS...): the driver on 2 ranks
# under the sim backend and the power model (a node with a meter would otherwise report
# measured figures).
function(hpd_factor_driver_test name)
  add_test(NAME ${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_factor_driver.sh --mpiexec ${HPD_MPIEXEC}
                   --driver $<TARGET_FILE:factor_driver> --np 2 ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "quick" TIMEOUT 60 PROCESSORS 2
    ENVIRONMENT "HPD_DVFS=sim;HPD_ENERGY=model;OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1")
endfunction()

# A Cholesky row that hpdaemon's pdpotrf_ did not serve itself must show pdsyrk calls
# served by the engine (ScaLAPACK's trailing updates).
set(HPD_FACTOR_MIN_PDSYRK_CALLS 1)

# N = 200: NB = 32 leaves a partial last block (6 x 32 + 8), NB = 24 another (8 x 24 + 8);
# on 2x1 the panels of L travel, on 1x2 those of U.  Each runs LU and both Cholesky
# triangles under every strategy: fifteen rows.
foreach(nb 32 24)
  foreach(grid "2;1" "1;2")
    list(GET grid 0 p)
    list(GET grid 1 q)
    hpd_factor_driver_test(factor_driver_n200_nb${nb}_${p}x${q}
      --min-pdsyrk-calls ${HPD_FACTOR_MIN_PDSYRK_CALLS}
      -- -n 200 -b ${nb} -p ${p} -q ${q})
  endforeach()
endforeach()
# One row set only, to show the selectors pick what they name and nothing else.
hpd_factor_driver_test(factor_driver_select
  --rows "pdpotrf:U" --strategies "daemon" --min-pdsyrk-calls ${HPD_FACTOR_MIN_PDSYRK_CALLS}
  -- -n 96 -b 16 -f chol -u U -s daemon -r 2)

# Bad options: a clear message and exit status 2.
hpd_factor_driver_test(factor_driver_bad_strategy
  --expect-error "-s: unknown strategy 'fast'" -- -n 64 -s fast)
hpd_factor_driver_test(factor_driver_bad_grid
  --expect-error "grid 3x2 needs exactly 6 ranks, started with 2" -- -n 64 -p 3)
hpd_factor_driver_test(factor_driver_bad_order
  --expect-error "-n: expected an integer from 1 to 1000000, got '0'" -- -n 0)
hpd_factor_driver_test(factor_driver_bad_order_negative
  --expect-error "-n: expected an integer from 1 to 1000000, got '-5'" -- -n -5)
hpd_factor_driver_test(factor_driver_bad_block
  --expect-error "-b: expected an integer from 1 to 1000000, got 'x'" -- -n 64 -b x)
hpd_factor_driver_test(factor_driver_bad_factor
  --expect-error "-f: unknown factorization 'qr'" -- -n 64 -f qr)
hpd_factor_driver_test(factor_driver_bad_uplo
  --expect-error "-u: unknown triangle 'X'" -- -n 64 -u X)
hpd_factor_driver_test(factor_driver_missing_value
  --expect-error "-r: missing value" -- -n 64 -r)
hpd_factor_driver_test(factor_driver_unknown_option
  --expect-error "unknown option '--fast'" -- -n 64 --fast)
hpd_factor_driver_test(factor_driver_bad_threshold
  --expect-error "option -t: '7' is not valid" -- -n 64 -t 7)
