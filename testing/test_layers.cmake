# The layering of src/ and the typed kernels (testing/test_layers.py): includes only
# downwards, and no BLAS, LAPACK or PBLAS routine named outside src/kernel/.
add_test(NAME layers COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_layers.py)
set_tests_properties(layers PROPERTIES LABELS "quick;unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "test_layers: [0-9]+ checks, 0 failed")
