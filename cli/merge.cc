#include "cli/merge.h"

#include <boost/json/parse.hpp>
#include <fstream>
#include <sstream>

#include "checks/checks.h"
#include "cli/fuzz.h"
#include "cli/report_files.h"
#include "cli/run_reports.h"
#include "cli/survey.h"
#include "reports/diff.h"
#include "reports/merge.h"
#include "reports/writers.h"

namespace mcpfuzz::cli {
namespace {

// The report kinds merge joins, by the "format" member of their JSON.
Result<reports::Report> ReportFromJson(const boost::json::value& value) {
  const auto* object = value.if_object();
  const auto* format = object != nullptr ? object->if_contains("format") : nullptr;
  const std::string kind =
      format != nullptr && format->is_string() ? std::string(format->as_string()) : "";
  if (kind == "mcpfuzz-diff-report") return reports::DiffReportFromJson(value);
  if (kind == "mcpfuzz-fuzz-report") return reports::FuzzReportFromJson(value);
  if (kind == "mcpfuzz-survey-report") return reports::SurveyReportFromJson(value);
  return Error{"not a report merge joins (the JSON report of a diff, fuzz or check --targets run)"};
}

// Titles are the checks' (checks/), which reports/ does not know.
void AddTitles(reports::Report& report) {
  for (reports::TargetSection& target : report.targets) {
    for (reports::ReportItem& item : target.items) {
      for (const auto& info : checks::AllChecks()) {
        if (info.id == item.id) item.title = std::string(info.title);
      }
    }
  }
}

}  // namespace

int RunMerge(const std::vector<std::string>& inputs, const std::vector<ReportFile>& reports,
             reports::FailOn fail_on, std::ostream& out, std::ostream& err) {
  std::vector<reports::Report> shards;
  for (const std::string& path : inputs) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    boost::system::error_code error;
    boost::json::parse_options options;
    options.max_depth = 100000;  // a fuzz finding's request may nest that deep
    const boost::json::value value = boost::json::parse(text.str(), error, {}, options);
    if (!file || error) {
      err << "mcpfuzz: cannot read " << path << " as JSON\n";
      return 2;
    }
    auto report = ReportFromJson(value);
    if (!report) {
      err << "mcpfuzz: " << path << ": " << report.error().message << "\n";
      return 2;
    }
    if (!shards.empty() && report->kind != shards.front().kind) {
      err << "mcpfuzz: " << path << " is a " << reports::ToString(report->kind) << " report and "
          << inputs.front() << " a " << reports::ToString(shards.front().kind)
          << " report: merge joins the shards of one run\n";
      return 2;
    }
    AddTitles(*report);
    shards.push_back(std::move(*report));
  }
  const reports::ReportKind kind = shards.front().kind;
  auto merged = kind == reports::ReportKind::kDiff   ? reports::MergeDiffReports(shards)
                : kind == reports::ReportKind::kFuzz ? reports::MergeFuzzReports(shards)
                                                     : reports::MergeSurveyReports(shards);
  if (!merged) {
    err << "mcpfuzz: " << merged.error().message << "\n";
    return 2;
  }
  ApplyExitPolicy(*merged, fail_on, nullptr);
  reports::WriteTerminal(*merged, out);
  if (!WriteReportFiles(*merged, reports, out, err)) return 2;
  switch (kind) {
    case reports::ReportKind::kDiff:
      return FindingsExitCode(*merged);
    case reports::ReportKind::kFuzz:
      // As `mcpfuzz fuzz`: no session opened in any revision is a run that could not run.
      if (merged->fuzz->revisions.empty()) {
        err << "mcpfuzz: the target speaks no revision mcpfuzz knows, or could not be reached\n";
        return 2;
      }
      return FindingsExitCode(*merged);
    default:
      // Targets a stopped shard never started were not found unreachable.
      return SurveyExitCode(*merged, merged->StoppedEarly(), err);
  }
}

const char* MergeHelpIntro() {
  return R"(mcpfuzz merge REPORT.json... [--report FORMAT=PATH]...

Joins the JSON reports of the shards of one run into the report the unsharded run writes,
printed and written in every format asked. The reports must be of one kind, and of one run:
`mcpfuzz diff --shard K/N` (the same seed, revision and targets), `mcpfuzz fuzz --shard K/N`
(the same seed, target and session revisions) or `mcpfuzz check --targets FILE --shard K/N`,
shards 1..N each once (or the one report of an unsharded run).

- diff: cases and per-check counts summed, each disagreement kept once from the shard that
  met it first (lowest case index), the others counted as its repeats.
- fuzz: cases (all, per family, per revision), generation failures and skipped cases summed;
  each finding (signature) kept once from the shard that met it first (lowest case index), the
  others counted as its repeats; notes once each. Equal to the unsharded campaign's report
  when the run was bounded by --cases and no check was skipped after unanswered cases (each
  shard skips after its own: see `mcpfuzz help fuzz`).
- survey: the targets back in the order of the targets file, the census counted again
  (--host-budget was each shard's own).

The start is the earliest shard's and the duration the longest shard's; a campaign's time
breakdown, sessions opened, restarts and pipelined cases are summed over the shards. Those
members measure the run, not the target, and differ from an unsharded run's report.
A shard stopped early by a signal makes the merged report stopped early too.
Exit codes as the unsharded run's, under --fail-on as there: 0, 1 (a disagreement with a
wrong side, a finding seen again, a FAIL), 2 a survey with a target that was not judged, a report not read, reports of different kinds or runs, a shard missing or
given twice, or a report not written.
)";
}

}  // namespace mcpfuzz::cli
