#pragma once
// What every report says about its run: tool version, target, where reproducers send, start time.

#include "cli/target.h"
#include "reports/check_report.h"

namespace mcpfuzz::cli {

inline constexpr const char* kToolVersion = "0.1.0";

/// The RunInfo of a run starting now against `target`.
reports::RunInfo StartRunInfo(const Target& target);

}  // namespace mcpfuzz::cli
