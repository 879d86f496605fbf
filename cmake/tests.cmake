# Front-end tests: PTX files with their expectations inside, and the
# corpus round trip (the project's own corpus/, and ../shared/corpus when
# it is there).
set(PX $<TARGET_FILE:ptxpress>)
file(GLOB FRONT_TESTS CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/tests/front/*.ptx ${CMAKE_SOURCE_DIR}/tests/front/ok/*.ptx)
add_test(NAME front COMMAND sh ${CMAKE_SOURCE_DIR}/tests/run.sh ${PX}
  ${FRONT_TESTS})
add_test(NAME roundtrip.own COMMAND sh ${CMAKE_SOURCE_DIR}/tests/roundtrip.sh
  ${PX} $<TARGET_FILE:cubincmp> ${CMAKE_SOURCE_DIR}/corpus
  ${CMAKE_SOURCE_DIR}/tests/front/ok)
add_test(NAME roundtrip.shared
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/roundtrip.sh
  ${PX} $<TARGET_FILE:cubincmp> ${CMAKE_SOURCE_DIR}/../shared/corpus)
set_tests_properties(roundtrip.own roundtrip.shared PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 1800)

# The scanner's fast path builds the IR the grammar builds (fastpath.c).
add_executable(fastpath tests/front/fastpath.c)
target_link_libraries(fastpath PRIVATE ptxcore)
add_test(NAME fastpath.own COMMAND fastpath ${CMAKE_SOURCE_DIR}/corpus
  ${CMAKE_SOURCE_DIR}/tests/front ${CMAKE_SOURCE_DIR}/tests/opt
  ${CMAKE_SOURCE_DIR}/tests/malformed ${CMAKE_SOURCE_DIR}/tests/ana)
add_test(NAME fastpath.shared COMMAND fastpath
  ${CMAKE_SOURCE_DIR}/../shared/corpus)
# ... and each test file read with one ';' dropped at a time (-d): the
# two agree on validity, the IR and the first error's place.
add_test(NAME fastpath.drop COMMAND fastpath -d ${CMAKE_SOURCE_DIR}/corpus
  ${CMAKE_SOURCE_DIR}/tests/front ${CMAKE_SOURCE_DIR}/tests/opt
  ${CMAKE_SOURCE_DIR}/tests/malformed ${CMAKE_SOURCE_DIR}/tests/ana)
set_tests_properties(fastpath.own fastpath.shared fastpath.drop PROPERTIES
  SKIP_RETURN_CODE 77)

# The arena's spare chunks (arena.c): reused after a reset, poisoned
# under ASan while they wait.
add_executable(arenatest tests/front/arena.c)
target_link_libraries(arenatest PRIVATE ptxcore)
add_test(NAME arena COMMAND arenatest)

# ptxpress needs no libm (verify binds its three functions at run time):
# linked, it cost every command 300 KB and 0.1 ms, a tenth of the 10x
# memory bound on a 1 MB input.  Skipped where readelf is missing.
add_test(NAME nolibm COMMAND sh -c "command -v readelf >/dev/null || exit 77; \
  readelf -d \"$1\" | grep NEEDED | grep -q libc && \
  ! readelf -d \"$1\" | grep NEEDED | grep libm" sh $<TARGET_FILE:ptxpress>)
set_tests_properties(nolibm PROPERTIES SKIP_RETURN_CODE 77)

# The validator against swaps of dependent neighbours in real PTX (vmut.c).
# The opt fuzzers' oracle over the test kernels with whole lines moved
# about (linemut.c), seeded: the same runs each time.
add_executable(linemut tests/opt/linemut.c)
target_link_libraries(linemut PRIVATE ptxcore)
target_include_directories(linemut PRIVATE ${CMAKE_SOURCE_DIR}/tools/fuzz)
target_compile_options(linemut PRIVATE -Wall -Wextra -Wpedantic)
file(GLOB LINEMUT_SEEDS ${CMAKE_SOURCE_DIR}/tests/opt/*.ptx)
add_test(NAME linemut COMMAND linemut -n 20000 -s 1 ${LINEMUT_SEEDS})

add_executable(vmut tests/opt/vmut.c)
target_link_libraries(vmut PRIVATE ptxcore)
target_compile_options(vmut PRIVATE -Wall -Wextra -Wpedantic)
add_test(NAME vmut.own COMMAND vmut ${CMAKE_SOURCE_DIR}/corpus
  ${CMAKE_SOURCE_DIR}/tests/opt)
add_test(NAME vmut.shared COMMAND vmut ${CMAKE_SOURCE_DIR}/../shared/corpus)
set_tests_properties(vmut.own vmut.shared PROPERTIES SKIP_RETURN_CODE 77
  TIMEOUT 1200)

# Rewriting: the validator on planted illegal reorders, the passes on small
# kernels with the expected order inside.
file(GLOB OPT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/opt/*.ptx)
add_test(NAME opt COMMAND sh ${CMAKE_SOURCE_DIR}/tests/run.sh ${PX} ${OPT_TESTS})
add_test(NAME optcorpus.own COMMAND sh ${CMAKE_SOURCE_DIR}/tests/optcorpus.sh
  ${PX} $<TARGET_FILE:ptxasv> ${CMAKE_SOURCE_DIR}/corpus)
add_test(NAME optcorpus.shared
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/optcorpus.sh
  ${PX} $<TARGET_FILE:ptxasv> ${CMAKE_SOURCE_DIR}/../shared/corpus)
set_tests_properties(optcorpus.own optcorpus.shared PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 2400)
add_test(NAME snapcheck COMMAND sh ${CMAKE_SOURCE_DIR}/tests/snapcheck.sh
  ${PX} ${CMAKE_SOURCE_DIR}/tests/opt ${CMAKE_SOURCE_DIR}/tests/ana
  ${CMAKE_SOURCE_DIR}/corpus)
set_tests_properties(snapcheck PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
add_test(NAME optdet COMMAND sh ${CMAKE_SOURCE_DIR}/tests/optdet.sh
  ${PX} ${CMAKE_SOURCE_DIR}/corpus/fmha_sm90a.ptx fmha_fwd_bf16_d256_m64_n128)
set_tests_properties(optdet PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
add_test(NAME optsweep COMMAND sh ${CMAKE_SOURCE_DIR}/tests/optsweep.sh
  ${PX} ${CMAKE_SOURCE_DIR}/corpus ${CMAKE_SOURCE_DIR}/tests/front/ok
  ${CMAKE_SOURCE_DIR}/../shared/corpus)
set_tests_properties(optsweep PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
  ENVIRONMENT PTXASV=$<TARGET_FILE:ptxasv>)
# ptxas's wgmma serialization in the report, --unserialized, and
# PTXPRESS_UNSERIALIZED through the drop-in (Triton's d128_n128).
add_test(NAME optserial COMMAND sh ${CMAKE_SOURCE_DIR}/tests/optserial.sh
  ${PX} $<TARGET_FILE:ptxpress-ptxas> ${CMAKE_SOURCE_DIR})
set_tests_properties(optserial PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
# --sass-guard with a stand-in nvdisasm, in opt and through the drop-in.
add_test(NAME optguard COMMAND sh ${CMAKE_SOURCE_DIR}/tests/optguard.sh
  ${PX} $<TARGET_FILE:ptxpress-ptxas> ${CMAKE_SOURCE_DIR})
set_tests_properties(optguard PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
# tests/NAME.sh PTXPRESS TOPDIR, which exits 77 where it cannot run
# (no ptxas), within TIMEOUT seconds.
function(script_test name timeout)
  add_test(NAME ${name} COMMAND sh ${CMAKE_SOURCE_DIR}/tests/${name}.sh
    ${PX} ${CMAKE_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77
    TIMEOUT ${timeout})
endfunction()
# What each instruction form writes and reads, held to the validator:
# 105 swaps that change what a kernel computes, all refused, and
# controls that change nothing, all proven.
script_test(defuse 300)
# Memory order, held to the validator: 42 swaps of accesses that may
# meet or of ordering statements, all refused; 3 that cannot, proven.
script_test(memorder 300)
# check's register types held to ptxas: no line refused that it takes.
script_test(typeprobe 300)
# pressure's SASS peak from a stand-in nvdisasm -plr listing.
script_test(sasspeak 120)
# pin=loop in the search: only with --sass-guard, and only where its
# SASS loops hold no more work than the pick's it extends.
script_test(optpinloop 600)
# LLVM's NVPTX back end, fresh from this machine's clang (tools/gen-llvm.sh).
add_test(NAME llvm COMMAND sh ${CMAKE_SOURCE_DIR}/tests/llvm.sh ${PX}
  $<TARGET_FILE:cubincmp> $<TARGET_FILE:ptxasv> ${CMAKE_SOURCE_DIR})
set_tests_properties(llvm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
# CUDA 11.7-12.9's compiler (NVRTC wheels from PyPI, cached).
add_test(NAME nvrtc COMMAND sh ${CMAKE_SOURCE_DIR}/tests/nvrtc.sh ${PX}
  $<TARGET_FILE:cubincmp> $<TARGET_FILE:ptxasv> $<TARGET_FILE:nvrtcc>
  ${CMAKE_SOURCE_DIR})
set_tests_properties(nvrtc PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
# CUTLASS's C++ FMHA kernels (nvidia-cutlass wheel from PyPI, nvcc; cached).
add_test(NAME cutlass COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cutlass.sh ${PX}
  $<TARGET_FILE:cubincmp> $<TARGET_FILE:ptxasv> ${CMAKE_SOURCE_DIR})
set_tests_properties(cutlass PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1500)
# LLVM 15, 20 and 22's NVPTX back ends (llvmlite wheels from PyPI, cached).
add_test(NAME llvmlite COMMAND sh ${CMAKE_SOURCE_DIR}/tests/llvmlite.sh ${PX}
  $<TARGET_FILE:cubincmp> $<TARGET_FILE:ptxasv> ${CMAKE_SOURCE_DIR})
set_tests_properties(llvmlite PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
script_test(optvariants 300)
# The refining round: perturbations of a still-spilling kernel's pick.
script_test(optrefine 300)
# tools/wheel.sh into a cache folder that exists already (gen-cutlass.sh).
add_test(NAME wheel COMMAND sh ${CMAKE_SOURCE_DIR}/tests/wheel.sh
  ${CMAKE_SOURCE_DIR})
set_tests_properties(wheel PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
# The refining round's seeds: a pick's own, wherever it stands.
script_test(optseed 300)
# The refining round's pin=dup:K variants, K up to the file's loops.
script_test(optdup 300)
# A pick the validator refuses gives way to the next variant, not the input.
script_test(optfallback 300)
# The variants share the input's parse; a write into it is caught.
script_test(optshare 300)
# The budget round: ptxas judges setmaxnreg counts; what it takes fits.
script_test(optbudround 300)
# Its pairs, one count up and one down, where no count alone helps.
script_test(optbudpairs 300)
# And from the runner-up, where the pick's counts cannot help.
script_test(optbudrunner 300)
# Forced pipelines on our kernels must assemble (the H200's finding).
add_test(NAME optforced COMMAND sh ${CMAKE_SOURCE_DIR}/tests/optforced.sh
  ${PX} $<TARGET_FILE:ptxasv> ${CMAKE_SOURCE_DIR})
set_tests_properties(optforced PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
