#pragma once
// `mcpfuzz check --targets FILE`: the checklist over many servers, in parallel and politely
// (a request budget and spacing per host), written as one combined report.

#include <ostream>

#include "cli/options.h"
#include "reports/report.h"

namespace mcpfuzz::cli {

/// The exit code of a survey from its report (a merged one too: `mcpfuzz merge`): 2 when it
/// has targets and none could be reached (said on `err`), 1 when some target FAILs, 0
/// otherwise. A survey a signal `stopped` is reported as stopped (cli/run.cc), never as
/// unreachable.
int SurveyExitCode(const reports::Report& report, bool stopped, std::ostream& err);

/// Returns 0 (no FAIL anywhere), 1 (a FAIL on some target) or 2 (the file could not be read,
/// no target could be reached, or a report could not be written). `self_executable` starts
/// built-in servers, as for one target.
int RunSurvey(const CheckSettings& settings, const TargetSpec& defaults,
              const std::string& self_executable, std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
