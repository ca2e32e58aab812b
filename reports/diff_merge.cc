// Reading a diff report back from its JSON, and merging the reports of the shards of one run
// (`mcpfuzz diff --shard K/N`, `mcpfuzz merge`) into the report the unsharded run writes.

#include <algorithm>
#include <map>
#include <utility>

#include "reports/detail/json_read.h"
#include "reports/detail/server_info_json.h"
#include "reports/diff.h"
#include "reports/merge.h"
#include "reports/report.h"

namespace mcpfuzz::reports {
namespace {

namespace json = boost::json;
using detail::Array;
using detail::Number;
using detail::Real;
using detail::Text;

// What makes two rows the same disagreement: the check and the tuple of answers.
std::string KeyOf(const DiffRow& row) {
  std::string key = row.check_id;
  for (const auto& cell : row.cells) key += "\n" + cell.answer;
  return key;
}

}  // namespace

Result<Report> DiffReportFromJson(const json::value& value) {
  Result<Report> head = detail::ReportHead(value, "mcpfuzz-diff-report", ReportKind::kDiff);
  if (!head) return head.error();
  Report report = std::move(*head);
  const json::object& in = value.as_object();
  report.duration_seconds = Real(in, "duration_seconds");
  DiffSection diff;
  if (const json::value* seed = in.if_contains("seed"); seed != nullptr && seed->is_number()) {
    diff.seed = seed->to_number<std::uint64_t>();
  }
  diff.revision = Text(in, "revision");
  diff.cases = Number(in, "cases");
  diff.incomparable = Number(in, "incomparable");
  diff.shard = Text(in, "shard");
  if (const json::value* baseline = in.if_contains("baseline")) {
    diff.baseline = baseline->is_bool() && baseline->as_bool();
  }
  for (const auto& target : Array(in, "targets")) {
    if (!target.is_object()) continue;
    const json::object& t = target.as_object();
    diff.targets.push_back(
        {Text(t, "name"), Text(t, "transport"), detail::ServerInfoFromJson(t), Text(t, "error")});
  }
  for (const auto& check : Array(in, "checks")) {
    if (!check.is_object()) continue;
    const json::object& c = check.as_object();
    diff.checks.push_back({Text(c, "id"), Number(c, "cases"), Number(c, "disagreeing")});
  }
  for (const auto& entry : Array(in, "disagreements")) {
    if (!entry.is_object()) continue;
    const json::object& r = entry.as_object();
    DiffRow row;
    row.check_id = Text(r, "check_id");
    row.label = Text(r, "label");
    row.family = Text(r, "family");
    row.variant = Text(r, "variant");
    row.revision = Text(r, "revision");
    row.case_index = Number(r, "case_index");
    row.repeats = Number(r, "repeats");
    row.shrink_steps = Number(r, "shrink_steps");
    row.original_bytes = Number(r, "original_bytes");
    row.minimal_bytes = Number(r, "minimal_bytes");
    if (const json::value* request = r.if_contains("minimal_request")) {
      row.minimal_request = *request;
    }
    for (const auto& answer : Array(r, "answers")) {
      if (!answer.is_object()) continue;
      const json::object& a = answer.as_object();
      const json::value* accepted = a.if_contains("accepted");
      row.cells.push_back({Text(a, "answer"), Text(a, "verdict"),
                           accepted != nullptr && accepted->is_bool() && accepted->as_bool(),
                           Text(a, "reproducer"), Text(a, "provenance")});
    }
    diff.rows.push_back(std::move(row));
  }
  for (const auto& note : Array(in, "notes")) {
    if (note.is_string()) diff.notes.emplace_back(note.as_string());
  }
  report.diff = std::move(diff);
  return report;
}

Result<Report> MergeDiffReports(const std::vector<Report>& shards) {
  if (shards.empty()) return Error{"no report to merge"};
  std::vector<std::string> labels;
  for (const Report& shard : shards) {
    if (!shard.diff) return Error{"not a diff report"};
    labels.push_back(shard.diff->shard);
  }
  if (std::string problem = ShardProblem(labels); !problem.empty()) return Error{problem};
  Report merged = shards.front();
  SetRunSpan(shards, merged);
  DiffSection& diff = *merged.diff;
  diff.shard.clear();
  diff.cases = 0;
  diff.incomparable = 0;
  diff.checks.clear();
  diff.rows.clear();
  diff.notes.clear();
  std::map<std::string, DiffCheckReport> checks;
  std::map<std::string, DiffRow> rows;  // key → the row of the lowest case index
  for (const Report& shard : shards) {
    const DiffSection& part = *shard.diff;
    if (part.seed != diff.seed || part.revision != diff.revision ||
        part.targets.size() != diff.targets.size()) {
      return Error{"the reports are not shards of one run: seed, revision or targets differ"};
    }
    for (std::size_t t = 0; t < part.targets.size(); ++t) {
      if (part.targets[t].name != diff.targets[t].name) {
        return Error{"the reports are not shards of one run: target " + std::to_string(t + 1) +
                     " differs"};
      }
      // Each shard opened its own sessions; a server names itself alike in each.
      if (!diff.targets[t].server_info) diff.targets[t].server_info = part.targets[t].server_info;
    }
    diff.cases += part.cases;
    diff.incomparable += part.incomparable;
    for (const auto& check : part.checks) {
      DiffCheckReport& sum = checks[check.check_id];
      sum.check_id = check.check_id;
      sum.cases += check.cases;
      sum.disagreeing += check.disagreeing;
    }
    for (const auto& row : part.rows) {
      auto [found, inserted] = rows.emplace(KeyOf(row), row);
      if (inserted) continue;
      DiffRow& kept = found->second;
      const std::size_t repeats = kept.repeats + row.repeats + 1;
      if (row.case_index < kept.case_index) kept = row;
      kept.repeats = repeats;
    }
    for (const auto& note : part.notes) {
      if (std::find(diff.notes.begin(), diff.notes.end(), note) == diff.notes.end()) {
        diff.notes.push_back(note);
      }
    }
  }
  for (auto& [id, check] : checks) diff.checks.push_back(std::move(check));
  for (auto& [key, row] : rows) diff.rows.push_back(std::move(row));
  // The unsharded run lists rows in the order found: by the case index that first showed each.
  std::stable_sort(diff.rows.begin(), diff.rows.end(),
                   [](const DiffRow& a, const DiffRow& b) { return a.case_index < b.case_index; });
  return merged;
}

}  // namespace mcpfuzz::reports
