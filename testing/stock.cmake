# Debian's stock ScaLAPACK testers, unmodified, with hpdaemon preloaded by the launcher.
# No call may fall back to the reference: the engine serves everything ScaLAPACK passes,
# and the error-exit tests' illegal calls count as rejected, not as fallbacks.
set(HPD_STOCK_RUN ${CMAKE_CURRENT_SOURCE_DIR}/run_stock.sh
    --launcher ${PROJECT_BINARY_DIR}/hpdaemon-run --mpiexec ${HPD_MPIEXEC})
# The shipped input, 4-rank grids (oversubscribed on 2 cores, about 20 s).  Every level-3
# routine but pdgeadd_ and pdtradd_ is hpdaemon's: their rows must all pass, and every legal
# call of theirs must reach the engine (HPD_DISPATCH=engine, as for every test not labelled
# dispatch: the shipped sizes are small enough that the rule would send many past it).
set(HPD_STOCK_LEVEL3_ROUTINES
    --routine pdsyrk --min-calls 1 --max-fallback 0 --max-direct 0 --min-engine 16
    --routine pdtrsm --min-calls 1 --max-fallback 0 --max-direct 0 --min-engine 16
    --routine pdtrmm --min-calls 1 --max-fallback 0 --max-direct 0 --min-engine 16
    --routine pdsymm --min-calls 1 --max-fallback 0 --max-direct 0 --min-engine 16
    --routine pdsyr2k --min-calls 1 --max-fallback 0 --max-direct 0 --min-engine 16)
add_test(NAME stock_pblas3_dpb3tst COMMAND ${HPD_STOCK_RUN} --np 4 --kind pblas
         --bin ${HPD_STOCK_DIR}/PBLAS/dpb3tst --dat ${HPD_STOCK_DIR}/PBLAS/PDBLAS3TST.dat
         --rows PDGEMM,PDSYRK,PDTRSM,PDTRMM,PDSYMM,PDSYR2K --min-calls 1 --max-fallback 0
         --min-engine 16 ${HPD_STOCK_LEVEL3_ROUTINES})
# LU and Cholesky with 2-rank grids (testing/stock/*.dat): the shipped ones take minutes.
# On the 1x2 grid pdgetrf_ is hpdaemon's own (src/factor/), so that its larger calls must
# reach its engine; on 2x1 ScaLAPACK's calls pdgemm_ and pdlaswp_.
add_test(NAME stock_xdlu COMMAND ${HPD_STOCK_RUN} --np 2 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdlu --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/LU.dat
         --min-calls 1 --max-fallback 0
         --routine pdlaswp --min-calls 1 --max-fallback 0 --min-engine 1
         --routine pdgetrf --min-calls 1 --min-engine 1)
# Cholesky, both triangles.  The lower factor on the 1x2 grid and the upper one on 2x1
# are hpdaemon's own pdpotrf_ (src/factor/), whose larger calls must reach its engine;
# the other calls go to ScaLAPACK's pdpotrf_, whose pdsyrk_ calls (never pdgemm_)
# hpdaemon serves.
add_test(NAME stock_xdllt COMMAND ${HPD_STOCK_RUN} --np 2 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdllt --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/LLT.dat
         --routine pdsyrk --min-calls 1 --max-fallback 0
         --routine pdpotrf --min-calls 1 --min-engine 1)
add_test(NAME stock_xdllt_lower COMMAND ${HPD_STOCK_RUN} --np 2 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdllt --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/lower/LLT.dat
         --routine pdsyrk --min-calls 1 --max-fallback 0
         --routine pdpotrf --min-calls 1 --min-engine 1)
# Cholesky on 4 ranks: 2x2, where both triangles are hpdaemon's 2-D look-ahead
# (src/factor/chol_grid.c), and 4x1.  No pdpotrf_ call may fall back.
add_test(NAME stock_xdllt_grid COMMAND ${HPD_STOCK_RUN} --np 4 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdllt --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/grid/LLT.dat
         --routine pdsyrk --min-calls 1 --max-fallback 0
         --routine pdpotrf --min-calls 1 --max-fallback 0 --min-engine 1)
add_test(NAME stock_xdllt_grid_lower COMMAND ${HPD_STOCK_RUN} --np 4 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdllt --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/grid/lower/LLT.dat
         --routine pdsyrk --min-calls 1 --max-fallback 0
         --routine pdpotrf --min-calls 1 --max-fallback 0 --min-engine 1)
# LU and inversion on 4 ranks: 2x2, where pdgetrf_ is hpdaemon's 2-D look-ahead
# (src/factor/lu_grid.c), and 4x1.  No pdgetrf_ call may fall back.
add_test(NAME stock_xdlu_grid COMMAND ${HPD_STOCK_RUN} --np 4 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdlu --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/grid/LU.dat
         --min-calls 1 --max-fallback 0
         --routine pdlaswp --min-calls 1 --max-fallback 0
         --routine pdgetrf --min-calls 1 --max-fallback 0 --min-engine 1)
add_test(NAME stock_xdinv_grid COMMAND ${HPD_STOCK_RUN} --np 4 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdinv --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/grid/INV.dat
         --min-calls 1 --max-fallback 0
         --routine pdgetrf --min-calls 1 --max-fallback 0 --min-engine 1)
# Inversion (pdgetri, pdtrtri, pdpotri: pdtrmm_, pdtrsm_, pdsymm_ and the rest), every type
# of matrix, 2-rank grids, every legal call on the engine.
add_test(NAME stock_xdinv COMMAND ${HPD_STOCK_RUN} --np 2 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdinv --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/INV.dat
         --min-calls 1 --max-fallback 0
         --routine pdtrmm --min-calls 1 --max-fallback 0 --max-direct 0 --min-engine 1
         --routine pdtrsm --min-calls 1 --max-fallback 0 --max-direct 0 --min-engine 1)
set_tests_properties(stock_pblas3_dpb3tst stock_xdlu stock_xdllt stock_xdllt_lower stock_xdinv
                     stock_xdllt_grid stock_xdllt_grid_lower stock_xdlu_grid stock_xdinv_grid
                     PROPERTIES
                     LABELS "quick;stock" TIMEOUT 600)

# Across emulated hosts (scripts/cluster, 1 Gbit/s links): dpb3tst's shipped 4-rank grids on
# 4 hosts, one rank each, and LU on 2x3 and 3x2 grids over 3 hosts, two ranks each (so that
# rows and columns mix ranks of one host and of several).  Skipped where hosts cannot be
# emulated.
set(HPD_STOCK_CLUSTER --cluster ${PROJECT_SOURCE_DIR}/scripts/cluster)
add_test(NAME cluster_stock_dpb3tst COMMAND ${HPD_STOCK_RUN} ${HPD_STOCK_CLUSTER}
         --hosts 4 --ranks-per-host 1 --kind pblas
         --bin ${HPD_STOCK_DIR}/PBLAS/dpb3tst --dat ${HPD_STOCK_DIR}/PBLAS/PDBLAS3TST.dat
         --rows PDGEMM,PDSYRK --min-calls 1 --max-fallback 0
         --routine pdsyrk --min-calls 1 --max-fallback 0)
add_test(NAME cluster_stock_xdlu COMMAND ${HPD_STOCK_RUN} ${HPD_STOCK_CLUSTER}
         --hosts 3 --ranks-per-host 2 --kind lapack
         --bin ${HPD_STOCK_DIR}/xdlu --dat ${CMAKE_CURRENT_SOURCE_DIR}/stock/cluster/LU.dat
         --min-calls 1 --max-fallback 0
         --routine pdlaswp --min-calls 1 --max-fallback 0 --min-engine 1)
set_tests_properties(cluster_stock_dpb3tst cluster_stock_xdlu PROPERTIES
  LABELS "cluster;stock" TIMEOUT 600 SKIP_RETURN_CODE 77 PROCESSORS 2
  RESOURCE_LOCK emulated_hosts
  ENVIRONMENT "HPD_FINALIZE_GUARD=$<TARGET_FILE:hpdaemon_finalize_guard>")
