#pragma once
// `mcpfuzz merge REPORT.json...`: the JSON reports of the shards of one run (`--shard K/N` of
// `diff`, `fuzz` or `check --targets`) joined into the report the unsharded run writes.

#include <ostream>
#include <string>
#include <vector>

#include "cli/options.h"

namespace mcpfuzz::cli {

/// Reads the reports, merges them by their kind (reports::MergeDiffReports,
/// MergeFuzzReports, MergeSurveyReports), prints the terminal summary and writes every format
/// asked. Exit codes as the unsharded run's: 0, 1 (a disagreement with a wrong side, a
/// confirmed finding, a FAIL), 2 a report not read, of another kind than the others, not of
/// the same run, a shard missing or given twice, or a report not written.
int RunMerge(const std::vector<std::string>& inputs, const std::vector<ReportFile>& reports,
             reports::FailOn fail_on, std::ostream& out, std::ostream& err);

/// The text of `mcpfuzz help merge` before its flag lines.
const char* MergeHelpIntro();

}  // namespace mcpfuzz::cli
