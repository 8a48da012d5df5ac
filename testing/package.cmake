# Install, then build against the installed tree with find_package and with pkg-config.
add_test(NAME package_find_package_pkgconfig
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_package.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(package_find_package_pkgconfig PROPERTIES LABELS "quick" TIMEOUT 300)
