# `cmake --install` and `cpack -G DEB`: the two programs, the docs, the JSON schemas of the
# reports and the bash completion generated from the CLI's flag table. scripts/package-test.sh
# builds the .deb, installs it into a scratch root and runs the installed programs.
include(GNUInstallDirs)

# `cmake --install` and cpack install what is built; they do not build every test first.
# scripts/package-test.sh builds the targets installed here.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

install(TARGETS mcpfuzz mcpfuzz-refserver RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES README.md docs/architecture.md docs/report-format.md docs/real-servers.md
  docs/github-action.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES docs/spec/mcp-oracle-tables.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/spec)
install(FILES packaging/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mcpfuzz/schemas
  FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_BINARY_DIR}/cli/completion/mcpfuzz
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
# Debian wants a compressed changelog in every package's doc folder.
set(_mcpfuzz_changelog ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(OUTPUT ${_mcpfuzz_changelog}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/packaging
  COMMAND gzip -9 -n -c ${PROJECT_SOURCE_DIR}/packaging/changelog > ${_mcpfuzz_changelog}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog)
add_custom_target(mcpfuzz-changelog ALL DEPENDS ${_mcpfuzz_changelog})
install(FILES ${_mcpfuzz_changelog} DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mcpfuzz)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "mcpfuzz maintainers <maintainers@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "fuzzing and property testing for MCP servers")
# Debian's extended description: lines under 80 columns.
set(CPACK_PACKAGE_DESCRIPTION
  "mcpfuzz sends Model Context Protocol servers well-formed and deliberately
broken requests over Streamable HTTP or stdio, judges every answer against
the specification's tables, and reports in JSON, JUnit XML, SARIF, Markdown
and HTML. Includes mcpfuzz-refserver, a reference MCP server with fault
switches.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The runtime libraries the binaries link (libcurl4, libboost-json1.81.0, libstdc++6, …), as
# dpkg-shlibdeps reads them from the ELF files: no -dev package.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Debian ships stripped binaries; the debug info stays in the build tree.
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
