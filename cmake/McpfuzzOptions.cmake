# Compiler settings shared by every mcpfuzz target.

if(MCPFUZZ_FUZZING AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR
    "MCPFUZZ_FUZZING=ON needs clang: libFuzzer cannot be linked by ${CMAKE_CXX_COMPILER_ID}. "
    "Use the 'fuzz' preset (cmake --preset fuzz), which sets CMAKE_CXX_COMPILER=clang++.")
endif()

add_library(mcpfuzz_warnings INTERFACE)
target_compile_options(mcpfuzz_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Wunused -Woverloaded-virtual -Wconversion -Wsign-conversion -Wnull-dereference
  -Wimplicit-fallthrough -Wformat=2)
if(MCPFUZZ_WERROR)
  target_compile_options(mcpfuzz_warnings INTERFACE -Werror)
endif()

if(MCPFUZZ_SANITIZE)
  list(JOIN MCPFUZZ_SANITIZE "," _sanitizers)
  add_compile_options(-fsanitize=${_sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${_sanitizers})
endif()

# Fuzzing builds: every library gets libFuzzer's coverage and comparison hooks (not its main),
# so the fuzzers see inside the code under test; fuzz-targets/ links the engine into each
# fuzzer only. ClusterFuzzLite passes its own flags in CFLAGS/CXXFLAGS and its engine in
# MCPFUZZ_FUZZING_ENGINE, with MCPFUZZ_FUZZING_INSTRUMENT=OFF.
set(MCPFUZZ_FUZZING_ENGINE "-fsanitize=fuzzer" CACHE STRING "Link flags of the libFuzzer binaries")
option(MCPFUZZ_FUZZING_INSTRUMENT "With MCPFUZZ_FUZZING, add -fsanitize=fuzzer-no-link everywhere" ON)
separate_arguments(MCPFUZZ_FUZZING_ENGINE)
if(MCPFUZZ_FUZZING AND MCPFUZZ_FUZZING_INSTRUMENT)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# mcpfuzz_library(NAME folder SOURCES ... DEPS ...): one CMake library per folder.
# The repository root is the include root, so headers are named by folder:
# #include "model/request.h".
function(mcpfuzz_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE mcpfuzz_warnings ${ARG_PRIVATE_DEPS})
endfunction()
