# fuzz.cmake: the libFuzzer targets over the front end and over opt's
# passes with the validator as the oracle (PTXPRESS_FUZZ, clang only),
# and a short run of each as a test.  The test builds the
# fuzzer itself with clang when this build has no fuzz target (a gcc
# build), and skips (77) when there is no clang at all.

set(FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/tools/fuzz)
set(FUZZ_FLAGS -fsanitize=fuzzer-no-link,address,undefined
  -fno-sanitize-recover=all -fno-omit-frame-pointer)

if(PTXPRESS_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PTXPRESS_FUZZ needs clang: "
      "configure with CC=clang")
  endif()
  # the core again, instrumented for coverage
  add_library(ptxfuzzcore STATIC ${CORE_SRC}
    ${BISON_ptxy_OUTPUTS} ${FLEX_ptxl_OUTPUTS})
  target_include_directories(ptxfuzzcore PUBLIC src ${GEN})
  target_compile_definitions(ptxfuzzcore PUBLIC _POSIX_C_SOURCE=200809L
    PTXPRESS_VERSION="${PROJECT_VERSION}" PTXPRESS_DEBUG)
  target_compile_options(ptxfuzzcore PUBLIC ${FUZZ_FLAGS})
  target_link_libraries(ptxfuzzcore PUBLIC m Threads::Threads)
  add_executable(fuzzfront ${FUZZ_DIR}/fuzzfront.c)
  target_link_libraries(fuzzfront PRIVATE ptxfuzzcore)
  target_link_options(fuzzfront PRIVATE
    -fsanitize=fuzzer,address,undefined)
  add_executable(fuzzopt ${FUZZ_DIR}/fuzzopt.c)
  target_link_libraries(fuzzopt PRIVATE ptxfuzzcore)
  target_link_options(fuzzopt PRIVATE
    -fsanitize=fuzzer,address,undefined)
  set(FUZZ_EXE $<TARGET_FILE:fuzzfront>)
  set(FUZZOPT_EXE $<TARGET_FILE:fuzzopt>)
else()
  set(FUZZ_EXE "")
  set(FUZZOPT_EXE "")
endif()

find_program(FUZZ_CLANG NAMES clang clang-18 clang-17 clang-16 clang-15
  clang-14)
# -s: tests/opt among the seeds (small kernels that reach every pass):
# the front end's minute takes them; opt's does not, since with them it
# finds old pass/validator disagreements on mutated test kernels within
# a minute (refused rewrites, bench/RESULTS-trust.md, fo47), which the
# long runs (run.sh -s by hand) are for
add_test(NAME fuzz.short COMMAND sh ${FUZZ_DIR}/run.sh -s
  -t 60 -e "${FUZZ_EXE}" -c "${FUZZ_CLANG}" -g ${GEN}
  -w ${CMAKE_CURRENT_BINARY_DIR}/fuzzwork)
set_tests_properties(fuzz.short PROPERTIES SKIP_RETURN_CODE 77
  TIMEOUT 400 LABELS "fuzz;slow")
add_test(NAME fuzzopt.short COMMAND sh ${FUZZ_DIR}/run.sh -n fuzzopt
  -t 60 -e "${FUZZOPT_EXE}" -c "${FUZZ_CLANG}" -g ${GEN}
  -w ${CMAKE_CURRENT_BINARY_DIR}/fuzzoptwork)
set_tests_properties(fuzzopt.short PROPERTIES SKIP_RETURN_CODE 77
  TIMEOUT 400 LABELS "fuzz;slow")
