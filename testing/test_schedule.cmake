# The auto strategy's choice between daemon and overlap from made-up phase times: the
# learning calls, the time budget, the energy rule and one decision on every rank
# (testing/test_schedule.c).  Internal functions, so it links the library's objects.
add_executable(test_schedule test_schedule.c)
target_compile_options(test_schedule PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_schedule PRIVATE hpdaemon_objs)
hpd_add_mpi_test(schedule 2 test_schedule)
set_tests_properties(schedule PROPERTIES LABELS "quick;unit" TIMEOUT 60 PROCESSORS 2
  ENVIRONMENT "HPD_DVFS=sim"
  PASS_REGULAR_EXPRESSION "test_schedule: [0-9]+ passed, 0 failed")
