#pragma once
// `fuzz --coverage-report lcov=PATH`: the server's coverage written as an LCOV tracefile, each
// script's lines read from its own source file.

#include <filesystem>
#include <vector>

#include "coverage/coverage_map.h"
#include "model/result.h"

namespace mcpfuzz::cli {

/// Writes one LCOV record per script that names a local file mcpfuzz can read; returns how
/// many. Scripts whose source cannot be read are left out (the count says so).
Result<std::size_t> WriteLcov(const std::vector<coverage::ScriptCoverage>& scripts,
                              const std::filesystem::path& path);

}  // namespace mcpfuzz::cli
