# Buffers that do not fit: N_grp halves with one warning, and the result stays right.
hpd_add_program(test_memory_halving test_memory_halving.c)
hpd_add_mpi_test(memory_halving 2 test_memory_halving)
set_tests_properties(memory_halving PROPERTIES LABELS "quick" TIMEOUT 120
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1")
