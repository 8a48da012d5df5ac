# Panels of A at least 1024 rows tall travel column by column, straight from the owner's
# storage, and the owner multiplies from there (src/pdgemm/summa.c).  At N = 1536 on one
# process row the first panels of LU (pdgemm) and of Cholesky's lower triangle (pdsyrk,
# B read from A's panel) take that path and the later ones the packed path; the factors
# are checked as everywhere else.
hpd_factor_driver_test(factor_driver_n1536_nb64_1x2_columns
  --strategies "none" --min-pdsyrk-calls ${HPD_FACTOR_MIN_PDSYRK_CALLS}
  -- -n 1536 -b 64 -p 1 -q 2 -s none)
