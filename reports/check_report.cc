#include "reports/check_report.h"

#include <algorithm>
#include <map>

#include "reports/build.h"
#include "reports/terminal.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

std::string Cell(const checks::CheckResult* result) {
  if (result == nullptr) return "-";
  if (result->verdict.kind == VerdictKind::kNotApplicable) return "n/a";
  return std::string(ToString(result->verdict.kind));
}

}  // namespace

VerdictCounts Count(const checks::CheckRun& run) {
  VerdictCounts counts;
  for (const auto& result : run.results) counts.Add(result.verdict.kind);
  return counts;
}

boost::json::value CheckReportToJson(const RunInfo& info, const checks::CheckRun& run,
                                     const BaselineComparison* baseline) {
  return ReportToJson(BuildCheckReport(info, run, baseline));
}

void PrintCheckReport(const RunInfo& info, const checks::CheckRun& run,
                      const BaselineComparison* baseline, std::ostream& out) {
  out << "target: " << EscapeForTerminal(info.target, 200) << "\nspeaks: ";
  if (run.eras.speaks.empty()) out << "no revision mcpfuzz knows";
  for (std::size_t i = 0; i < run.eras.speaks.size(); ++i) {
    out << (i ? ", " : "") << ToString(run.eras.speaks[i]);
  }
  out << "\n\n";

  // The matrix: one row per check id, one column per revision checked, in run order.
  std::vector<Revision> columns;
  std::vector<std::string> rows;
  std::map<std::pair<std::string, Revision>, const checks::CheckResult*> cells;
  for (const auto& result : run.results) {
    if (std::find(columns.begin(), columns.end(), result.revision) == columns.end()) {
      columns.push_back(result.revision);
    }
    const std::string& id = result.verdict.check_id;
    if (std::find(rows.begin(), rows.end(), id) == rows.end()) rows.push_back(id);
    auto& cell = cells[{id, result.revision}];
    // Several results of one id in one revision (both transports): the worst is shown.
    if (cell == nullptr || Severity(result.verdict.kind) > Severity(cell->verdict.kind)) {
      cell = &result;
    }
  }
  std::sort(columns.begin(), columns.end(), std::greater<>());
  std::size_t width = 6;
  for (const auto& id : rows) width = std::max(width, id.size() + 2);
  out << "  " << Pad("check", width);
  for (Revision revision : columns) out << Pad(ToString(revision), 16);
  out << "\n";
  for (const auto& id : rows) {
    out << "  " << Pad(id, width);
    for (Revision revision : columns) {
      auto found = cells.find({id, revision});
      out << Pad(Cell(found == cells.end() ? nullptr : found->second), 16);
    }
    out << "\n";
  }

  bool heading = false;
  for (const auto& result : run.results) {
    const Verdict& verdict = result.verdict;
    if (verdict.kind != VerdictKind::kFail && verdict.kind != VerdictKind::kWarn) continue;
    if (!heading) out << "\nFindings\n";
    heading = true;
    out << "\n"
        << ToString(verdict.kind) << "  " << verdict.check_id << "  " << ToString(result.revision)
        << "/" << ToString(result.transport) << "  (" << ToString(verdict.strength) << ")\n";
    out << "  expected: " << EscapeForTerminal(verdict.expected.text, 160) << "\n";
    out << "  observed: " << ToString(verdict.observed.channel);
    if (verdict.observed.code) out << " " << *verdict.observed.code;
    if (verdict.observed.http_status != 0) out << " (HTTP " << verdict.observed.http_status << ")";
    if (!verdict.observed.excerpt.empty()) {
      out << "  \"" << EscapeForTerminal(verdict.observed.excerpt, 100) << "\"";
    }
    out << "\n";
    for (const Finding& finding : verdict.findings) {
      out << "  - " << ToString(finding.strength) << ": " << EscapeForTerminal(finding.text, 160)
          << "\n";
    }
    out << "  spec: " << verdict.spec_reference << "\n";
    if (result.judged < result.exchanges.size()) {
      out << "  reproduce: "
          << EscapeForTerminal(
                 Reproducer(result.exchanges[result.judged].request, info.reproducer_target), 2000)
          << "\n";
    }
  }

  // Why a check could not be judged is as much a result as a finding: without it, UNVERIFIED
  // reads like a pass nobody checked.
  heading = false;
  for (const auto& result : run.results) {
    const Verdict& verdict = result.verdict;
    if (verdict.kind != VerdictKind::kUnverified) continue;
    if (!heading) out << "\nUnverified\n";
    heading = true;
    out << "  " << verdict.check_id << "  " << ToString(result.revision) << "/"
        << ToString(result.transport) << "  (" << ToString(verdict.unverified_reason) << ")";
    if (!verdict.notes.empty()) out << ": " << EscapeForTerminal(verdict.notes.front(), 200);
    out << "\n";
  }
  for (const std::string& note : run.notes)
    out << "\nnote: " << EscapeForTerminal(note, 300) << "\n";

  if (!run.handshake_controls.empty()) out << "\nHandshake control\n";
  for (const auto& control : run.handshake_controls) {
    out << "  " << ToString(control.revision)
        << ": rejects_pre_init=" << ToString(control.pre_init.rejects) << " ("
        << ToString(control.pre_init.grounds) << ") "
        << EscapeForTerminal(control.pre_init.reason, 120) << "\n";
  }

  const VerdictCounts counts = Count(run);
  out << "\n"
      << counts.pass << " pass, " << counts.warn << " warn, " << counts.fail << " fail, "
      << counts.unverified << " unverified, " << counts.not_applicable << " not applicable\n";
  if (baseline != nullptr) {
    out << "baseline: " << baseline->new_failures.size() << " new failure(s), "
        << baseline->no_longer_failing.size() << " listed but no longer failing, "
        << baseline->still_failing.size() << " known, " << baseline->not_run.size()
        << " not judged in this run\n";
    for (const auto& entry : baseline->new_failures) out << "  new: " << ToString(entry) << "\n";
    for (const auto& entry : baseline->no_longer_failing) {
      out << "  fixed (remove it from the baseline): " << ToString(entry) << "\n";
    }
    for (const auto& entry : baseline->not_run) out << "  not run: " << ToString(entry) << "\n";
  }
}

}  // namespace mcpfuzz::reports
