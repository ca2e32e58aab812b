# Writes OUT with `#define MCPFUZZ_GIT_COMMIT "<commit>"` for the checkout at SOURCE_DIR
# ("unknown" outside a git checkout), touching it only when the commit changed, so a build
# after a new commit recompiles the one file that includes it and no other.
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --short=12 HEAD
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE result ERROR_QUIET)
if(NOT result EQUAL 0 OR commit STREQUAL "")
  set(commit unknown)
endif()
set(text "#define MCPFUZZ_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
