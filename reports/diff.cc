// The JSON form of a diff report, "mcpfuzz-diff-report" version 1 (docs/report-format.md).

#include "reports/diff.h"

#include <algorithm>

#include "reports/detail/server_info_json.h"
#include "reports/detail/stopped_early.h"
#include "reports/escape.h"
#include "reports/report.h"

namespace mcpfuzz::reports {

namespace json = boost::json;

std::size_t DiffSection::WrongSideCount() const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const DiffRow& row) { return row.WrongSide(); }));
}

json::value DiffToJson(const Report& report) {
  const DiffSection empty;
  const DiffSection& diff = report.diff ? *report.diff : empty;
  json::object out{{"format", "mcpfuzz-diff-report"},
                   {"version", 1},
                   {"tool", {{"name", "mcpfuzz"}, {"version", report.tool_version}}},
                   {"started_at", report.started_at},
                   {"fail_on", ToString(report.fail_on)},
                   {"duration_seconds", report.duration_seconds},
                   {"seed", diff.seed},
                   {"revision", diff.revision},
                   {"cases", diff.cases},
                   {"incomparable", diff.incomparable}};
  detail::AddStoppedEarlyJson(report, out);
  if (!diff.shard.empty()) out["shard"] = diff.shard;
  if (diff.baseline) out["baseline"] = true;
  json::array targets;
  for (const auto& target : diff.targets) {
    json::object entry{{"name", target.name},
                       {"transport", target.transport},
                       {"server_info", detail::ServerInfoToJson(target.server_info)}};
    if (!target.error.empty()) entry["error"] = target.error;
    targets.push_back(std::move(entry));
  }
  out["targets"] = std::move(targets);
  out["summary"] = {{"disagreements", diff.rows.size()}, {"wrong_side", diff.WrongSideCount()}};
  json::array checks;
  for (const auto& check : diff.checks) {
    checks.push_back(json::object{
        {"id", check.check_id}, {"cases", check.cases}, {"disagreeing", check.disagreeing}});
  }
  out["checks"] = std::move(checks);
  json::array rows;
  for (const auto& row : diff.rows) {
    json::object entry{{"check_id", row.check_id},
                       {"label", row.label},
                       {"family", row.family},
                       {"variant", row.variant},
                       {"revision", row.revision},
                       {"case_index", row.case_index},
                       {"repeats", row.repeats},
                       {"shrink_steps", row.shrink_steps},
                       {"original_bytes", row.original_bytes},
                       {"minimal_bytes", row.minimal_bytes},
                       {"minimal_request", row.minimal_request}};
    json::array answers;
    for (std::size_t t = 0; t < row.cells.size(); ++t) {
      const DiffCellReport& cell = row.cells[t];
      answers.push_back(
          json::object{{"target", t < diff.targets.size() ? diff.targets[t].name : std::string()},
                       {"answer", cell.answer},
                       {"verdict", cell.verdict},
                       {"accepted", cell.accepted},
                       {"reproducer", cell.reproducer}});
      if (!cell.provenance.empty()) answers.back().as_object()["provenance"] = cell.provenance;
    }
    entry["answers"] = std::move(answers);
    rows.push_back(std::move(entry));
  }
  out["disagreements"] = std::move(rows);
  json::array notes;
  for (const auto& note : diff.notes) notes.emplace_back(note);
  out["notes"] = std::move(notes);
  json::value value = std::move(out);
  MakeJsonStringsValidUtf8(value);
  return value;
}

}  // namespace mcpfuzz::reports
