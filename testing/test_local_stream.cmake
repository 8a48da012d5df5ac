# The line's multiplies through the gathered block as it arrives (src/level3/local.c), on
# one process: columns asked in order, none read before, the BLAS's results.  Internal
# functions, so it links the library's objects.
add_executable(test_local_stream test_local_stream.c)
target_compile_options(test_local_stream PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_local_stream PRIVATE hpdaemon_objs)
add_test(NAME local_stream COMMAND test_local_stream)
set_tests_properties(local_stream PROPERTIES LABELS "quick;unit" TIMEOUT 60
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "test_local_stream: [0-9]+ passed, 0 failed")
