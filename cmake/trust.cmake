# trust.cmake: bad input, output safety, determinism and memory checks
# (issue 7).  Everything here is fast except valgrind (label "slow").
set(PX $<TARGET_FILE:ptxpress>)
set(TT ${CMAKE_CURRENT_SOURCE_DIR}/tests)

# Small malformed inputs carry their expectations inside (tests/run.sh).
file(GLOB MALFORMED_TESTS CONFIGURE_DEPENDS ${TT}/malformed/*.ptx
  ${TT}/fuzz/*.ptx)
add_test(NAME malformed.files COMMAND sh ${TT}/run.sh ${PX}
  ${MALFORMED_TESTS})
set_tests_properties(malformed.files PROPERTIES TIMEOUT 120)

# Big, binary and generated malformed inputs, and emit over the files.
add_test(NAME malformed.gen COMMAND sh ${TT}/malformed/gen.sh ${PX}
  ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(malformed.gen PROPERTIES TIMEOUT 600)

# Output safety (temporary + rename, -o the input, stdin/stdout) and
# determinism (two runs, same bytes).
add_test(NAME safety.output COMMAND sh ${TT}/safety/output.sh ${PX}
  ${CMAKE_CURRENT_SOURCE_DIR})
add_test(NAME safety.determinism COMMAND sh ${TT}/safety/determinism.sh
  ${PX} ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(safety.output safety.determinism PROPERTIES
  TIMEOUT 600)

# Memcheck over the largest corpus files; not in the sanitizer build
# (ASan and valgrind do not mix).
if(NOT PTXPRESS_SANITIZE)
  add_test(NAME valgrind COMMAND sh ${TT}/safety/valgrind.sh ${PX}
    ${CMAKE_CURRENT_SOURCE_DIR} 3)
  set_tests_properties(valgrind PROPERTIES SKIP_RETURN_CODE 77
    TIMEOUT 1200 LABELS slow)
endif()

# The in-process speed benchmark (bench/emitbench.c); the test only
# holds it to running and to its lossless check on one of our files.
add_executable(emitbench bench/emitbench.c)
target_link_libraries(emitbench PRIVATE ptxcore)
add_test(NAME bench.emitbench COMMAND emitbench
  ${CMAKE_CURRENT_SOURCE_DIR}/corpus/fmha_sm90a.ptx 3)
set_tests_properties(bench.emitbench PROPERTIES PASS_REGULAR_EXPRESSION
  "fmha_sm90a.ptx: [0-9.]+ MB, first run .* median ")
add_test(NAME bench.emitbench-primed COMMAND emitbench
  ${CMAKE_CURRENT_SOURCE_DIR}/corpus/fmha_sm90a.ptx 3
  ${CMAKE_CURRENT_SOURCE_DIR}/corpus/fmha_sm100a.ptx)
set_tests_properties(bench.emitbench-primed PROPERTIES
  PASS_REGULAR_EXPRESSION
  "fmha_sm90a.ptx: [0-9.]+ MB, first run \\(primed\\) [0-9.]+ ms .* median ")
