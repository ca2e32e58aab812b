#pragma once
// `mcpfuzz check`: the checklist against one target, the terminal report, the JSON report and
// the baseline comparison.

#include <ostream>

#include "cli/options.h"
#include "cli/target.h"

namespace mcpfuzz::cli {

/// Prints every check id with its title (`check --list`).
void ListChecks(std::ostream& out);

/// Returns 0 (no FAIL, or with a baseline: nothing new and nothing stale), 1 (a FAIL), or 2
/// (the target could not be reached, or a file could not be read or written).
int RunCheck(const CheckSettings& settings, Target& target, std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
