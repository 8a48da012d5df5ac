# The correctness drivers of testing/ on simulated ranks (label "simulated"): grids and
# hosts that two cores cannot run natively, several hosts with several ranks each.
set(hpd_testing ${PROJECT_SOURCE_DIR}/testing)
hpd_add_sim_program(pdgemm_check ${hpd_testing}/pdgemm_check.c ${hpd_testing}/check_sweep.c)
hpd_add_sim_program(pdsyrk_check ${hpd_testing}/pdsyrk_check.c ${hpd_testing}/check_sweep.c)
hpd_add_sim_program(pdtrsm_check ${hpd_testing}/pdtrsm_check.c ${hpd_testing}/pdtrxm_check.c
                    ${hpd_testing}/check_level3.c ${hpd_testing}/check_sweep.c)
hpd_add_sim_program(pdtrmm_check ${hpd_testing}/pdtrmm_check.c ${hpd_testing}/pdtrxm_check.c
                    ${hpd_testing}/check_level3.c ${hpd_testing}/check_sweep.c)
hpd_add_sim_program(pdsymm_check ${hpd_testing}/pdsymm_check.c ${hpd_testing}/check_level3.c
                    ${hpd_testing}/check_sweep.c)
hpd_add_sim_program(pdsyr2k_check ${hpd_testing}/pdsyr2k_check.c ${hpd_testing}/check_level3.c
                    ${hpd_testing}/check_sweep.c)
hpd_add_sim_program(factor_driver ${hpd_testing}/factor_driver.c
                    ${hpd_testing}/factor_driver_options.c ${hpd_testing}/factor_driver_table.c
                    ${HPD_SIM_FACTOR_COMMON} ${HPD_SIM_BENCH_COMMON})

# 2x2 on two hosts of two cores, 4x4 on four of four, 2x8 and 8x8 on eight of eight.
foreach(routine pdgemm pdsyrk pdtrsm pdtrmm pdsymm pdsyr2k)
  hpd_add_sim_test(sim_${routine}_check_2x2 RANKS 4 PLATFORM custom --hosts 2 --cores 2
                   COMMAND ${routine}_check --quick --grids 2x2)
  hpd_add_sim_test(sim_${routine}_check_4x4 RANKS 16 PLATFORM custom --hosts 4 --cores 4
                   COMMAND ${routine}_check --quick --grids 4x4,1x16 --cases 64)
  hpd_add_sim_test(sim_${routine}_check_8x8 RANKS 64 PLATFORM custom --hosts 8 --cores 8
                   COMMAND ${routine}_check --quick --grids 8x8,2x8,8x2 --cases 48)
endforeach()

# LU and both Cholesky triangles under every strategy, factors checked as ScaLAPACK's
# testers check them: the 2-D grids where hpdaemon's level 3 serves ScaLAPACK's own
# factorizations, with partial last blocks (N = 200: 6 x 32 + 8).
foreach(shape "4;2;2" "16;4;4" "16;2;8")
  list(GET shape 0 ranks)
  list(GET shape 1 p)
  list(GET shape 2 q)
  hpd_add_sim_test(sim_factor_driver_${p}x${q} RANKS ${ranks}
                   PLATFORM custom --hosts ${p} --cores ${q}
                   ENV HPD_DVFS=sim HPD_ENERGY=model
                   COMMAND factor_driver -n 200 -b 32 -p ${p} -q ${q})
endforeach()

# The 2-D look-aheads of LU and Cholesky (src/factor/lu_grid.c, chol_grid.c) against
# exact factors (LU's and its pivots against ScaLAPACK's own, to the bit), offsets,
# partial panels, singular and not positive definite matrices, both triangles, on grids
# that two cores cannot run natively; the engine forced, since a 2-D class's first call
# opens on the reference.
foreach(routine potrf getrf)
  hpd_add_sim_program(test_${routine} ${hpd_testing}/test_${routine}.c
                      ${hpd_testing}/dist_matrix.c)
  foreach(shape "16;4;4;4;4" "16;2;8;2;8" "64;8;8;8;8")
    list(GET shape 0 ranks)
    list(GET shape 1 p)
    list(GET shape 2 q)
    list(GET shape 3 hosts)
    list(GET shape 4 cores)
    hpd_add_sim_test(sim_${routine}_${p}x${q} RANKS ${ranks} PLATFORM custom --hosts ${hosts}
                     --cores ${cores} ENV HPD_DISPATCH=engine
                     COMMAND test_${routine} ${p} ${q})
    if(TEST sim_${routine}_${p}x${q})
      set_tests_properties(sim_${routine}_${p}x${q} PROPERTIES
        PASS_REGULAR_EXPRESSION "${routine} ${p}x${q}: [0-9]+ cases, [0-9]+ checks, 0 failed")
    endif()
  endforeach()
endforeach()

# The DVFS backend and the energy meter of the simulated build act on the rank's own
# simulated core: a switch times the work at that core's new speed, each rank's joules are
# its own core's (test_simulated_host.c).
hpd_add_sim_program(test_simulated_host ${PROJECT_SOURCE_DIR}/simulated/test_simulated_host.c)
hpd_add_sim_test(sim_host_dvfs_energy RANKS 2 PLATFORM custom --hosts 2 --cores 1
                 --pstates 0.8,1.3,1.8,2.5 COMMAND test_simulated_host)

# The energy driver: every strategy on pdgemm and LU with the switch identity checked on
# every call, and the simulated cores' joules.
hpd_add_sim_program(energy_driver ${hpd_testing}/energy_driver.c
                    ${hpd_testing}/energy_driver_check.c ${hpd_testing}/energy_driver_data.c
                    ${hpd_testing}/energy_driver_table3.c ${hpd_testing}/energy_driver_report.c
                    ${hpd_testing}/node_memory.c ${HPD_SIM_BENCH_COMMON})
hpd_add_sim_test(sim_energy_driver_4x4 RANKS 16
                 PLATFORM custom --hosts 4 --cores 4 --pstates 0.8,1.3,1.8,2.5
                 COMMAND energy_driver -n 256 -b 32 -p 4 -q 4 --no-table3)
hpd_add_sim_test(sim_energy_driver_2x8 RANKS 16
                 PLATFORM custom --hosts 2 --cores 8 --pstates 0.8,1.3,1.8,2.5
                 COMMAND energy_driver -n 200 -b 24 -p 2 -q 8 --no-table3)

# The timing mode's kernels: each call charged by its own family's rates at its shape,
# interpolated between the table's shapes, at the core's P-state (test_simulated_kernels.c).
hpd_add_sim_program(test_simulated_kernels ${PROJECT_SOURCE_DIR}/simulated/test_simulated_kernels.c)
hpd_add_sim_test(sim_kernels_charged RANKS 1 PLATFORM custom --hosts 1 --cores 1
                 --pstates 0.8,2.5 COMMAND test_simulated_kernels)

# The timing mode end to end: hpdaemon and the reference on 16 ranks with every kernel
# charged and the large buffers folded, and the energy driver's switch identities there.
hpd_add_sim_test(sim_timing_bench_pdgemm_4x4 RANKS 16 MODE timing
                 PLATFORM custom --hosts 4 --cores 4
                 COMMAND bench_pdgemm -n 1024 -b 32 -p 4 -q 4 -r 1)
# The overlap schedule on lines of four ranks, where the groups behind a multiply go flat
# (src/bcast/bcast.h; 576 flat broadcasts when this test was written): the product still
# agrees with the reference's.
hpd_add_sim_test(sim_bench_pdgemm_overlap_4x4 RANKS 16 PLATFORM custom --hosts 4 --cores 4
                 ENV HPD_STRATEGY=overlap COMMAND bench_pdgemm -n 1024 -b 32 -p 4 -q 4 -r 1)
if(TEST sim_bench_pdgemm_overlap_4x4)
  set_tests_properties(sim_bench_pdgemm_overlap_4x4 PROPERTIES
    PASS_REGULAR_EXPRESSION " ok +[0-9.]+" FAIL_REGULAR_EXPRESSION "differs")
endif()
# Lines across nodes of several ranks each (columns of 4 over 2 hosts of 8 cores): a
# group behind a multiply goes flat with one copy per node, which the node's first rank
# forwards, and overlap keeps two groups travelling (three slots of buffers: 3.0 MiB per
# rank, where two slots take 2.0).  The product still agrees with the reference's.
hpd_add_sim_test(sim_bench_pdgemm_overlap_nodes_4x4 RANKS 16 PLATFORM custom --hosts 2
                 --cores 8 ENV HPD_STRATEGY=overlap HPD_REPORT=summary
                 COMMAND bench_pdgemm -n 1024 -b 32 -p 4 -q 4 -r 1)
if(TEST sim_bench_pdgemm_overlap_nodes_4x4)
  set_tests_properties(sim_bench_pdgemm_overlap_nodes_4x4 PROPERTIES
    PASS_REGULAR_EXPRESSION " ok +[0-9.]+.*extra memory per rank 3.0 MiB model"
    FAIL_REGULAR_EXPRESSION "differs")
endif()
# The overlap schedule's broadcast handles are each rank's own in the timing mode: as one
# large block of the folded kind, every rank's handles overwrote the others' (groups of
# 32 of 64 panels on 4x4: a negative receive count, then a crash).
hpd_add_sim_test(sim_timing_overlap_wide_groups_4x4 RANKS 16 MODE timing
                 PLATFORM custom --hosts 4 --cores 4 ENV HPD_STRATEGY=overlap HPD_NGRP=32
                 COMMAND bench_pdgemm -n 2048 -b 32 -p 4 -q 4 -r 1)
if(TEST sim_timing_overlap_wide_groups_4x4)
  set_tests_properties(sim_timing_overlap_wide_groups_4x4 PROPERTIES
    PASS_REGULAR_EXPRESSION "\n +2048 +32 +4x4 ")
endif()
# The default dispatch on a 2-D grid judges the engine as it runs once settled: tuned
# chunks (a class's first call there times the candidates; provisional ones send no group
# behind a multiply flat) and schedules learned without the trials' time, and the class
# settles on the engine (order 1024 on 4x4 InfiniBand: 1.18x; judged untuned it went to
# the reference at 1.00x).  The uniform rates make the
# simulated times, and so the verdict, the same on every machine.
hpd_add_sim_test(sim_dispatch_tuned_4x4 RANKS 16 MODE timing PLATFORM paper-infiniband
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_pdgemm -n 1024 -b 64 -p 4 -q 4 -r 6 --first-calls hpd)
if(TEST sim_dispatch_tuned_4x4)
  set_tests_properties(sim_dispatch_tuned_4x4 PROPERTIES
    PASS_REGULAR_EXPRESSION "rounds: [^\n]*ref/hpd (1\\.[1-9]|[2-9]\\.)")
endif()
# A 2-D class whose opening call comes near its links' floor takes no trial on the engine
# (src/pblas/dispatch.c, TRIAL_FLOOR): columns of 8 ranks over 4 nodes at 1 Gbit/s, where
# the reference takes about 1.5 times the least time its panels need to reach the nodes,
# and the trial took 0.113 s against the opening call's 0.077 s.  On 2 nodes of the same
# kind the floor leaves the engine room (2.1 times), and the trial runs and wins (1.7x at
# order 2048).
hpd_add_sim_test(sim_dispatch_links_hold_8x8 RANKS 64 MODE timing
                 PLATFORM custom --hosts 4 --cores 16 --nic 1gbit --latency 1us
                          --network fattree --transport rdma
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_pdgemm -n 1024 -b 64 -p 8 -q 8 -r 1 --first-calls hpd)
hpd_add_sim_test(sim_dispatch_links_room_8x8 RANKS 64 MODE timing
                 PLATFORM custom --hosts 2 --cores 32 --nic 1gbit --latency 1us
                          --network fattree --transport rdma
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_pdgemm -n 2048 -b 64 -p 8 -q 8 -r 1 --first-calls hpd)
if(TEST sim_dispatch_links_hold_8x8)
  set_tests_properties(sim_dispatch_links_hold_8x8 PROPERTIES
    PASS_REGULAR_EXPRESSION "second [0-9.]+ s \\(routes R R\\)")
  set_tests_properties(sim_dispatch_links_room_8x8 PROPERTIES
    PASS_REGULAR_EXPRESSION "second [0-9.]+ s \\(routes R E\\)")
endif()
# A class too short for the links' probe (fewer than 12 panels) makes no trial where the
# grid spans nodes (src/pblas/dispatch.c): across the paper's Gigabit Ethernet pdgemm's
# trial of order 256 ran at 0.72 of the opening call.  On one node it still takes it.
hpd_add_sim_test(sim_dispatch_short_hold_8x8 RANKS 64 MODE timing PLATFORM paper-ethernet
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_pdgemm -n 256 -b 64 -p 8 -q 8 -r 0 --first-calls hpd)
hpd_add_sim_test(sim_dispatch_short_trial_one_node_4x4 RANKS 16 MODE timing
                 PLATFORM paper-infiniband ENV HPD_DISPATCH=auto
                 COMMAND bench_level3 --routine pdtrsm --side L --uplo L --diag U -n 512 -b 64
                         -p 4 -q 4 -r 0 --first-calls hpd)
if(TEST sim_dispatch_short_hold_8x8)
  set_tests_properties(sim_dispatch_short_hold_8x8 PROPERTIES
    PASS_REGULAR_EXPRESSION "second [0-9.]+ s \\(routes R R\\)")
  set_tests_properties(sim_dispatch_short_trial_one_node_4x4 PROPERTIES
    PASS_REGULAR_EXPRESSION "second [0-9.]+ s \\(routes R E\\)")
endif()
# A 2-D class of pdtrsm takes its trial at once, solved block by block
# (src/level3/trsm_grid.c), with TRANSA 'T' too, its sub(A) first dealt anew
# (src/level3/deal.c): of order 2048 on this platform's 4x4, 0.102 s against the opening
# call's 0.182 s; and so do pdtrmm's and pdsymm's, served as multiplies of their triangles
# made whole (src/level3/whole.c): 0.084 s against 0.099 s (pdtrmm), 0.184 against 0.212
# s (pdsymm).
hpd_add_sim_test(sim_dispatch_trsm_dealt_4x4 RANKS 16 MODE timing PLATFORM paper-infiniband
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_level3 --routine pdtrsm --side L --uplo L --trans T --diag U
                         -n 2048 -b 64 -p 4 -q 4 -r 0 --first-calls hpd)
hpd_add_sim_test(sim_dispatch_trsm_grid_4x4 RANKS 16 MODE timing PLATFORM paper-infiniband
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_level3 --routine pdtrsm --side L --uplo L --diag U -n 2048 -b 64
                         -p 4 -q 4 -r 0 --first-calls hpd)
# Its trial is held as pdgemm's is where the links' floor is close to the opening call:
# across the paper's Gigabit Ethernet, 8x8 at order 1024, a trial lost 0.99 of it.
hpd_add_sim_test(sim_dispatch_trsm_links_hold_8x8 RANKS 64 MODE timing PLATFORM paper-ethernet
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_level3 --routine pdtrsm --side L --uplo U -n 1024 -b 64 -p 8
                         -q 8 -r 0 --first-calls hpd)
# Across nodes a class of few right-hand sides waits on the reference: the block solve
# moves sub(A)'s panels however narrow sub(B) is, where PBLAS moves sub(B) alone (8x8 at
# order 4096, 8 right-hand sides: the trial took 0.0258 s against 0.0042).
hpd_add_sim_test(sim_dispatch_trsm_narrow_hold_8x8 RANKS 64 MODE timing
                 PLATFORM paper-infiniband ENV HPD_DISPATCH=auto
                 COMMAND bench_level3 --routine pdtrsm --side L --uplo L -m 4096 -n 8 -b 64
                         -p 8 -q 8 -r 0 --first-calls hpd)
hpd_add_sim_test(sim_dispatch_trmm_whole_4x4 RANKS 16 MODE timing PLATFORM paper-infiniband
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_level3 --routine pdtrmm --side L --uplo U -n 2048 -b 64 -p 4
                         -q 4 -r 0 --first-calls hpd)
hpd_add_sim_test(sim_dispatch_symm_whole_4x4 RANKS 16 MODE timing PLATFORM paper-infiniband
                 ENV HPD_DISPATCH=auto
                 COMMAND bench_level3 --routine pdsymm --side L --uplo L -n 2048 -b 64 -p 4
                         -q 4 -r 0 --first-calls hpd)
if(TEST sim_dispatch_trsm_dealt_4x4)
  set_tests_properties(sim_dispatch_trsm_links_hold_8x8 sim_dispatch_trsm_narrow_hold_8x8
                       PROPERTIES PASS_REGULAR_EXPRESSION "second [0-9.]+ s \\(routes R R\\)")
  set_tests_properties(sim_dispatch_trsm_dealt_4x4 sim_dispatch_trsm_grid_4x4
                       sim_dispatch_trmm_whole_4x4
                       sim_dispatch_symm_whole_4x4 PROPERTIES
    PASS_REGULAR_EXPRESSION "second [0-9.]+ s \\(routes R E\\)")
endif()
# The same trial times no broadcast down a whole line: the links' probe, the one tuning
# cost of the first calls, gives every line its stream rate (src/bcast/tune.h,
# hpd_tune_probe).  Each line's probe had cost the trial a broadcast down it, every line
# at once (three tuning costs in all).
hpd_add_sim_test(sim_dispatch_trial_stream_rates_8x8 RANKS 64 MODE timing
                 PLATFORM custom --hosts 2 --cores 32 --nic 1gbit --latency 1us
                          --network fattree --transport rdma
                 ENV HPD_DISPATCH=auto HPD_REPORT=summary
                 COMMAND bench_pdgemm -n 2048 -b 64 -p 8 -q 8 -r 0 --first-calls hpd)
if(TEST sim_dispatch_trial_stream_rates_8x8)
  set_tests_properties(sim_dispatch_trial_stream_rates_8x8 PROPERTIES
    PASS_REGULAR_EXPRESSION
      "second [0-9.]+ s \\(routes R E\\).*own costs \\(rank 0\\):[^\n]* tuning [0-9.]+ s \\(1\\)")
endif()
# A 2-D factorization's level-3 calls move one panel each: none probes its links' rate
# (src/pblas/dispatch.c, PROBE_PANELS), so the report's tuning costs are none.
hpd_add_sim_test(sim_factor_no_probes_4x4 RANKS 16 MODE timing PLATFORM paper-infiniband
                 ENV HPD_DISPATCH=auto HPD_REPORT=summary
                 COMMAND bench_factor -f chol -u L -n 1024 -b 64 -p 4 -q 4 -r 1
                         --first-calls hpd)
if(TEST sim_factor_no_probes_4x4)
  set_tests_properties(sim_factor_no_probes_4x4 PROPERTIES
    PASS_REGULAR_EXPRESSION "own costs \\(rank 0\\):[^\n]* tuning 0\\.0000 s \\(0\\)")
endif()
# The auto strategy across hosts takes overlap where its hidden panels go down a binomial
# tree (src/pdgemm/engine.c, the crawl check): on 1x8 hosts at 100 Mbit/s a panel of
# order 1024 takes 3 levels against a group's one strip, each rank passing it on to one
# child after another, and overlap's calls (0.130 s) beat daemon's (0.142 s).  Sent to all
# children at once, such a tree crawled (overlap's first call 0.46 s, daemon's calls
# 0.14 s), and auto took daemon.  The report is rank 0's alone: the simulated MPI reads
# finalized when it is due, and every rank once wrote one.
hpd_add_sim_test(sim_auto_tree_overlap_1x8 RANKS 8 MODE timing
                 PLATFORM custom --hosts 8 --cores 1 --nic 100Mbps ENV HPD_REPORT=summary
                 COMMAND bench_pdgemm -n 1024 -b 64 -p 1 -q 8 -r 1)
if(TEST sim_auto_tree_overlap_1x8)
  set_tests_properties(sim_auto_tree_overlap_1x8 PROPERTIES
    PASS_REGULAR_EXPRESSION "auto: [1-9][0-9]* calls, [1-9][0-9]* overlap, 0 daemon"
    FAIL_REGULAR_EXPRESSION "report \\(rank.*report \\(rank")
endif()
hpd_add_sim_test(sim_timing_energy_driver_2x8 RANKS 16 MODE timing
                 PLATFORM custom --hosts 2 --cores 8 --pstates 0.8,1.3,1.8,2.5
                 COMMAND energy_driver -n 512 -b 32 -p 2 -q 8 --no-table3)
# Cholesky's pivots in the timing mode: each rank's share of a matrix (8 MiB) is larger
# than the block the simulator folds large allocations onto, so a pivot read through
# folded memory would hold another entry and stop the factorization early
# (testing/energy_driver_data.c).
hpd_add_sim_test(sim_timing_energy_driver_folded_2x2 RANKS 4 MODE timing
                 PLATFORM custom --hosts 2 --cores 2
                 COMMAND energy_driver -s none -n 2048 -b 64 -p 2 -q 2 --no-table3)
if(TEST sim_timing_energy_driver_folded_2x2)
  set_tests_properties(sim_timing_energy_driver_folded_2x2 PROPERTIES
    FAIL_REGULAR_EXPRESSION "stopped early")
endif()

# The broadcasts on simulated ranks, where a communicator posts a few per rank at a time
# (src/bcast/bcast.h): every algorithm, any root, many in flight, and more than may be
# posted at once, which wait their turn (testing/test_bcast.c; its tuning part times real
# broadcasts against each other, which the simulator does not).
hpd_add_sim_program(test_bcast ${hpd_testing}/test_bcast.c)
hpd_add_sim_test(sim_bcast_np4 RANKS 4 PLATFORM custom --hosts 2 --cores 2
                 COMMAND test_bcast --quick --no-tuning --wait sleep)
