# Install, then build against the installed tree with find_package and with pkg-config.
# HPD_PACKAGE_WITH names other builds (the other flavour's, scripts/build sets it) that
# the test installs into the same prefix, so that both flavours are tested side by side.
set(HPD_PACKAGE_WITH "" CACHE STRING "other build folders the package test installs too")
add_test(NAME package_find_package_pkgconfig
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_package.sh ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR} ${HPD_PACKAGE_WITH})
# Both install tests write the build's install manifest: one at a time.
set_tests_properties(package_find_package_pkgconfig PROPERTIES LABELS "quick" TIMEOUT 300
                     RESOURCE_LOCK install_manifest)
