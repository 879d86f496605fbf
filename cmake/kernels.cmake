# kernels.cmake: regenerate ptxpress's own FMHA PTX with nvcc.
#
# The committed corpus/*.ptx lets the tool and its tests run without
# nvcc; this target rebuilds the same files, and their launch
# descriptions, under the build directory (never into git):
#   cmake --build build --target corpus-ptx   ->  build/corpus/*.ptx
# It is not part of ALL: nvcc takes tens of seconds and CI has none.

find_program(PTXPRESS_NVCC nvcc HINTS /usr/local/cuda/bin ENV CUDA_PATH
  PATH_SUFFIXES bin)

if(PTXPRESS_NVCC)
  set(_kdir ${CMAKE_CURRENT_SOURCE_DIR}/corpus/kernels)
  set(_kout ${CMAKE_CURRENT_BINARY_DIR}/corpus)
  add_custom_command(
    OUTPUT ${_kout}/fmha_sm90a.ptx ${_kout}/fmha_sm100a.ptx
    COMMAND ${CMAKE_COMMAND} -E env NVCC=${PTXPRESS_NVCC}
      ${CMAKE_CURRENT_SOURCE_DIR}/tools/gen-corpus.sh ${_kout}
    DEPENDS ${_kdir}/fmha_sm90a.cu ${_kdir}/fmha_sm100a.cu
      ${CMAKE_CURRENT_SOURCE_DIR}/tools/gen-corpus.sh
    COMMENT "nvcc: regenerating the FMHA corpus PTX in ${_kout}"
    VERBATIM)
  add_custom_target(corpus-ptx
    DEPENDS ${_kout}/fmha_sm90a.ptx ${_kout}/fmha_sm100a.ptx)
else()
  message(STATUS "nvcc not found: target corpus-ptx not available")
endif()
