# The correctness sweeps of pdtrsm_, pdtrmm_ (testing/pdtrxm_check.c), pdsymm_
# (pdsymm_check.c) and pdsyr2k_ (pdsyr2k_check.c), run as pdsyrk_check.cmake runs its own.
hpd_add_program(pdtrsm_check pdtrsm_check.c pdtrxm_check.c check_level3.c check_sweep.c)
hpd_add_program(pdtrmm_check pdtrmm_check.c pdtrxm_check.c check_level3.c check_sweep.c)
hpd_add_program(pdsymm_check pdsymm_check.c check_level3.c check_sweep.c)
hpd_add_program(pdsyr2k_check pdsyr2k_check.c check_level3.c check_sweep.c)

# hpd_level3_check_test(NAME NPROCS PROGRAM TIMEOUT LABELS ARGS...)
function(hpd_level3_check_test name nprocs program timeout labels)
  hpd_add_mpi_test(${name} ${nprocs} ${program} ${ARGN})
  set_tests_properties(${name} PROPERTIES
    LABELS "${labels}"
    TIMEOUT ${timeout}
    PROCESSORS ${nprocs}
    # The ranks already fill the cores: BLAS threads on top would only oversubscribe.
    ENVIRONMENT "OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1")
endfunction()

# Three and four ranks oversubscribe two cores, and every message then waits for a time
# slice.  These routines send many (a call of pdtrsm, pdtrmm or pdsymm is about as many
# multiplies and diagonal pieces as sub(A)'s order has blocks), so there the sweeps run
# only on the grids that need those ranks, on a spread-out prefix of their cases:
#                      quick np3  full np3  full np4
set(hpd_pdtrsm_cases   56         240       240)
set(hpd_pdtrmm_cases   56         240       240)
set(hpd_pdsymm_cases   40         120       120)
set(hpd_pdsyr2k_cases  134        400       400)

# testing/CMakeLists.txt sets HPD_DISPATCH=engine on every test not labelled "dispatch",
# so all of these but the _auto ones judge the engine on every call, and the sweeps fail
# where it served none.
foreach(routine pdtrsm pdtrmm pdsymm pdsyr2k)
  set(p ${routine}_check)
  list(GET hpd_${routine}_cases 0 quick_np3)
  list(GET hpd_${routine}_cases 1 full_np3)
  list(GET hpd_${routine}_cases 2 full_np4)

  hpd_level3_check_test(${p}_quick_np1 1 ${p} 60 quick --quick)
  hpd_level3_check_test(${p}_quick_np2 2 ${p} 120 quick --quick)
  hpd_level3_check_test(${p}_quick_np3 3 ${p} 180 quick --quick --grids 1x3,3x1
                        --cases ${quick_np3})

  # Full: each run adds the grids that need its rank count.
  hpd_level3_check_test(${p}_full_np1 1 ${p} 120 full --full)
  hpd_level3_check_test(${p}_full_np2 2 ${p} 180 full --full)
  hpd_level3_check_test(${p}_full_np3 3 ${p} 300 full --full --grids 1x3,3x1
                        --cases ${full_np3})
  hpd_level3_check_test(${p}_full_np4 4 ${p} 300 full --full --grids 2x2 --cases ${full_np4})

  # Forced narrow panels in odd groups, under both schedules: the pieces of one call are
  # many multiplies of a few panels each.
  hpd_level3_check_test(${p}_kb3_ngrp3_np2 2 ${p} 120 quick --quick)
  set_property(TEST ${p}_kb3_ngrp3_np2 APPEND PROPERTY ENVIRONMENT "HPD_KB=3;HPD_NGRP=3")
  hpd_level3_check_test(${p}_overlap_kb3_ngrp3_np2 2 ${p} 120 quick --quick)
  set_property(TEST ${p}_overlap_kb3_ngrp3_np2 APPEND PROPERTY ENVIRONMENT
               "HPD_STRATEGY=overlap;HPD_KB=3;HPD_NGRP=3")

  # The sweep judged against ScaLAPACK's own routine: its criteria must accept the
  # reference, or a failure elsewhere could be the sweep's own.
  hpd_level3_check_test(${p}_reference_np2 2 ${p} 120 quick --quick)
  set_property(TEST ${p}_reference_np2 APPEND PROPERTY ENVIRONMENT "HPD_DISABLE=1")

  # Broadcasts outside shared memory: the gathered block travels on one node as it does
  # between hosts, and the multiplies work through it as it arrives.
  hpd_level3_check_test(${p}_binomial_np2 2 ${p} 120 quick --quick)
  set_property(TEST ${p}_binomial_np2 APPEND PROPERTY ENVIRONMENT "HPD_BCAST=binomial")

  # The default dispatch (see test_dispatch.cmake): calls held by one process go to one
  # local BLAS call, others to the reference or the engine; results must not change.
  hpd_level3_check_test(${p}_auto_np2 2 ${p} 120 "quick;dispatch" --quick)
endforeach()

# pdtrmm and pdsymm from the left spread sub(B) down a column where the column's block
# would not lie in shared memory (src/level3/spread.c): on three processes as well, each
# receiving two others' rows (and, pdsymm, two others' sums for its own).
foreach(p pdtrmm pdsymm)
  list(GET hpd_${p}_cases 0 ${p}_quick_np3)
  hpd_level3_check_test(${p}_check_binomial_np3 3 ${p}_check 180 quick --quick --grids 3x1
                        --cases ${${p}_quick_np3})
  set_property(TEST ${p}_check_binomial_np3 APPEND PROPERTY ENVIRONMENT "HPD_BCAST=binomial")
endforeach()

# pdtrsm from the left solves down a column, slab by slab, where the column's block would
# not lie in shared memory (src/level3/trsm_wave.c): the full sweep's cases on three
# processes, where a block's solution updates two others' rows.
list(GET hpd_pdtrsm_cases 1 pdtrsm_full_np3)
hpd_level3_check_test(pdtrsm_check_binomial_np3 3 pdtrsm_check 180 quick --full --grids 3x1
                      --cases ${pdtrsm_full_np3})
set_property(TEST pdtrsm_check_binomial_np3 APPEND PROPERTY ENVIRONMENT "HPD_BCAST=binomial")

# The wave's memory figure is every process's alike, though the processes stage different
# numbers of rows: 130 rows of NB 64 on 2x1 stage 64 x 2000 entries on one process, just
# under the size whose buffers are agreed on over the column, and 66 x 2000 on the other,
# just over it; judged each by its own, one process agreed and the other went on, and the
# call hung.
hpd_level3_check_test(pdtrsm_wave_uneven_rows_np2 2 bench_level3 60 quick --routine pdtrsm
                      --side L --uplo L --diag U -m 130 -n 2000 -b 64 -p 2 -q 1 -r 1)
set_property(TEST pdtrsm_wave_uneven_rows_np2 APPEND PROPERTY ENVIRONMENT "HPD_BCAST=binomial")
set_tests_properties(pdtrsm_wave_uneven_rows_np2 PROPERTIES
  PASS_REGULAR_EXPRESSION "pdtrsm +LLNU +130 +2000 +64 2x1 +1 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +- +1 ")
