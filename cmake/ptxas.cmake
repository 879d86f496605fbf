# ptxas.cmake: the ptxas tools (cubincmp, ptxasv) and their tests.
# src/ptxas.c and src/elfcmp.c are in ptxcore by the glob.

foreach(t cubincmp ptxasv)
  add_executable(${t} tools/${t}.c)
  target_link_libraries(${t} PRIVATE ptxcore)
  target_compile_options(${t} PRIVATE -Wall -Wextra -Wpedantic)
endforeach()

# nvrtcc: CUDA 11 and 12's compiler from their NVRTC wheels (tests/nvrtc.sh)
add_executable(nvrtcc tools/nvrtcc.c)
target_link_libraries(nvrtcc PRIVATE ${CMAKE_DL_LIBS})
target_compile_options(nvrtcc PRIVATE -Wall -Wextra -Wpedantic)

add_executable(ptxastest tests/ptxas/ptxastest.c)
target_link_libraries(ptxastest PRIVATE ptxcore)
target_compile_options(ptxastest PRIVATE -Wall -Wextra -Wpedantic)

set(PTXAS_T ${CMAKE_CURRENT_SOURCE_DIR}/tests/ptxas)
file(GLOB PTXAS_LOGS CONFIGURE_DEPENDS ${PTXAS_T}/logs/*.log)
add_test(NAME ptxas.parse COMMAND ptxastest parse ${PTXAS_LOGS})
add_test(NAME ptxas.fixup COMMAND ptxastest fixup ${PTXAS_T}/nul93.ptx)
add_test(NAME ptxas.target COMMAND ptxastest target)
set(PTXAS_TMP ${CMAKE_CURRENT_BINARY_DIR}/ptxastmp)
file(MAKE_DIRECTORY ${PTXAS_TMP})
add_test(NAME ptxas.isa COMMAND ptxastest isa ${PTXAS_TMP})
add_test(NAME ptxas.find COMMAND ptxastest find ${PTXAS_TMP})
file(GLOB PTXAS_SASS CONFIGURE_DEPENDS ${PTXAS_T}/sass/*.sass)
add_test(NAME ptxas.sass COMMAND ptxastest sass ${PTXAS_SASS})
add_test(NAME ptxas.cubin
  COMMAND sh ${PTXAS_T}/cubin.sh $<TARGET_FILE_DIR:cubincmp> ${PTXAS_T})
set_tests_properties(ptxas.cubin PROPERTIES SKIP_RETURN_CODE 77)
