# A unit test of the library's internal functions, so it links the library's objects:
# testing/test_NAME.c as test NAME, with ARGN added to its test properties (a list: no
# semicolon inside a property value).
function(hpd_internal_unit_test name)
  add_executable(test_${name} test_${name}.c)
  target_compile_options(test_${name} PRIVATE ${HPD_WARNINGS})
  target_link_libraries(test_${name} PRIVATE hpdaemon_objs)
  add_test(NAME ${name} COMMAND test_${name})
  set_tests_properties(${name} PROPERTIES LABELS "quick;unit" TIMEOUT 60 ${ARGN})
endfunction()

# The configuration parser.
hpd_internal_unit_test(config)

# HPD_SWITCH_MIN_MS (daemon's switch rule) and HPD_MAX_SLOWDOWN (the auto strategy's
# time budget): the environment's values and the API.
hpd_internal_unit_test(config_bounds)

# The README's option table against the configuration's own table: same variables,
# defaults and setters (testing/test_options_doc.c).
add_executable(test_options_doc test_options_doc.c)
target_compile_options(test_options_doc PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_options_doc PRIVATE hpdaemon_objs)
add_test(NAME options_doc COMMAND test_options_doc ${PROJECT_SOURCE_DIR}/README.md
                                  ${PROJECT_SOURCE_DIR}/include/hpdaemon.h)
set_tests_properties(options_doc PROPERTIES LABELS "quick;unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "options_doc: [0-9]+ checks, 0 failed")

# A bad value in the environment: one clear message, the default used, the run goes on.
add_test(NAME config_bad_env COMMAND ${HPD_MPIEXEC} -n 2 $<TARGET_FILE:test_interpose>)
set_tests_properties(config_bad_env PROPERTIES LABELS "quick" TIMEOUT 120
  ENVIRONMENT "HPD_MEM_THRESHOLD=2;HPD_REPORT=sometimes"
  PASS_REGULAR_EXPRESSION "HPD_MEM_THRESHOLD='2' is not valid: expected a fraction in \\(0,1\\]"
  FAIL_REGULAR_EXPRESSION "HPD_REPORT='sometimes'[^\n]*\n[^\n]*HPD_REPORT='sometimes'")

# Block-cyclic index arithmetic, local to global and back (testing/test_layout.c).
add_executable(test_layout test_layout.c ${PROJECT_SOURCE_DIR}/src/pblas/layout.c)
target_compile_options(test_layout PRIVATE ${HPD_WARNINGS})
target_include_directories(test_layout PRIVATE ${PROJECT_SOURCE_DIR}/src)
add_test(NAME layout COMMAND test_layout)
set_tests_properties(layout PROPERTIES LABELS "quick;unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "layout: [0-9]+ checks, 0 failed")

# A local update cut into strips with polls between them, as the overlap schedule runs
# it, against the update in one pass (testing/test_strips.c).
hpd_internal_unit_test(strips ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "strips: [0-9]+ checks, 0 failed")

# The local triangular solve and its small-order kernel give X exactly on every SIDE,
# UPLO, TRANS and DIAG (testing/test_small_trsm.c).
hpd_internal_unit_test(small_trsm ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "small_trsm: [0-9]+ builds of the kernel. [0-9]+ checks, 0 failed")

# The library's own costs: counted once where nested, made buffers counted, reused not
# (testing/test_costs.c).
hpd_internal_unit_test(costs PASS_REGULAR_EXPRESSION "test_costs: [0-9]+ passed, 0 failed")
