# The launcher on programs that were never linked against hpdaemon.
add_executable(lu_plain lu_only.c)
target_link_libraries(lu_plain PRIVATE MPI::MPI_C ${SCALAPACK_LIBRARY} ${OPENBLAS_LIBRARY})
set(HPD_RUN ${PROJECT_BINARY_DIR}/hpdaemon-run)
add_test(NAME launcher_plain_program
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_with_report.sh --launcher ${HPD_RUN}
                 --min-calls 1 --max-fallback 0 -- ${HPD_MPIEXEC} -n 2 $<TARGET_FILE:lu_plain>)
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
