# Emulated hosts (scripts/cluster, testing/test_cluster.sh): label "cluster".  They need
# root's network namespaces; where those cannot be made the tests are reported skipped.
set(HPD_CLUSTER_TEST ${CMAKE_CURRENT_SOURCE_DIR}/test_cluster.sh)
set(HPD_CLUSTER_CASES identity sigterm pdgemm_4x1 pdgemm_3x2 pdsyrk_4x1 pdsyrk_3x2 bcast
    warning dvfs strategy nodes)
foreach(case ${HPD_CLUSTER_CASES})
  add_test(NAME cluster_${case}
           COMMAND bash ${HPD_CLUSTER_TEST} --cluster ${PROJECT_SOURCE_DIR}/scripts/cluster
                   --build ${PROJECT_BINARY_DIR} ${case})
  # The hosts' links are one shared resource: one cluster test at a time.
  set_tests_properties(cluster_${case} PROPERTIES LABELS "cluster" TIMEOUT 300
    SKIP_RETURN_CODE 77 PROCESSORS 2 RESOURCE_LOCK emulated_hosts
    ENVIRONMENT "HPD_FINALIZE_GUARD=$<TARGET_FILE:hpdaemon_finalize_guard>")
endforeach()

# SLURM on 2 emulated hosts (munge, a controller, a node daemon per host): an unmodified
# ScaLAPACK program through "hpdaemon-run --report -- srun", one report spanning both
# hosts.  Skipped where slurm-wlm or munge is missing or the daemons cannot start.
add_test(NAME cluster_srun
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_srun.sh --build ${PROJECT_BINARY_DIR}
                 --cluster ${PROJECT_SOURCE_DIR}/scripts/cluster --flavour ${HPD_MPI} slurm)
set_tests_properties(cluster_srun PROPERTIES LABELS "cluster" TIMEOUT 120
  SKIP_RETURN_CODE 77 PROCESSORS 2 RESOURCE_LOCK emulated_hosts
  PASS_REGULAR_EXPRESSION "job: 2 ranks on 2 nodes, 1 per node: hpd-node1, hpd-node2\n.*srun: 2 ranks on hpd-node1 and hpd-node2 in [0-9]+ s, nothing left: ok"
  ENVIRONMENT "HPD_FINALIZE_GUARD=$<TARGET_FILE:hpdaemon_finalize_guard>")

# A warning raised on rank 1 alone reaches the output, naming its rank.
add_test(NAME warning_from_rank1
         COMMAND ${HPD_MPIEXEC} -n 1 $<TARGET_FILE:pdgemm_check> --grids 1x1 --cases 2
                 : -n 1 env HPD_WAIT=bogus $<TARGET_FILE:pdgemm_check> --grids 1x1 --cases 2)
set_tests_properties(warning_from_rank1 PROPERTIES LABELS "quick" TIMEOUT 120
  PASS_REGULAR_EXPRESSION "hpdaemon: warning: HPD_WAIT='bogus'[^\n]*rank 1 on ")

# The network benchmark script end to end on its smallest run (2 hosts, two sizes, a
# small pdgemm per strategy): every CSV row written, the target line printed.
add_test(NAME cluster_run_script
         COMMAND bash ${PROJECT_SOURCE_DIR}/timing/run_cluster.sh -B ${PROJECT_BINARY_DIR}
                 -o ${PROJECT_BINARY_DIR}/cluster-run-script --hosts 2 --rates 1gbit
                 --sizes 64K,8M -r 1 -n 512 -b 64 --calls 1 --parts bcast,pdgemm)
set_tests_properties(cluster_run_script PROPERTIES LABELS "cluster" TIMEOUT 300
  SKIP_RETURN_CODE 77 PROCESSORS 2 RESOURCE_LOCK emulated_hosts
  PASS_REGULAR_EXPRESSION "target 2 hosts 8 MiB: pipeline [0-9.]+ GB/s[^\n]*\n.*pdgemm 1x2 on 2 hosts, strategy auto"
  FAIL_REGULAR_EXPRESSION "FAIL|failed"
  ENVIRONMENT "HPD_FINALIZE_GUARD=$<TARGET_FILE:hpdaemon_finalize_guard>")

# The first calls and the eigen-solve (run_cluster.sh --quick) end to end on tiny
# matrices: every routine and grid a row of the table, both sides' processes, the solve's
# eigenvalues agreeing, its first solves in fresh processes on both sides, no failure.
add_test(NAME cluster_first_calls
         COMMAND bash ${PROJECT_SOURCE_DIR}/timing/run_cluster.sh -B ${PROJECT_BINARY_DIR}
                 -o ${PROJECT_BINARY_DIR}/cluster-first-calls --quick -n 256 --calls 1 --eigen-order 256)
set_tests_properties(cluster_first_calls PROPERTIES LABELS "cluster" TIMEOUT 300
  SKIP_RETURN_CODE 77 PROCESSORS 2 RESOURCE_LOCK emulated_hosts
  PASS_REGULAR_EXPRESSION "\\| pdpotrf U \\| 2x1 \\| 1gbit \\| 256 \\| 64 \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ [^\n]*\n\nfirst, second:.*First calls: 16 rows in.*\n +256 +32 2x1 [^\n]+ ok\n(.*\n)*eigen first solves at 1gbit, fresh processes, 1 of each side: hpd [0-9.]+ s, ref [0-9.]+ s"
  FAIL_REGULAR_EXPRESSION "failed|FAIL"
  ENVIRONMENT "HPD_FINALIZE_GUARD=$<TARGET_FILE:hpdaemon_finalize_guard>")
