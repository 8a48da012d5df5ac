# Frequency switching seen from whole jobs (testing/dvfs_job.c): the strategies' switch
# counts, the order of the frequencies, restoration of the cpufreq tree on every way out,
# refused writes, shared domains and bad frequencies.  The sysfs cases run on fake trees
# (testing/fake_cpufreq.sh) through HPD_SYSFS_ROOT, with each rank bound to one CPU.
hpd_add_program(dvfs_job dvfs_job.c)

set(HPD_DVFS_ENV "OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1")

# hpd_dvfs_job_test(NAME NPROCS ENV ARGS...): dvfs_job straight under mpiexec.
function(hpd_dvfs_job_test name nprocs env)
  hpd_add_mpi_test(${name} ${nprocs} dvfs_job ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "dvfs" TIMEOUT 60 PROCESSORS ${nprocs}
    ENVIRONMENT "${HPD_DVFS_ENV};${env}"
    PASS_REGULAR_EXPRESSION "dvfs_job: [0-9]+ calls, 0 failures")
endfunction()

# hpd_dvfs_script_test(NAME SCRIPT ARGS...): a scenario of testing/test_dvfs_SCRIPT.sh.
function(hpd_dvfs_script_test name script)
  add_test(NAME ${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_dvfs_${script}.sh
                   --job $<TARGET_FILE:dvfs_job> --mpiexec ${HPD_MPIEXEC} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "dvfs" TIMEOUT 120 PROCESSORS 2
    ENVIRONMENT "${HPD_DVFS_ENV}" SKIP_RETURN_CODE 77)
endfunction()

# The identities under sim, on a one-row and a one-column grid: every strategy (overlap
# switches nothing, as none; auto runs daemon or overlap per call) with N_grp
# dividing the 8 panels, not dividing them, and above them (clamped), and the record of
# every switch checked call by call, with an emulated latency.  These are the paper's
# exact counts: HPD_SWITCH_MIN_MS=0 switches around every group, and --expect-held never
# checks that nothing was held back.
foreach(grid "1;2" "2;1")
  list(GET grid 0 p)
  list(GET grid 1 q)
  hpd_dvfs_job_test(dvfs_identities_sim_${p}x${q} 2
    "HPD_DVFS=sim;HPD_SIM_SWITCH_US=50;HPD_SWITCH_MIN_MS=0"
    -n 256 -b 32 -p ${p} -q ${q} --calls 25 --ngrp 1,2,3,4,16
    --strategy basic,daemon,none,overlap,auto --trace --expect-backend sim --expect-applied 1
    --expect-held never)
endforeach()
# No backend: switches are counted by phase all the same.  One rank: nothing travels.
hpd_dvfs_job_test(dvfs_identities_none_1x2 2 "HPD_DVFS=none;HPD_SWITCH_MIN_MS=0"
  -n 256 -b 32 -p 1 -q 2 --calls 6 --ngrp 3,4 --strategy basic,daemon,none
  --expect-backend none --expect-applied 0 --expect-held never)
hpd_dvfs_job_test(dvfs_identities_sim_1x1 1 "HPD_DVFS=sim;HPD_SWITCH_MIN_MS=0"
  -n 256 -b 32 -p 1 -q 1 --calls 3 --ngrp 2 --strategy basic,daemon,none --trace
  --expect-held never)

# The switch rule (HPD_SWITCH_MIN_MS) acting.  The strategies run daemon first, so that
# the job's first call has no broadcast rate to predict from, then basic, daemon again
# and none; the sim record is checked call by call.
set(HPD_RULE_ARGS -n 256 -b 32 --calls 20 --ngrp 1,2,3,4,16
  --strategy daemon,basic,daemon,none --trace --expect-backend sim)
# A minimum no group reaches: daemon switches around the first group of the first call
# only and holds every other group's two requests; basic still switches around every
# panel.
foreach(grid "1;2" "2;1")
  list(GET grid 0 p)
  list(GET grid 1 q)
  hpd_dvfs_job_test(dvfs_rule_min_1e6_${p}x${q} 2 "HPD_DVFS=sim;HPD_SWITCH_MIN_MS=1000000"
    -p ${p} -q ${q} ${HPD_RULE_ARGS} --expect-held all-but-first)
endforeach()
# auto, the power model's break-even.  With the built-in model, what is held depends on
# how fast this machine broadcasts: only the identities are checked.  Two model files
# make it certain: levels that draw the same power save nothing, so no group can pay for
# its switches; switches that cost nothing always pay, as in the paper.
hpd_dvfs_job_test(dvfs_rule_auto_1x2 2 "HPD_DVFS=sim" -p 1 -q 2 ${HPD_RULE_ARGS})
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/no_saving.model
  "# the same power at every level: the low frequency saves nothing\n"
  "level 800000 10 5\nlevel 2500000 10 5\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/free_switch.model
  "# the built-in levels, and switches that cost nothing\n"
  "level 800000 7.03 4.86\nlevel 1300000 9.82 5.55\nlevel 1800000 13.36 6.32\n"
  "level 2500000 18.75 7.28\nswitch_joules 0\n")
hpd_dvfs_job_test(dvfs_rule_auto_no_saving_1x2 2
  "HPD_DVFS=sim;HPD_POWER_MODEL=${CMAKE_CURRENT_BINARY_DIR}/no_saving.model"
  -p 1 -q 2 ${HPD_RULE_ARGS} --expect-held all-but-first)
hpd_dvfs_job_test(dvfs_rule_auto_free_switch_1x2 2
  "HPD_DVFS=sim;HPD_POWER_MODEL=${CMAKE_CURRENT_BINARY_DIR}/free_switch.model"
  -p 1 -q 2 ${HPD_RULE_ARGS} --expect-held never)

# The order of the frequencies written (FIFO log) and recorded (sim), N_grp 1 to 4 under
# every strategy: the default frequencies, ones given in two units, and equal ones.
hpd_dvfs_script_test(dvfs_sequence_1x2 sequence 1x2)
hpd_dvfs_script_test(dvfs_sequence_2x1_units sequence 2x1
  HPD_FREQ_LOW=1300000kHz HPD_FREQ_HIGH=1.8GHz)
hpd_dvfs_script_test(dvfs_sequence_1x2_equal sequence 1x2
  HPD_FREQ_LOW=1.8GHz HPD_FREQ_HIGH=1800MHz)

# Restoration after a normal end and after each way a job can die.
foreach(crash none abort term int segv abrt kill)
  hpd_dvfs_script_test(dvfs_restore_pinned_${crash} restore pinned ${crash})
endforeach()
foreach(crash none abort)
  hpd_dvfs_script_test(dvfs_restore_userspace_${crash} restore userspace ${crash})
endforeach()
foreach(crash none kill)
  hpd_dvfs_script_test(dvfs_restore_set_by_user_${crash} restore set-by-user ${crash})
endforeach()

# Refused writes: a read-only tree from the start, and a write refused mid-job.
hpd_dvfs_script_test(dvfs_refused_pinned refused pinned)
hpd_dvfs_script_test(dvfs_refused_userspace refused userspace)
hpd_dvfs_script_test(dvfs_refused_midrun refused midrun)

# Ranks on one frequency domain, by the tree or for want of binding.
hpd_dvfs_script_test(dvfs_shared_domain shared domain)
hpd_dvfs_script_test(dvfs_shared_unbound shared unbound)

# Frequencies that cannot be had: no unit, and not in the table.
hpd_dvfs_script_test(dvfs_freq_syntax_sim freq sim HPD_FREQ_LOW 2500)
hpd_dvfs_script_test(dvfs_freq_unavailable_sim freq sim HPD_FREQ_HIGH 1.9GHz)
hpd_dvfs_script_test(dvfs_freq_syntax_sysfs freq sysfs HPD_FREQ_HIGH 2500)
hpd_dvfs_script_test(dvfs_freq_unavailable_sysfs freq sysfs HPD_FREQ_LOW 1.9GHz)
