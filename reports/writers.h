#pragma once
// The six report writers. Each reads the one report model and writes one document to a
// stream; opening files is the caller's business. Formats: docs/report-format.md; the
// terminal's text is for people only.

#include <boost/json/value.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "reports/report.h"

namespace mcpfuzz::reports {

enum class Format { kJson, kJunit, kSarif, kMarkdown, kHtml };
/// "json", "junit", "sarif", "markdown" (or "md"), "html"; nothing for any other name.
std::optional<Format> ParseFormat(std::string_view name);
std::string_view ToString(Format format);

/// The JSON report: mcpfuzz-check-report, mcpfuzz-fuzz-report, mcpfuzz-replay-report or
/// mcpfuzz-survey-report, version 1, by the report's kind.
boost::json::value ReportToJson(const Report& report);
void WriteJson(const Report& report, std::ostream& out);

/// JUnit XML as GitHub, GitLab and Jenkins read it: one <testsuite> per target, one
/// <testcase> per check result, finding or replayed case.
void WriteJunit(const Report& report, std::ostream& out);

/// What SARIF needs beyond the report: where in the repository code scanning shows a result.
struct SarifOptions {
  /// `--sarif-root PATH`: the file (or folder) of the repository, relative to its root, that a
  /// result is placed at when it has no case file inside the repository; "" means the root.
  std::string root;
};

/// SARIF 2.1.0: one run, one rule per check id, one result per FAIL or WARN (and per failing
/// fuzz finding or replayed case), each placed at a repository path (relative, uriBaseId
/// %SRCROOT%): its case file when that lies inside the repository, else `options.root`; the
/// target is in the result's properties.
void WriteSarif(const Report& report, std::ostream& out, const SarifOptions& options = {});

/// A Markdown summary for a CI step summary: counts, then every finding with a reproducer.
void WriteMarkdown(const Report& report, std::ostream& out);

/// One self-contained HTML file: inline CSS, inline SVG charts, no external assets.
void WriteHtml(const Report& report, std::ostream& out);

void Write(Format format, const Report& report, std::ostream& out, const SarifOptions& sarif = {});

/// What `mcpfuzz check`, `fuzz`, `replay` and a survey print: for a check, the eras, a matrix
/// of checks × revisions, every FAIL and WARN with expected vs observed, the spec reference and
/// a reproducer, then the counts (and the baseline); for fuzz, the seed, the figures and each
/// finding; for replay, one line per case file; for a survey, one line per target and the
/// unknown-tool table. Server text is escaped for terminals.
void WriteTerminal(const Report& report, std::ostream& out);

}  // namespace mcpfuzz::reports
