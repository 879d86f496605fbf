# verify.cmake: `ptxpress verify` pieces that stand alone.
#
# ptxverify runs cmdverify() (src/verify.c) with its own main until the
# ptxpress dispatcher carries `verify`; it is built from the sources,
# not from ptxcore, so that it depends on nothing else in the tree.
# The tests need no GPU: mockcuda stands in for libcuda.so.1 (through
# PTXPRESS_LIBCUDA), tests/verify/*.launch carry their expectations
# (tests/verify/run.sh reads them), reftest checks the float64
# reference and the half/bfloat16 rounding.  verify/gpu runs the real
# driver on a tiny attention and is skipped (77) where there is none.

set(_vsrc ${CMAKE_CURRENT_SOURCE_DIR}/src/verify.c
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cudrv.c)
set(_vdir ${CMAKE_CURRENT_SOURCE_DIR}/tests/verify)

add_executable(ptxverify tools/ptxverify-main.c ${_vsrc})
target_include_directories(ptxverify PRIVATE src)
target_compile_definitions(ptxverify PRIVATE _POSIX_C_SOURCE=200809L)
target_compile_options(ptxverify PRIVATE -Wall -Wextra -Wpedantic)
target_link_libraries(ptxverify PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)

add_library(mockcuda SHARED ${_vdir}/mockcuda.c)
target_link_libraries(mockcuda PRIVATE m)

add_executable(verify-reftest ${_vdir}/reftest.c ${_vsrc})
target_include_directories(verify-reftest PRIVATE src)
target_compile_definitions(verify-reftest PRIVATE _POSIX_C_SOURCE=200809L)
target_compile_options(verify-reftest PRIVATE -Wall -Wextra -Wpedantic)
target_link_libraries(verify-reftest PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)

add_test(NAME verify/reftest COMMAND verify-reftest)

file(GLOB _vtests CONFIGURE_DEPENDS ${_vdir}/*.launch)
foreach(t ${_vtests})
  get_filename_component(_n ${t} NAME_WE)
  add_test(NAME verify/${_n}
    COMMAND sh ${_vdir}/run.sh $<TARGET_FILE:ptxverify>
      $<TARGET_FILE:mockcuda> ${CMAKE_CURRENT_SOURCE_DIR} ${t})
endforeach()

# the shipped descriptions of our kernels must parse
file(GLOB _vcorpus CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/corpus/kernels/*.launch)
foreach(t ${_vcorpus})
  get_filename_component(_n ${t} NAME_WE)
  add_test(NAME verify/corpus/${_n} COMMAND ptxverify --check ${t})
endforeach()

# opt --time on the mock driver (needs the ptxpress executable and ptxas)
add_test(NAME verify/opt-time COMMAND sh ${_vdir}/opttime.sh
  $<TARGET_FILE:ptxpress> $<TARGET_FILE:mockcuda> ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(verify/opt-time PROPERTIES SKIP_RETURN_CODE 77)

add_test(NAME verify/gpu
  COMMAND ptxverify --runs 3 --warmup 1 --ref-rows 16
    ${CMAKE_CURRENT_SOURCE_DIR}/corpus/fmha_sm90a.ptx
    ${CMAKE_CURRENT_SOURCE_DIR}/corpus/fmha_sm90a.ptx
    ${_vdir}/tiny-attn.launch)
set_tests_properties(verify/gpu PROPERTIES SKIP_RETURN_CODE 77)

# the pin pass's shuffle of a value to itself, where lanes diverge and a
# warp is partial: bit-identical to the kernel without it
add_test(NAME verify/gpu-pin
  COMMAND ptxverify --runs 3 --warmup 1
    ${CMAKE_CURRENT_SOURCE_DIR}/tests/opt/pinchk.ptx
    ${CMAKE_CURRENT_SOURCE_DIR}/tests/opt/ok-pin-diverge.ptx
    ${CMAKE_CURRENT_SOURCE_DIR}/tests/opt/pinchk.launch)
set_tests_properties(verify/gpu-pin PROPERTIES SKIP_RETURN_CODE 77)

# A file of tests/opt/ against its rewrite by `opt --no-search -p PIPE`,
# made at test time: the same bits on the GPU (NAME.launch beside it)
function(gpu_rewrite_test test pipe name)
  add_test(NAME ${test}
    COMMAND sh -c "\"$1\" opt --no-search -p ${pipe} \"$3\" -o \"$5\" && \"$2\" --runs 3 --warmup 1 \"$3\" \"$5\" \"$4\""
      sh $<TARGET_FILE:ptxpress> $<TARGET_FILE:ptxverify>
      ${CMAKE_CURRENT_SOURCE_DIR}/tests/opt/${name}.ptx
      ${CMAKE_CURRENT_SOURCE_DIR}/tests/opt/${name}.launch
      ${CMAKE_CURRENT_BINARY_DIR}/${name}.pin.ptx)
  set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

# pin=base's 64-bit pin, rewritten here from its original: the same
# bits where lanes diverge and a warp is partial
gpu_rewrite_test(verify/gpu-pinbase pin=base pinbasechk)

# pin=dup's pins of an mbarrier parity and of mapa's operands in a loop
# of 100 threads a block: the same bits as without them
gpu_rewrite_test(verify/gpu-pindup pin=dup pindupchk)
