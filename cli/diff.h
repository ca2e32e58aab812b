#pragma once
// `mcpfuzz diff TARGET TARGET...`: the same seeded cases sent to every target, and the
// disagreement matrix reported (campaign/differential.h).

#include <ostream>
#include <string>
#include <vector>

#include "campaign/differential.h"
#include "cli/options.h"
#include "model/result.h"
#include "reports/report.h"

namespace mcpfuzz::cli {

/// One diff target as typed, a copy of `defaults` (headers, limits) with its kind set:
///   http://… or https://…        a Streamable HTTP endpoint
///   stdio:COMMAND ARGS           a stdio server (split on spaces and tabs, no quoting)
///   builtin[:FAULT,FAULT…]       the built-in reference server over HTTP, with faults
///   builtin-stdio[:FAULT,…]      the same over stdio
Result<TargetSpec> ParseDiffTarget(const std::string& word, const TargetSpec& defaults);

/// Why target `target` of `result` could not be judged (the cause named as `check` names it);
/// "" when it could.
std::string NotJudgedReason(const DiffResult& result, std::size_t target);

/// The report model of a differential run.
reports::Report BuildDiffReport(const DiffResult& result, const DiffOptions& options,
                                const std::vector<std::string>& transports);

/// Runs `mcpfuzz diff`. Exit codes: 0 no disagreement with a wrong side, 1 a disagreement where
/// some side is wrong (FAIL), 2 could not run (a bad target word, a target that could not be
/// started or reached, no revision the targets share, a report not written).
int RunDiffCommand(const Options& options, const std::string& self_executable, std::ostream& out,
                   std::ostream& err);

/// The text of `mcpfuzz help diff` before its flag lines.
const char* DiffHelpIntro();
const char* DiffHelpTail();

}  // namespace mcpfuzz::cli
