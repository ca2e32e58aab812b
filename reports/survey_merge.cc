// Survey reports read back from their JSON, and the shards of one survey merged
// (`mcpfuzz check --targets FILE --shard K/N`, `mcpfuzz merge`) into the unsharded survey's.

#include <algorithm>
#include <map>
#include <utility>

#include "model/revision.h"
#include "oracles/verdict_json.h"
#include "reports/detail/json_read.h"
#include "reports/detail/server_info_json.h"
#include "reports/merge.h"

namespace mcpfuzz::reports {
namespace {

namespace json = boost::json;
using detail::Array;
using detail::Flag;
using detail::Integer;
using detail::Object;
using detail::Real;
using detail::Text;

std::optional<Revision> RevisionAt(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? ParseRevision(value->as_string()) : std::nullopt;
}

template <typename Enum, std::size_t N>
std::optional<Enum> Named(const std::string& text, const Enum (&all)[N]) {
  for (const Enum candidate : all) {
    if (ToString(candidate) == text) return candidate;
  }
  return std::nullopt;
}

constexpr RejectsPreInit kRejects[] = {RejectsPreInit::kYes, RejectsPreInit::kNo,
                                       RejectsPreInit::kIndeterminate};
constexpr RefusalGrounds kGrounds[] = {RefusalGrounds::kNotRefused, RefusalGrounds::kOrdering,
                                       RefusalGrounds::kName, RefusalGrounds::kUnclear};

Result<EraReport> ErasFromJson(const json::object& in) {
  EraReport eras;
  for (const json::value& spoken : Array(in, "speaks")) {
    auto revision = spoken.is_string() ? ParseRevision(spoken.as_string()) : std::nullopt;
    if (!revision) return Error{"eras.speaks holds an unknown revision"};
    eras.speaks.push_back(*revision);
  }
  for (const json::value& unsure : Array(in, "undetermined")) {
    auto revision = unsure.is_string() ? ParseRevision(unsure.as_string()) : std::nullopt;
    if (!revision) return Error{"eras.undetermined holds an unknown revision"};
    eras.undetermined.push_back(*revision);
  }
  for (const json::value& entry : Array(in, "attempts")) {
    if (!entry.is_object()) return Error{"an era attempt is not an object"};
    const json::object& a = entry.as_object();
    EraAttempt attempt;
    const auto asked = RevisionAt(a, "asked");
    const auto channel = ChannelNamed(Text(a, "channel"));
    if (!asked || !channel) return Error{"an era attempt's revision or channel is unknown"};
    attempt.asked = *asked;
    attempt.method = Text(a, "method");
    attempt.channel = *channel;
    for (const json::value& version : Array(a, "supported_versions")) {
      if (version.is_string()) attempt.supported_versions.emplace_back(version.as_string());
    }
    attempt.note = Text(a, "note");
    attempt.error_code = Integer(a, "error_code");
    attempt.http_status = static_cast<int>(Integer(a, "http_status").value_or(0));
    attempt.answered = RevisionAt(a, "answered");
    if (const std::string limit = Text(a, "timed_out"); !limit.empty()) {
      attempt.timed_out = TimeLimitNamed(limit);
    }
    if (const auto* times = a.if_contains("asked_times"); times != nullptr && times->is_int64()) {
      attempt.asked_times = static_cast<int>(times->as_int64());
    }
    // The report keeps the last lines, made visible; joined again, they are the same lines.
    for (const json::value& line : Array(a, "stderr_tail")) {
      if (!line.is_string()) continue;
      if (!attempt.stderr_tail.empty()) attempt.stderr_tail += "\n";
      attempt.stderr_tail += std::string(line.as_string());
    }
    eras.attempts.push_back(std::move(attempt));
  }
  return eras;
}

Result<ReportItem> CheckItemFromJson(const json::object& in) {
  ReportItem item;
  item.id = Text(in, "id");
  item.revision = Text(in, "revision");
  item.transport = Text(in, "transport");
  auto verdict = VerdictFromJson(in);
  if (!verdict) return Error{"check " + item.id + ": " + verdict.error().message};
  item.verdict = std::move(*verdict);
  item.verdict.check_id = item.id;
  // As the run judged it; `mcpfuzz merge` applies its own --fail-on again.
  item.failing = Flag(in, "fails_run", item.verdict.kind == VerdictKind::kFail);
  item.known = Flag(in, "known", false);
  item.reproducer = Text(in, "reproducer");
  for (const json::value& exchange : Array(in, "exchanges")) {
    if (!exchange.is_object()) continue;
    const json::object& e = exchange.as_object();
    item.exchanges.push_back({e.contains("request") ? e.at("request") : json::value(),
                              e.contains("observation") ? e.at("observation") : json::value()});
  }
  item.judged =
      static_cast<std::size_t>(std::max<std::int64_t>(0, Integer(in, "judged").value_or(0)));
  return item;
}

Result<TargetSection> TargetFromJson(const json::object& in) {
  TargetSection target;
  target.description = Text(in, "description");
  target.stable_name = Text(in, "stable_name");
  target.transport = Text(in, "transport");
  target.error = Text(in, "error");
  auto eras = ErasFromJson(Object(in, "eras"));
  if (!eras) return eras.error();
  target.eras = std::move(*eras);
  target.server_info = detail::ServerInfoFromJson(in);
  for (const json::value& check : Array(in, "checks")) {
    if (!check.is_object()) return Error{"a check is not an object"};
    auto item = CheckItemFromJson(check.as_object());
    if (!item) return item.error();
    target.items.push_back(std::move(*item));
  }
  for (const json::value& entry : Array(in, "handshake_controls")) {
    if (!entry.is_object()) continue;
    const json::object& c = entry.as_object();
    const auto revision = RevisionAt(c, "revision");
    const auto rejects = Named(Text(c, "rejects_pre_init"), kRejects);
    const auto grounds = Named(Text(c, "grounds"), kGrounds);
    if (!revision || !rejects || !grounds) return Error{"a handshake control is not readable"};
    target.handshake_controls.push_back({*revision, {*rejects, *grounds, Text(c, "reason")}});
  }
  for (const json::value& note : Array(in, "notes")) {
    if (note.is_string()) target.notes.emplace_back(note.as_string());
  }
  return target;
}

std::size_t ShardNumber(const std::string& label) {
  return std::stoul(label.substr(0, label.find('/')));
}

}  // namespace

Result<Report> SurveyReportFromJson(const json::value& value) {
  Result<Report> head = detail::ReportHead(value, "mcpfuzz-survey-report", ReportKind::kSurvey);
  if (!head) return head.error();
  Report report = std::move(*head);
  const json::object& in = value.as_object();
  report.duration_seconds = Real(in, "duration_seconds");
  report.shard = Text(in, "shard");
  for (const json::value& entry : Array(in, "targets")) {
    if (!entry.is_object()) return Error{"a target is not an object"};
    auto target = TargetFromJson(entry.as_object());
    if (!target)
      return Error{"target " + Text(entry.as_object(), "description") + ": " +
                   target.error().message};
    report.targets.push_back(std::move(*target));
  }
  return report;
}

Result<Report> MergeSurveyReports(const std::vector<Report>& shards) {
  if (shards.empty()) return Error{"no report to merge"};
  std::vector<std::string> labels;
  for (const Report& shard : shards) {
    if (shard.kind != ReportKind::kSurvey) return Error{"not a survey report"};
    labels.push_back(shard.shard);
  }
  if (std::string problem = ShardProblem(labels); !problem.empty()) return Error{problem};
  if (shards.size() == 1) return shards.front();

  // Shard K holds targets K-1, K-1+N, K-1+2N, ... of the file, in order.
  const std::size_t count = shards.size();
  std::vector<const Report*> by_shard(count);
  std::size_t total = 0;
  for (const Report& shard : shards) {
    by_shard[ShardNumber(shard.shard) - 1] = &shard;
    total += shard.targets.size();
  }
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t expected = total > k ? (total - k + count - 1) / count : 0;
    if (by_shard[k]->targets.size() != expected) {
      return Error{"the reports are not shards of one survey: shard " + by_shard[k]->shard +
                   " has " + std::to_string(by_shard[k]->targets.size()) + " targets, not " +
                   std::to_string(expected) + " of " + std::to_string(total)};
    }
  }
  Report merged = *by_shard.front();
  merged.shard.clear();
  merged.targets.clear();
  SetRunSpan(shards, merged);
  for (std::size_t j = 0; j < total; ++j) {
    merged.targets.push_back(by_shard[j % count]->targets[j / count]);
  }
  return merged;
}

}  // namespace mcpfuzz::reports
