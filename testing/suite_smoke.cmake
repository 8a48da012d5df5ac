# The timing suite in one command (timing/run_suite.sh --quick): every CSV file and plot it
# promises is written and not empty.  Its numbers are not judged -- they depend on what
# else the machine runs, which is why timing/ registers no tests -- only that the command
# a reader is told to run works from end to end.
#
# This file is also the test itself: run by `cmake -P`, it runs the suite and checks.
if(CMAKE_SCRIPT_MODE_FILE)
  file(REMOVE_RECURSE ${OUT})
  execute_process(COMMAND bash ${SUITE} --quick -B ${BUILD} -o ${OUT} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "suite_smoke: timing/run_suite.sh --quick exited with ${status}")
  endif()
  set(expected bcast.csv dvfs-switches.csv dvfs-pdgemm.csv energy.csv table3.csv dgemm.csv
      pdgemm.csv fig4-broadcast.png fig5-dvfs-overhead.png fig6-energy-time.png
      table3-memory.png pdgemm-scaling.png calls.csv drivers.csv calls.png)
  # LU and Cholesky are measured only where their benchmark is built.
  if(EXISTS ${BUILD}/timing/bench_factor)
    list(APPEND expected factor.csv)
  endif()
  set(bad "")
  foreach(name IN LISTS expected)
    set(size 0)
    if(EXISTS ${OUT}/${name})
      file(SIZE ${OUT}/${name} size)
    endif()
    if(size EQUAL 0)
      list(APPEND bad ${name})
    endif()
  endforeach()
  if(bad)
    message(FATAL_ERROR "suite_smoke: missing or empty in ${OUT}: ${bad}")
  endif()
  list(LENGTH expected count)
  message(STATUS "suite_smoke: all ${count} files written in ${OUT}")
  return()
endif()

# The plots need gnuplot, which scripts/setup installs; without it the suite stops at once.
find_program(HPD_GNUPLOT gnuplot)
if(HPD_GNUPLOT)
  add_test(NAME suite_smoke
           COMMAND ${CMAKE_COMMAND} -DSUITE=${PROJECT_SOURCE_DIR}/timing/run_suite.sh
                   -DBUILD=${PROJECT_BINARY_DIR} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/suite_smoke
                   -P ${CMAKE_CURRENT_LIST_FILE})
  set_tests_properties(suite_smoke PROPERTIES LABELS "quick" TIMEOUT 120 PROCESSORS 2)
else()
  message(STATUS "suite_smoke: no gnuplot, so the timing suite's smoke test is not "
                 "registered (bash scripts/setup installs gnuplot-nox)")
endif()
