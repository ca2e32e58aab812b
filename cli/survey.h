#pragma once
// `mcpfuzz check --targets FILE`: the checklist over many servers, in parallel and politely
// (a request budget and spacing per host), written as one combined report.

#include <ostream>

#include "cli/options.h"
#include "reports/report.h"

namespace mcpfuzz::cli {

/// The exit code of a survey from its report (a merged one too: `mcpfuzz merge`), its policy
/// applied: 2 when some target could not be judged (each named on `err` with why: a survey
/// that left a server out is no pass), else 1 when something fails the run (a FAIL; under
/// --fail-on warn a WARN too), 0 otherwise. A survey a signal `stopped` is reported as stopped
/// (cli/run.cc), never as unreachable.
int SurveyExitCode(const reports::Report& report, bool stopped, std::ostream& err);

/// Returns SurveyExitCode's 0, 1 or 2, and 2 when the file could not be read or a report not
/// written. `self_executable` starts built-in servers, as for one target.
int RunSurvey(const CheckSettings& settings, reports::FailOn fail_on, const TargetSpec& defaults,
              const std::string& self_executable, std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
