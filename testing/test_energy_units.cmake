# The energy meters, the power model (its break-even too) and the node helper.  Their functions are internal
# (hidden), so each test compiles the sources it needs instead of linking the library.
set(HPD_ENERGY_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/src/core/log.c
  ${PROJECT_SOURCE_DIR}/src/core/parse.c
  ${PROJECT_SOURCE_DIR}/src/energy/meter.c
  ${PROJECT_SOURCE_DIR}/src/energy/model.c
  ${PROJECT_SOURCE_DIR}/src/energy/model_file.c
  ${PROJECT_SOURCE_DIR}/src/core/node.c
  ${PROJECT_SOURCE_DIR}/src/core/waited.c
  ${PROJECT_SOURCE_DIR}/src/energy/papi.c
  ${PROJECT_SOURCE_DIR}/src/energy/powercap.c
  ${PROJECT_SOURCE_DIR}/src/energy/wrap.c)

function(hpd_add_energy_test name)
  add_executable(${name} ${name}.c ${HPD_ENERGY_TEST_SOURCES})
  target_compile_options(${name} PRIVATE ${HPD_WARNINGS})
  target_compile_definitions(${name} PRIVATE _POSIX_C_SOURCE=200809L
    $<$<BOOL:${HPD_HAVE_PAPI}>:HPD_HAVE_PAPI>)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include
    ${PROJECT_SOURCE_DIR}/src
    $<$<BOOL:${HPD_HAVE_PAPI}>:${PAPI_INCLUDE_DIR}>)
  target_link_libraries(${name} PRIVATE MPI::MPI_C m
    $<$<BOOL:${HPD_HAVE_PAPI}>:${PAPI_LIBRARY}>)
endfunction()

hpd_add_energy_test(test_energy_meters)
add_test(NAME energy_meters COMMAND test_energy_meters)
set_tests_properties(energy_meters PROPERTIES LABELS "quick;unit" TIMEOUT 60)

hpd_add_energy_test(test_energy_model)
add_test(NAME energy_model COMMAND test_energy_model)
set_tests_properties(energy_model PROPERTIES LABELS "quick;unit" TIMEOUT 60)

# The break-even behind daemon's switch rule (HPD_SWITCH_MIN_MS=auto).
hpd_add_energy_test(test_energy_break_even)
add_test(NAME energy_break_even COMMAND test_energy_break_even)
set_tests_properties(energy_break_even PROPERTIES LABELS "quick;unit" TIMEOUT 60)

hpd_add_energy_test(test_energy_node)
hpd_add_mpi_test(energy_node 2 test_energy_node)
set_tests_properties(energy_node PROPERTIES LABELS "quick;unit" TIMEOUT 60)
