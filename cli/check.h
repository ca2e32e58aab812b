#pragma once
// `mcpfuzz check`: the checklist against one target, the terminal report, the JSON report and
// the baseline comparison.

#include <ostream>

#include "checks/checks.h"
#include "cli/options.h"
#include "cli/target.h"
#include "model/result.h"
#include "transport/era_probe.h"

namespace mcpfuzz::cli {

/// The checklist options `settings` ask for. Fails on an --only/--skip name that selects no
/// check: almost always a typo, and the run it leaves out would look clean.
Result<checks::CheckOptions> ToCheckOptions(const CheckSettings& settings);

/// True when every era probe failed in the transport: nothing answered at all.
bool Unreachable(const EraReport& eras);

/// Prints every check id with its title (`check --list`).
void ListChecks(std::ostream& out);

/// Returns 0 (no FAIL, or with a baseline: nothing new and nothing stale), 1 (a FAIL), or 2
/// (the target could not be reached, or a file could not be read or written).
int RunCheck(const CheckSettings& settings, Target& target, std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
