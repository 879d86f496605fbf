# ana.cmake: tests of the analyses (CFG, liveness, pressure, roles and
# the setmaxnreg lint): PTX files with their expectations inside.
file(GLOB ANA_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/ana/*.ptx)
add_test(NAME ana COMMAND sh ${CMAKE_SOURCE_DIR}/tests/run.sh
  $<TARGET_FILE:ptxpress> ${ANA_TESTS})

# Dominance from dom.c's tree against the fixed point that defines it,
# on random control flow (domtest.c).
add_executable(domtest tests/ana/domtest.c)
target_link_libraries(domtest PRIVATE ptxcore)
target_compile_options(domtest PRIVATE -Wall -Wextra -Wpedantic)
add_test(NAME domtest COMMAND domtest)
