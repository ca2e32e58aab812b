#pragma once
// `mcpfuzz send`: request case files sent exactly as written, observations printed as JSON.

#include <ostream>
#include <string>
#include <vector>

#include "cli/target.h"

namespace mcpfuzz::cli {

/// Returns 0 when every case was sent, 2 when a case file could not be read or decoded or
/// the target could not be reached. One JSON object per case goes to `out`.
int RunSend(const std::vector<std::string>& case_files, Target& target, std::ostream& out,
            std::ostream& err);

}  // namespace mcpfuzz::cli
