#pragma once
// The targets file of `mcpfuzz check --targets FILE`: one target per line.
//
//   # comments start with #; blank lines are ignored
//   http://127.0.0.1:3000/mcp
//   stdio: node server.js --stdio
//
// A stdio command is split on spaces and tabs (no quoting). Every target gets the target
// options of the command line (--header, --timeout-ms, --allow-remote, …).

#include <string_view>
#include <vector>

#include "cli/options.h"
#include "model/result.h"

namespace mcpfuzz::cli {

/// The targets in file order, each a copy of `defaults` with its kind, URL or argv set. An
/// error names the line.
Result<std::vector<TargetSpec>> ParseTargetsFile(std::string_view text, const TargetSpec& defaults);

}  // namespace mcpfuzz::cli
