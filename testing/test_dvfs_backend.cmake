# The real frequency backends (sysfs, cpupower) against fake cpufreq trees.  Their
# functions are internal, so their sources are compiled into the test itself.
set(HPD_DVFS_BACKEND_SOURCES cpus.c cpufreq_tree.c sysfs_file.c plan.c restore.c guardian.c
    domains.c sysfs.c cpupower.c)
list(TRANSFORM HPD_DVFS_BACKEND_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/src/dvfs/)
add_executable(test_dvfs_backend test_dvfs_backend.c ${HPD_DVFS_BACKEND_SOURCES}
               ${PROJECT_SOURCE_DIR}/src/core/finalize_hook.c ${PROJECT_SOURCE_DIR}/src/core/log.c)
target_compile_options(test_dvfs_backend PRIVATE ${HPD_WARNINGS})
target_compile_definitions(test_dvfs_backend PRIVATE _POSIX_C_SOURCE=200809L
  $<$<BOOL:${HPD_HAVE_CPUPOWER}>:HPD_HAVE_CPUPOWER>)
target_include_directories(test_dvfs_backend PRIVATE ${PROJECT_SOURCE_DIR}/include
  ${PROJECT_SOURCE_DIR}/src
  $<$<BOOL:${HPD_HAVE_CPUPOWER}>:${CPUPOWER_INCLUDE_DIR}>)
target_link_libraries(test_dvfs_backend PRIVATE MPI::MPI_C Threads::Threads
  $<$<BOOL:${HPD_HAVE_CPUPOWER}>:${CPUPOWER_LIBRARY}>)
# Under the launcher, as the library runs: a guardian left behind would keep it waiting.
add_test(NAME dvfs_backend COMMAND ${HPD_MPIEXEC} -n 1 $<TARGET_FILE:test_dvfs_backend>)
set_tests_properties(dvfs_backend PROPERTIES LABELS "quick;unit" TIMEOUT 60)
