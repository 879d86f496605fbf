# ana.cmake: tests of the analyses (CFG, liveness, pressure, roles and
# the setmaxnreg lint): PTX files with their expectations inside.
file(GLOB ANA_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/ana/*.ptx)
add_test(NAME ana COMMAND sh ${CMAKE_SOURCE_DIR}/tests/run.sh
  $<TARGET_FILE:ptxpress> ${ANA_TESTS})
