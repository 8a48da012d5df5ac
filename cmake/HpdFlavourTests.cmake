# The tests of the Open MPI flavour (HPD_MPI=openmpi), label "openmpi": scripts/test runs
# them before the MPICH suite.  CI time is kept by running the long sweeps, the 4-rank
# and emulated-host tests on MPICH only.  Under Open MPI run:
#   the correctness sweeps on up to three ranks (pdgemm_check, pdsyrk_check, gathered),
#   the level-3 sweeps on two (pdtrsm, pdtrmm, pdsymm, pdsyr2k) and their forms on one
#   line of the grid and turned (test_line), and the shared-memory exchange their gathers
#   take on one node (test_shared); pdlaswp, pdpotrf and pdgetrf on two, pdpotrf on 2x2;
#   the interposition tests (C and Fortran, relinked and preloaded), the launcher's tests
#   and the link-order warning; the Fortran module and both package tests (the latter
#   installs both flavours into one prefix where scripts/build names the other build);
#   the examples; the stock testers dpb3tst (4 ranks), xdlu and xdllt (both triangles; the
#   lower one on 2x2 too);
#   the dispatch rule and the factorization driver; the DVFS restore tests for a normal
#   end and for each way a job can die, since Open MPI delivers signals and aborts its own
#   way; the warning of a rank other than 0.
# Not under Open MPI: the emulated cluster (its hosts run MPICH's process manager), and
# 4- and 5-rank sweeps, where busy-polling Open MPI ranks on 2 cores are slow.
set(HPD_OPENMPI_TESTS
    pdgemm_check_quick_np1 pdgemm_check_quick_np2 pdgemm_check_quick_np3
    pdgemm_check_overlap_kb3_ngrp3_np2 pdgemm_check_auto_np2
    pdsyrk_check_quick_np1 pdsyrk_check_quick_np2 pdsyrk_check_quick_np3
    pdsyrk_check_gathered_kb3_ngrp3_np3 pdsyrk_check_gathered_overlap_np3
    pdtrsm_check_quick_np2 pdtrmm_check_quick_np2 pdsymm_check_quick_np2
    pdsyr2k_check_quick_np2 line_1x2 line_2x1 shared_np2 laswp_1x2 laswp_2x1 laswp_3x1 potrf_1x2 getrf_1x2
    potrf_2x1 getrf_2x1 potrf_2x2 getrf_2x2
    interpose_c interpose_c_1rank interpose_c_disabled interpose_fortran link_order_warning
    launcher_plain_program launcher_bad_threshold launcher_no_command
    launcher_script_one_report launcher_wrong_launcher launcher_static_scalapack
    launcher_root_needs_consent launcher_srun_args
    fortran_module fortran_package package_find_package_pkgconfig
    example_relink example_preload example_fortran
    stock_pblas3_dpb3tst stock_xdlu stock_xdllt stock_xdllt_lower stock_xdllt_grid_lower
    stock_xdlu_grid
    dispatch_np2 factor_driver_n200_nb32_2x1 factor_driver_n200_nb32_1x2
    dvfs_restore_pinned_none dvfs_restore_pinned_abort dvfs_restore_pinned_term
    dvfs_restore_pinned_int dvfs_restore_pinned_segv dvfs_restore_pinned_abrt
    dvfs_restore_pinned_kill dvfs_restore_userspace_abort dvfs_restore_set_by_user_kill
    warning_from_rank1)

# hpd_flavour_tests(): for the tests of the calling folder.  Under Open MPI: the label
# above, Open MPI's root consent (the tests give it; hpdaemon-run never does on its own)
# and its consent to more ranks than cores (the tests run up to 5 ranks on 2 cores).
# The emulated cluster's tests are left out there.
function(hpd_flavour_tests)
  if(NOT HPD_MPI STREQUAL "openmpi")
    return()
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test ${tests})
    if(test IN_LIST HPD_OPENMPI_TESTS)
      set_property(TEST ${test} APPEND PROPERTY LABELS openmpi)
    endif()
    get_test_property(${test} LABELS labels)
    if(labels MATCHES "cluster")
      set_property(TEST ${test} PROPERTY DISABLED TRUE)
    endif()
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
                 "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
                 "OMPI_MCA_rmaps_base_oversubscribe=1")
  endforeach()
endfunction()
