# The dispatch rule (HPD_DISPATCH=auto): local multiplies, a class settled on the
# reference, the engine forced, the routes counted apart from fallbacks.
hpd_add_program(test_dispatch test_dispatch.c node_memory.c)
hpd_add_node_memory(test_dispatch)
hpd_add_mpi_test(dispatch_np2 2 test_dispatch)
# Its routes are learned from timings: beside another test on the two cores, "a class
# whose engine turned slow" was seen misjudged (2 runs in 8), so it takes both cores.
set_tests_properties(dispatch_np2 PROPERTIES LABELS "quick;dispatch" TIMEOUT 120 PROCESSORS 2
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")

# On a 2x2 grid (4 ranks on the two cores): classes open on the reference, and an engine
# far slower than that call is called once.
hpd_add_mpi_test(dispatch_2d_np4 4 test_dispatch --grid2d)
set_tests_properties(dispatch_2d_np4 PROPERTIES LABELS "quick;dispatch" TIMEOUT 120
  PROCESSORS 2 ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")

# The correctness sweeps and stock testers under the default dispatch: small calls go to
# local multiplies or the reference, the rest to the engine (every class's first call at
# least, so the stock testers must show engine calls); results must not change, and no
# legal call may fall back.
hpd_add_mpi_test(pdgemm_check_auto_np2 2 pdgemm_check --quick)
hpd_add_mpi_test(pdgemm_check_auto_np4 4 pdgemm_check --full --grids 2x2 --cases 200)
hpd_add_mpi_test(pdsyrk_check_auto_np2 2 pdsyrk_check --quick)
add_test(NAME stock_xdlu_auto COMMAND ${HPD_STOCK_RUN} --np 2 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdlu --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/LU.dat
         --min-calls 1 --max-fallback 0 --min-engine 1)
add_test(NAME stock_xdllt_auto COMMAND ${HPD_STOCK_RUN} --np 2 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdllt --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/LLT.dat
         --routine pdsyrk --min-calls 1 --max-fallback 0 --min-engine 1)
set_tests_properties(pdgemm_check_auto_np2 pdgemm_check_auto_np4 pdsyrk_check_auto_np2
                     stock_xdlu_auto stock_xdllt_auto PROPERTIES
                     LABELS "quick;dispatch" TIMEOUT 600
                     ENVIRONMENT "OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1")

# The factorizations under the dispatch rule: a class slow on the engine settles on the
# reference, which then runs whole (its inner calls counted as direct).  Timed: both cores.
hpd_add_program(test_factor_dispatch test_factor_dispatch.c)
hpd_add_mpi_test(factor_dispatch_np2 2 test_factor_dispatch)
set_tests_properties(factor_dispatch_np2 PROPERTIES LABELS "quick;dispatch" TIMEOUT 120
  PROCESSORS 2 ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")

# A repeated call takes its remembered route only where the rule would: on 3 ranks, so
# that a reused context number can name a grid of other processes.
hpd_add_program(test_repeat test_repeat.c)
hpd_add_mpi_test(repeat_np3 3 test_repeat)
# A repeated call on the local route goes straight to the BLAS at the place remembered.
hpd_add_program(test_repeat_local test_repeat_local.c)
hpd_add_mpi_test(repeat_local_np2 2 test_repeat_local)
set_tests_properties(repeat_local_np2 PROPERTIES LABELS "quick;dispatch" TIMEOUT 60
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1" PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")
set_tests_properties(repeat_np3 PROPERTIES LABELS "quick;dispatch" TIMEOUT 60 PROCESSORS 2
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")

# The reference's lower bound that the dispatch rule trusts: below the reference's best
# call and above a tenth of it, on both grid shapes of 2 ranks (internal functions, so it
# links the library's objects).  Its reference calls are timed: it takes both cores.
add_executable(test_predict test_predict.c)
target_compile_options(test_predict PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_predict PRIVATE hpdaemon_objs)
hpd_add_mpi_test(predict_np2 2 test_predict)
set_tests_properties(predict_np2 PROPERTIES LABELS "quick;dispatch" TIMEOUT 120 PROCESSORS 2
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "test_predict: [0-9]+ passed, 0 failed")

# The default strategy from the grid's nodes: daemon on one node here; across two
# emulated hosts auto, and HPD_STRATEGY winning (test_cluster.sh, case strategy).
hpd_add_program(test_strategy_default test_strategy_default.c)
hpd_add_mpi_test(strategy_default_np2 2 test_strategy_default)
set_tests_properties(strategy_default_np2 PROPERTIES LABELS "quick;dispatch" TIMEOUT 60
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")

# Settled routes kept in the tune file: one run settles a class on the reference and
# writes it, the next takes it from the file without an engine call.
add_test(NAME dispatch_verdicts_np2
         COMMAND sh -c "rm -f \"$1\" && \"$0\" -n 2 \"$2\" --verdicts write \"$1\" && \"$0\" -n 2 \"$2\" --verdicts read \"$1\""
                 ${HPD_MPIEXEC} ${CMAKE_CURRENT_BINARY_DIR}/dispatch_verdicts.tune
                 $<TARGET_FILE:test_dispatch>)
set_tests_properties(dispatch_verdicts_np2 PROPERTIES LABELS "quick;dispatch" TIMEOUT 120
  PROCESSORS 2 ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "the settled route is kept[^\n]*\n.*[0-9]+ passed, 0 failed\n.*ok: a verdict from the tune file[^\n]*\nok: a close class from[^\n]*\nok: a close class whose[^\n]*\n.*[1-9][0-9]* passed, 0 failed")
