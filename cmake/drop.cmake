# drop.cmake: where users already work.  ptxpress-ptxas (the drop-in
# ptxas), man pages from the help texts, the CMake package and
# pkg-config file, the nvcc launcher, and their tests.
include(GNUInstallDirs)

add_executable(ptxpress-ptxas tools/ptxpress-ptxas.c)
target_link_libraries(ptxpress-ptxas PRIVATE ptxcore)
target_compile_options(ptxpress-ptxas PRIVATE -Wall -Wextra -Wpedantic)
