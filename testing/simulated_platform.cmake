# The simulated platforms' generator (simulated/platform.py), which needs no simulator:
# each platform's transport and what it tells the simulator, and its memory rates.
add_test(NAME simulated_platform COMMAND python3 ${PROJECT_SOURCE_DIR}/simulated/test_platform.py)
set_tests_properties(simulated_platform PROPERTIES LABELS quick TIMEOUT 60
  PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed")
