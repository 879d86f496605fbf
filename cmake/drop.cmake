# drop.cmake: where users already work.  ptxpress-ptxas (the drop-in
# ptxas), man pages from the help texts, the CMake package and
# pkg-config file, the nvcc launcher, and their tests.
include(GNUInstallDirs)

add_executable(ptxpress-ptxas tools/ptxpress-ptxas.c)
target_link_libraries(ptxpress-ptxas PRIVATE ptxcore)
target_compile_options(ptxpress-ptxas PRIVATE -Wall -Wextra -Wpedantic)

# ---- installing: both programs, man pages, CMake package, pkg-config

install(TARGETS ptxpress-ptxas RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(MANDIR ${CMAKE_CURRENT_BINARY_DIR}/man)
set(H2M ${CMAKE_CURRENT_SOURCE_DIR}/man/help2man.sh)
add_custom_command(OUTPUT ${MANDIR}/ptxpress.1 ${MANDIR}/ptxpress-ptxas.1
  COMMAND ${CMAKE_COMMAND} -E make_directory ${MANDIR}
  COMMAND sh ${H2M} $<TARGET_FILE:ptxpress> ptxpress
    "read PTX, find register pressure, rewrite it, prove it"
    ${PROJECT_VERSION} > ${MANDIR}/ptxpress.1
  COMMAND sh ${H2M} $<TARGET_FILE:ptxpress-ptxas> ptxpress-ptxas
    "a drop-in ptxas that rewrites PTX with ptxpress first"
    ${PROJECT_VERSION} > ${MANDIR}/ptxpress-ptxas.1
  DEPENDS ptxpress ptxpress-ptxas ${H2M}
  COMMENT "man pages from the --help texts" VERBATIM)
add_custom_target(man ALL DEPENDS ${MANDIR}/ptxpress.1
  ${MANDIR}/ptxpress-ptxas.1)
install(FILES ${MANDIR}/ptxpress.1 ${MANDIR}/ptxpress-ptxas.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

include(CMakePackageConfigHelpers)
set(PKGDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ptxpress)
set(PKGSRC ${CMAKE_CURRENT_SOURCE_DIR}/cmake/package)
configure_package_config_file(${PKGSRC}/ptxpressConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ptxpressConfig.cmake
  INSTALL_DESTINATION ${PKGDIR} PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/ptxpressConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ptxpressConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/ptxpressConfigVersion.cmake
  ${PKGSRC}/ptxpressCuda.cmake DESTINATION ${PKGDIR})
configure_file(${PKGSRC}/ptxpress.pc.in ${CMAKE_CURRENT_BINARY_DIR}/ptxpress.pc
  @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ptxpress.pc
  DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)

# ---- tests (exit 77: skipped, when ptxas or nvcc is missing)

add_executable(hashtest tests/drop/hashtest.c)
target_link_libraries(hashtest PRIVATE ptxcore)
target_compile_options(hashtest PRIVATE -Wall -Wextra -Wpedantic)

set(DROP_T ${CMAKE_CURRENT_SOURCE_DIR}/tests/drop)
add_test(NAME drop.hash COMMAND sh ${DROP_T}/hash.sh $<TARGET_FILE:hashtest>)
add_test(NAME drop.wrapper COMMAND sh ${DROP_T}/wrapper.sh
  ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME drop.cache COMMAND sh ${DROP_T}/cache.sh
  ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME drop.dump COMMAND sh ${DROP_T}/dump.sh
  ${CMAKE_CURRENT_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/../shared/corpus)
add_test(NAME drop.example COMMAND sh ${DROP_T}/example.sh
  ${CMAKE_CURRENT_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(drop.hash drop.wrapper drop.cache drop.dump
  drop.example PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
