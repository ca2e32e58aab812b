#pragma once
// The report of one `mcpfuzz check` run: a versioned JSON document (docs/report-format.md) and
// the short table the terminal shows. Everything a server sent is data here: JSON escapes it,
// and the terminal writer escapes control characters and escape sequences.

#include <boost/json/value.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "checks/checks.h"
#include "model/reproducer.h"
#include "reports/baseline.h"

namespace mcpfuzz::reports {

/// The JSON report's format name and version; the version changes when a member changes
/// meaning or disappears (adding members does not).
inline constexpr std::string_view kCheckReportFormat = "mcpfuzz-check-report";
inline constexpr int kCheckReportVersion = 1;

struct RunInfo {
  std::string tool_version;
  /// For people: "http://127.0.0.1:8931/mcp" or "stdio: node server.js".
  std::string target;
  ReproducerTarget reproducer_target;
  /// UTC, ISO 8601.
  std::string started_at;
  double duration_seconds = 0;
};

struct VerdictCounts {
  int pass = 0, warn = 0, fail = 0, unverified = 0, not_applicable = 0;
};
VerdictCounts Count(const checks::CheckRun& run);

boost::json::value CheckReportToJson(const RunInfo& info, const checks::CheckRun& run,
                                     const BaselineComparison* baseline);

/// The terminal report: the eras, a matrix of checks × revisions, then every FAIL and WARN
/// with expected vs observed, the spec reference and a reproducer, then the counts.
void PrintCheckReport(const RunInfo& info, const checks::CheckRun& run,
                      const BaselineComparison* baseline, std::ostream& out);

/// A request as JSON with secret header values redacted.
boost::json::value RedactedRequestJson(const Request& request);

}  // namespace mcpfuzz::reports
