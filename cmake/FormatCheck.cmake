# format-check fails when any C++ file differs from .clang-format; format rewrites them.
find_program(CLANG_FORMAT NAMES clang-format-14 clang-format)
if(CLANG_FORMAT)
  file(GLOB_RECURSE _mcpfuzz_format_files CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/model/*.[ch]*
    ${PROJECT_SOURCE_DIR}/transport/*.[ch]*
    ${PROJECT_SOURCE_DIR}/refserver/*.[ch]*
    ${PROJECT_SOURCE_DIR}/cli/*.[ch]*
    ${PROJECT_SOURCE_DIR}/oracles/*.[ch]*
    ${PROJECT_SOURCE_DIR}/generators/*.[ch]*
    ${PROJECT_SOURCE_DIR}/fuzz-targets/*.[ch]*
    ${PROJECT_SOURCE_DIR}/reports/*.[ch]*
    ${PROJECT_SOURCE_DIR}/tests/*.[ch]*)
  list(FILTER _mcpfuzz_format_files EXCLUDE REGEX "/node_modules/|CMakeLists.txt|\\.json$|\\.js$|\\.mjs$")
  add_custom_target(format-check
    COMMAND ${CLANG_FORMAT} --dry-run --Werror ${_mcpfuzz_format_files}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "Checking C++ formatting against .clang-format")
  add_custom_target(format
    COMMAND ${CLANG_FORMAT} -i ${_mcpfuzz_format_files}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
