# Relinked interposition from C: direct pdgemm_ calls and those inside pdgetrf_.
hpd_add_program(test_interpose test_interpose.c)
hpd_add_mpi_test(interpose_c 2 test_interpose --max-fallback 0)
hpd_add_mpi_test(interpose_c_disabled 2 test_interpose --expect-reason disabled)
set_tests_properties(interpose_c_disabled PROPERTIES ENVIRONMENT "HPD_DISABLE=1")
hpd_add_mpi_test(interpose_c_1rank 1 test_interpose --max-fallback 0)
set_tests_properties(interpose_c interpose_c_disabled interpose_c_1rank
                     PROPERTIES LABELS "quick" TIMEOUT 120)
