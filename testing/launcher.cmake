# The launcher on programs that were never linked against hpdaemon.
add_executable(lu_plain lu_only.c)
target_link_libraries(lu_plain PRIVATE MPI::MPI_C ${SCALAPACK_LIBRARY} ${OPENBLAS_LIBRARY})
set(HPD_RUN ${PROJECT_BINARY_DIR}/hpdaemon-run)
add_test(NAME launcher_plain_program
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_with_report.sh --launcher ${HPD_RUN}
                 --routine pdgetrf --min-calls 1 --max-fallback 0
                 -- ${HPD_MPIEXEC} -n 2 $<TARGET_FILE:lu_plain>)
add_test(NAME launcher_bad_threshold COMMAND ${HPD_RUN} -t 5x -- true)
set_tests_properties(launcher_bad_threshold PROPERTIES
  PASS_REGULAR_EXPRESSION "-t '5x' is not valid: expected a fraction in \\(0,1\\]")
add_test(NAME launcher_no_command COMMAND ${HPD_RUN} -t 0.2)
set_tests_properties(launcher_no_command PROPERTIES WILL_FAIL TRUE)
# A script under the launcher: every command it runs loads hpdaemon, yet only the MPI job
# reports (the shell, the launcher and the tools started no MPI).
add_test(NAME launcher_script_one_report
         COMMAND bash -c "${HPD_RUN} --report -- bash -c '/bin/true; ${HPD_MPIEXEC} -n 2 $<TARGET_FILE:lu_plain>; ls / >/dev/null' > out.txt; echo reports: $(grep -c 'hpdaemon .* report (rank' out.txt)")
set_tests_properties(launcher_script_one_report PROPERTIES
  PASS_REGULAR_EXPRESSION "reports: 1\n")
set_tests_properties(launcher_plain_program launcher_bad_threshold launcher_no_command
                     launcher_script_one_report
                     PROPERTIES LABELS "quick" TIMEOUT 120)

# The launcher's refusals.  A program of this flavour under the other flavour's launcher
# (where that MPI is installed): the ranks would load two MPIs.
if(HPD_MPI STREQUAL "mpich")
  set(HPD_OTHER_LAUNCHER mpirun.openmpi)
else()
  set(HPD_OTHER_LAUNCHER mpiexec.mpich)
endif()
add_test(NAME launcher_wrong_launcher
         COMMAND bash -c "command -v $0 >/dev/null || { echo 'SKIPPED: no $0'; exit 77; }; \"$1\" -- \"$0\" -n 2 \"$2\""
                 ${HPD_OTHER_LAUNCHER} ${HPD_RUN} $<TARGET_FILE:lu_plain>)
set_tests_properties(launcher_wrong_launcher PROPERTIES SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION "lu_plain uses (MPICH|Open MPI) but [^\n]* is (MPICH|Open MPI)'s launcher: start it with")
# srun (a stand-in that shows its arguments): the preload and the HPD_ variables in its
# --export, merged with the line's own; the MPI plugin added; a plugin the program's MPI
# cannot use refused.  testing/test_srun.sh runs a real SLURM as a cluster test.
add_test(NAME launcher_srun_args
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_srun.sh --build ${PROJECT_BINARY_DIR}
                 --flavour ${HPD_MPI} args)
set_tests_properties(launcher_srun_args PROPERTIES
  PASS_REGULAR_EXPRESSION "ScaLAPACK linked statically refused\nsrun args: all ok")
# A program that holds ScaLAPACK itself (its own pdgemm_, no libscalapack): nothing could
# be interposed, so the launcher refuses rather than run it unserved.
add_executable(static_scalapack_like static_scalapack_like.c)
target_link_libraries(static_scalapack_like PRIVATE MPI::MPI_C)
add_test(NAME launcher_static_scalapack
         COMMAND ${HPD_RUN} -- ${HPD_MPIEXEC} -n 1 $<TARGET_FILE:static_scalapack_like>)
set_tests_properties(launcher_static_scalapack PROPERTIES
  PASS_REGULAR_EXPRESSION "is linked statically against ScaLAPACK")
# Open MPI as root without its consent: the launcher passes the refusal on rather than
# give the consent itself.  Only meaningful as root, and for Open MPI.
if(HPD_MPI STREQUAL "openmpi")
  add_test(NAME launcher_root_needs_consent
           COMMAND bash -c "[ \"$(id -u)\" = 0 ] || { echo 'SKIPPED: not root'; exit 77; }; env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \"$0\" -- \"$1\" -n 1 \"$2\""
                   ${HPD_RUN} ${HPD_MPIEXEC} $<TARGET_FILE:lu_plain>)
  set_tests_properties(launcher_root_needs_consent PROPERTIES SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "detected an attempt to run as root")
endif()
set_tests_properties(launcher_wrong_launcher launcher_static_scalapack launcher_srun_args
                     PROPERTIES LABELS "quick" TIMEOUT 120)
if(TEST launcher_root_needs_consent)
  set_tests_properties(launcher_root_needs_consent PROPERTIES LABELS "quick" TIMEOUT 120)
endif()
