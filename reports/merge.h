#pragma once
// Reports read back from their JSON and the shards of one run merged (`mcpfuzz merge`): for
// fuzz campaigns (`fuzz --shard K/N`) and surveys (`check --targets FILE --shard K/N`). Diff
// reports have their own (reports/diff.h). A merged report is the one the unsharded run
// writes, except for what measures the run itself: its start (the earliest shard's), its
// duration (the longest shard's), and for a campaign the time breakdown and the sessions,
// restarts and pipelined cases (summed over the shards).

#include <boost/json/value.hpp>
#include <string>
#include <vector>

#include "model/result.h"
#include "reports/report.h"

namespace mcpfuzz::reports {

/// The report item of one fuzz finding, from its record: the case-file form
/// (reports/finding_file.h) plus the members the fuzz report adds ("file", "repeats",
/// "shrink_steps", "shrink_sends", "file_error"). The report of a campaign and the report read
/// back from its JSON both make their items here, so they show a finding alike. The title is
/// the caller's (reports/ knows no check titles). `verdict` is the one the record holds
/// (oracles/verdict_json.h VerdictFromJson), read once by the caller, which decides what an
/// unreadable one means.
ReportItem FuzzFindingItem(boost::json::object record, Verdict verdict);
/// As above, the verdict read from the record (an unreadable one left empty): for a record
/// mcpfuzz has just written.
ReportItem FuzzFindingItem(boost::json::object record);

/// A fuzz report read back from its JSON (titles left empty).
Result<Report> FuzzReportFromJson(const boost::json::value& value);

/// The reports of the shards of one campaign (the same seed, target and session revisions;
/// each shard 1..N once) as the unsharded campaign writes it: counts summed; each finding
/// (signature) kept once, from the shard that met it at the lowest case index, the others'
/// cases added to its repeats; findings in case-index order; notes once each.
Result<Report> MergeFuzzReports(const std::vector<Report>& shards);

/// A survey report read back from its JSON.
Result<Report> SurveyReportFromJson(const boost::json::value& value);

/// The reports of the shards of one survey (each shard 1..N once, the same target count) as
/// the unsharded survey writes it: target j of the file from shard j % N + 1, in file order.
Result<Report> MergeSurveyReports(const std::vector<Report>& shards);

/// The span of the run the shards make together: the earliest start, the longest shard's
/// duration (shards run side by side), and stopped early when any shard was (by the first such
/// shard's signal): the whole run then covers only what ran before it.
void SetRunSpan(const std::vector<Report>& shards, Report& merged);

/// "" when `labels` ("K/N", one per report) name shards 1..N of one N, each once, or are one
/// report of an unsharded run (""); what is wrong otherwise.
std::string ShardProblem(const std::vector<std::string>& labels);

}  // namespace mcpfuzz::reports
