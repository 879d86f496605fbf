# ptxpressCuda.cmake: ptxpress_cuda_target(), which puts ptxpress between
# PTX generation and ptxas for one target's CUDA sources.
#
#   ptxpress_cuda_target(<target> [PIPELINE <p>] [LOG <file>] [STRICT])
#
# nvcc takes no ptxas path, but it runs the ptxas in the folder it was
# started from (nvcc.profile: PATH += $(_HERE_)).  So we make a shadow
# of CUDA's bin folder in the build tree: links to every tool, a
# ptxas that is ptxpress-ptxas, and an nvcc.profile whose TOP points
# back at the real toolkit.  The target's CUDA_COMPILER_LAUNCHER then
# starts nvcc from there.  Any launcher already set (ccache, sccache)
# keeps its place after ours.  With clang as the CUDA compiler,
# --ptxas-path does the same directly.
cmake_minimum_required(VERSION 3.19)

# The shadow bin folder for the CUDA compiler in use; made once.
function(_ptxpress_shadow out)
  file(REAL_PATH "${CMAKE_CUDA_COMPILER}" nvcc)
  get_filename_component(bin "${nvcc}" DIRECTORY)
  # the compiler may be a wrapper script elsewhere (/usr/local/bin/nvcc
  # that execs the toolkit's); CMake learnt the toolkit from nvcc -v
  if(NOT EXISTS "${bin}/nvcc.profile")
    file(REAL_PATH "${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}/bin" bin)
  endif()
  if(NOT EXISTS "${bin}/nvcc.profile" OR NOT EXISTS "${bin}/ptxas")
    message(FATAL_ERROR "ptxpress_cuda_target: no nvcc.profile and ptxas "
      "beside ${CMAKE_CUDA_COMPILER} or in ${bin}")
  endif()
  set(shadow "${CMAKE_BINARY_DIR}/ptxpress/cuda-bin")
  if(NOT EXISTS "${shadow}/nvcc.profile")
    file(MAKE_DIRECTORY "${shadow}")
    file(GLOB tools "${bin}/*")
    foreach(t ${tools})
      get_filename_component(n "${t}" NAME)
      if(NOT n STREQUAL "ptxas" AND NOT n STREQUAL "nvcc.profile")
        file(CREATE_LINK "${t}" "${shadow}/${n}" SYMBOLIC)
      endif()
    endforeach()
    file(CREATE_LINK "${PTXPRESS_PTXAS_EXECUTABLE}" "${shadow}/ptxas"
      SYMBOLIC)
    file(READ "${bin}/nvcc.profile" prof)
    string(REGEX REPLACE "(^|\n)TOP[ \t]*=[^\n]*" "\\1TOP = ${bin}/.."
      prof "${prof}")
    file(WRITE "${shadow}/nvcc.profile" "${prof}")
  endif()
  set(${out} "${shadow}" PARENT_SCOPE)
  set(_ptxpress_real_ptxas "${bin}/ptxas" PARENT_SCOPE)
endfunction()

function(ptxpress_cuda_target tgt)
  cmake_parse_arguments(PX "STRICT" "PIPELINE;LOG" "" ${ARGN})
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "ptxpress_cuda_target(${tgt}): enable the CUDA "
      "language first (project(... LANGUAGES CUDA))")
  endif()
  set(dir "${CMAKE_BINARY_DIR}/ptxpress")
  set(env "")
  if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
    _ptxpress_shadow(shadow)
    set(from "${CMAKE_CUDA_COMPILER}")
    set(to "${shadow}/nvcc")
    string(APPEND env "PTXPRESS_PTXAS='${_ptxpress_real_ptxas}'\n")
    string(APPEND env "export PTXPRESS_PTXAS\n")
  elseif(CMAKE_CUDA_COMPILER_ID STREQUAL "Clang")
    set(from "")
    set(to "")
    target_compile_options(${tgt} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:--ptxas-path=${PTXPRESS_PTXAS_EXECUTABLE}>")
  else()
    message(FATAL_ERROR "ptxpress_cuda_target(${tgt}): CUDA compiler "
      "${CMAKE_CUDA_COMPILER_ID} is neither nvcc nor clang")
  endif()
  if(DEFINED PX_PIPELINE)
    string(APPEND env "PTXPRESS_PIPELINE='${PX_PIPELINE}'\n")
    string(APPEND env "export PTXPRESS_PIPELINE\n")
  endif()
  if(DEFINED PX_LOG)
    string(APPEND env "PTXPRESS_LOG='${PX_LOG}'\nexport PTXPRESS_LOG\n")
  endif()
  if(PX_STRICT)
    string(APPEND env "PTXPRESS_STRICT=1\nexport PTXPRESS_STRICT\n")
  endif()
  # the compiler argument becomes the shadow nvcc wherever it is
  # (after ccache, say); the rest is passed through untouched
  set(script "${dir}/launch-${tgt}.sh")
  file(WRITE "${script}" "#!/bin/sh
# made by ptxpress_cuda_target(${tgt}): runs the CUDA compiler so that
# its ptxas is ptxpress-ptxas
${env}for a do
	shift
	if [ -n '${from}' ] && [ \"$a\" = '${from}' ]; then a='${to}'; fi
	set -- \"$@\" \"$a\"
done
exec \"$@\"
")
  file(CHMOD "${script}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
    GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  get_target_property(old ${tgt} CUDA_COMPILER_LAUNCHER)
  if(NOT old)
    set(old "${CMAKE_CUDA_COMPILER_LAUNCHER}")
  endif()
  set_property(TARGET ${tgt} PROPERTY CUDA_COMPILER_LAUNCHER
    "${script}" ${old})
endfunction()
