# Relinked interposition from C: direct pdgemm_ calls, pdgetrf_, and the pdgemm_ calls
# inside ScaLAPACK's pdlauum_.
hpd_add_program(test_interpose test_interpose.c)
hpd_add_mpi_test(interpose_c 2 test_interpose --max-fallback 0)
hpd_add_mpi_test(interpose_c_disabled 2 test_interpose --expect-reason disabled)
set_tests_properties(interpose_c_disabled PROPERTIES ENVIRONMENT "HPD_DISABLE=1")
hpd_add_mpi_test(interpose_c_1rank 1 test_interpose --max-fallback 0)
set_tests_properties(interpose_c interpose_c_disabled interpose_c_1rank
                     PROPERTIES LABELS "quick" TIMEOUT 120)

# Linked the wrong way round (ScaLAPACK ahead of hpdaemon): the library must say so.
add_executable(link_order_wrong lu_only.c)
target_link_options(link_order_wrong PRIVATE "LINKER:--no-as-needed")
target_link_libraries(link_order_wrong PRIVATE MPI::MPI_C ${SCALAPACK_LIBRARY} hpdaemon
                      ${OPENBLAS_LIBRARY})
add_test(NAME link_order_warning COMMAND ${HPD_MPIEXEC} -n 1 $<TARGET_FILE:link_order_wrong>)
set_tests_properties(link_order_warning PROPERTIES LABELS "quick" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "pdgemm_ resolves to [^\n]*scalapack[^\n]*, not to hpdaemon")
