# The correctness sweeps on simulated ranks (label "simulated"): the same drivers as
# testing/, on grids and hosts that two cores cannot run natively.
hpd_add_sim_program(pdgemm_check ${PROJECT_SOURCE_DIR}/testing/pdgemm_check.c
                    ${PROJECT_SOURCE_DIR}/testing/check_sweep.c)

hpd_add_sim_test(sim_pdgemm_check_2x2 RANKS 4 PLATFORM custom --hosts 2 --cores 2
                 COMMAND pdgemm_check --quick --grids 2x2)
