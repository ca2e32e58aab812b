#pragma once
// What every report says about its run: tool version, target, where reproducers send, start time.

#include <string>

#include "cli/target.h"
#include "reports/report.h"

namespace mcpfuzz::cli {

// MCPFUZZ_VERSION is project()'s version (cli/CMakeLists.txt).
inline constexpr const char* kToolVersion = MCPFUZZ_VERSION;

/// The git commit this binary was built from, as configured ("unknown" outside a checkout).
const char* BuildCommit();

/// Now, UTC, ISO 8601: "2026-11-29T19:40:00Z".
std::string UtcNow();

/// The RunInfo of a run starting now against `target`.
reports::RunInfo StartRunInfo(const Target& target);

}  // namespace mcpfuzz::cli
