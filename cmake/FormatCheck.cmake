# format-check fails when any C++ file differs from .clang-format; format rewrites them.
find_program(CLANG_FORMAT NAMES clang-format-14 clang-format)
if(CLANG_FORMAT)
  # Every C++ file of the project: the code folders are the top-level folders with a
  # CMakeLists.txt (build trees and installed npm packages are not).
  set(_mcpfuzz_format_files "")
  file(GLOB _mcpfuzz_folders LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/*)
  foreach(folder IN LISTS _mcpfuzz_folders)
    if(IS_DIRECTORY ${folder} AND EXISTS ${folder}/CMakeLists.txt)
      file(GLOB_RECURSE _files CONFIGURE_DEPENDS ${folder}/*.cc ${folder}/*.h)
      list(APPEND _mcpfuzz_format_files ${_files})
    endif()
  endforeach()
  list(FILTER _mcpfuzz_format_files EXCLUDE REGEX "/node_modules/|/build/")
  add_custom_target(format-check
    COMMAND ${CLANG_FORMAT} --dry-run --Werror ${_mcpfuzz_format_files}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "Checking C++ formatting against .clang-format")
  add_custom_target(format
    COMMAND ${CLANG_FORMAT} -i ${_mcpfuzz_format_files}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
