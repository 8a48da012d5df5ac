# The broadcasts on their own (timing/README.md, run_bcast.sh): built, never a test.
# It selects algorithms and reads the broadcast counters, internal to the library, so it
# links the library's objects.
add_executable(bench_bcast ${CMAKE_CURRENT_LIST_DIR}/bench_bcast.c)
target_compile_options(bench_bcast PRIVATE ${HPD_WARNINGS})
target_link_libraries(bench_bcast PRIVATE hpd_support hpdaemon_objs m)
