# The process's kept working space: reuse, the one budget, the layers given back
# (testing/test_workspace.c).  Internal functions, so it links the library's objects.
add_executable(test_workspace test_workspace.c)
target_compile_options(test_workspace PRIVATE ${HPD_WARNINGS})
target_link_libraries(test_workspace PRIVATE hpdaemon_objs)
add_test(NAME workspace COMMAND test_workspace)
set_tests_properties(workspace PROPERTIES LABELS "quick;unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "test_workspace: [0-9]+ passed, 0 failed")
