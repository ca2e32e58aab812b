#pragma once
// The report of one `mcpfuzz check` run: the short table the terminal shows, and the JSON
// document (docs/report-format.md), written through the one report model (reports/build.h).
// The terminal writer escapes control characters and escape sequences a server sent.

#include <boost/json/value.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "checks/checks.h"
#include "model/reproducer.h"
#include "reports/baseline.h"
#include "reports/build.h"
#include "reports/report.h"

namespace mcpfuzz::reports {

/// The JSON report's format name and version; the version changes when a member changes
/// meaning or disappears (adding members does not).
inline constexpr std::string_view kCheckReportFormat = "mcpfuzz-check-report";
inline constexpr int kCheckReportVersion = 1;

VerdictCounts Count(const checks::CheckRun& run);

boost::json::value CheckReportToJson(const RunInfo& info, const checks::CheckRun& run,
                                     const BaselineComparison* baseline);

/// The terminal report: the eras, a matrix of checks × revisions, then every FAIL and WARN
/// with expected vs observed, the spec reference and a reproducer, then the counts.
void PrintCheckReport(const RunInfo& info, const checks::CheckRun& run,
                      const BaselineComparison* baseline, std::ostream& out);

}  // namespace mcpfuzz::reports
