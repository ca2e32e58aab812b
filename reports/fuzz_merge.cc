// Fuzz reports read back from their JSON, and the shards of one campaign merged
// (`mcpfuzz fuzz --shard K/N`, `mcpfuzz merge`) into the report the unsharded campaign writes.

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
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
using detail::Number;
using detail::Object;
using detail::Real;
using detail::Text;

std::map<std::string, std::size_t> Counts(const json::object& object) {
  std::map<std::string, std::size_t> counts;
  for (const auto& [name, value] : object) counts[std::string(name)] = Number(object, name);
  return counts;
}

void AddCounts(const std::map<std::string, std::size_t>& from,
               std::map<std::string, std::size_t>& into) {
  for (const auto& [name, count] : from) into[name] += count;
}

std::size_t CaseIndexOf(const ReportItem& item) { return Number(item.record.as_object(), "case"); }

// The shards' notes once each, in the order first met.
void AddNotes(const std::vector<std::string>& from, std::vector<std::string>& into) {
  for (const auto& note : from) {
    if (std::find(into.begin(), into.end(), note) == into.end()) into.push_back(note);
  }
}

}  // namespace

ReportItem FuzzFindingItem(json::object record) {
  auto verdict = VerdictFromJson(record);
  return FuzzFindingItem(std::move(record), verdict ? std::move(*verdict) : Verdict{});
}

ReportItem FuzzFindingItem(json::object record, Verdict verdict) {
  ReportItem item;
  item.id = Text(record, "check_id");
  const json::object& request = Object(record, "request");
  item.revision = Text(request, "revision");
  item.transport = Text(request, "transport");
  item.verdict = std::move(verdict);
  item.verdict.check_id = item.id;
  item.signature = Text(record, "signature");
  // As the run judged it; `mcpfuzz merge` applies its own --fail-on again.
  item.failing = Flag(record, "fails_run", false);
  item.known = Flag(record, "known", false);
  item.reproducer = Text(record, "reproducer");
  item.exchanges.push_back(
      {record.contains("request") ? record.at("request") : json::value(), nullptr});
  item.case_file = Text(record, "file");
  const bool stable =
      record.contains("stable") && record.at("stable").is_bool() && record.at("stable").as_bool();
  item.facts = {{"family", Text(record, "family")},
                {"variant", Text(record, "variant")},
                {stable ? "stable" : "flaky", std::to_string(Number(record, "reproduced")) + "/" +
                                                  std::to_string(Number(record, "resends"))},
                {"shrunk", std::to_string(Number(record, "shrink_steps")) + " step(s), " +
                               std::to_string(Number(record, "shrink_sends")) + " send(s)"},
                {"repeats", std::to_string(Number(record, "repeats"))},
                {"case", "seed " + std::to_string(Number(record, "seed")) + " case " +
                             std::to_string(Number(record, "case"))}};
  if (const std::string why = Text(record, "file_error"); !why.empty()) {
    item.facts.emplace_back("case not written", why);
  }
  item.record = std::move(record);
  return item;
}

Result<Report> FuzzReportFromJson(const json::value& value) {
  Result<Report> head = detail::ReportHead(value, "mcpfuzz-fuzz-report", ReportKind::kFuzz);
  if (!head) return head.error();
  Report report = std::move(*head);
  const json::object& in = value.as_object();
  report.duration_seconds = Real(in, "elapsed_seconds");
  TargetSection target;
  const json::object& described = Object(in, "target");
  target.description = Text(described, "description");
  target.transport = Text(described, "transport");
  target.stable_name = Text(described, "stable_name");
  for (const json::value& revision : Array(in, "speaks")) {
    if (!revision.is_string()) continue;
    if (auto spoken = ParseRevision(revision.as_string())) target.eras.speaks.push_back(*spoken);
  }
  for (const json::value& revision : Array(in, "undetermined")) {
    if (!revision.is_string()) continue;
    if (auto unsure = ParseRevision(revision.as_string())) {
      target.eras.undetermined.push_back(*unsure);
    }
  }
  target.server_info = detail::ServerInfoFromJson(in);
  for (const json::value& note : Array(in, "notes")) {
    if (note.is_string()) target.notes.emplace_back(note.as_string());
  }
  for (const json::value& record : Array(in, "findings")) {
    if (!record.is_object()) return Error{"a finding is not a JSON object"};
    auto verdict = VerdictFromJson(record.as_object());
    if (!verdict) return Error{"a finding's verdict: " + verdict.error().message};
    target.items.push_back(FuzzFindingItem(record.as_object(), std::move(*verdict)));
  }
  report.targets.push_back(std::move(target));

  FuzzFigures& figures = report.fuzz.emplace();
  if (const json::value* seed = in.if_contains("seed"); seed != nullptr && seed->is_number()) {
    figures.seed = seed->to_number<std::uint64_t>();
  }
  report.shard = Text(in, "shard");
  for (const json::value& revision : Array(in, "revisions")) {
    if (revision.is_string()) figures.revisions.emplace_back(revision.as_string());
  }
  figures.cases = Number(in, "cases");
  figures.generation_failures = Number(in, "generation_failures");
  figures.skipped = Number(in, "skipped");
  const json::object& big_inputs = Object(in, "big_inputs");
  figures.big_input_every = Number(big_inputs, "every");
  figures.big_inputs_held_back = Number(big_inputs, "held_back");
  const json::object& sequences = Object(in, "sequences");
  figures.sequence_every = Number(sequences, "every");
  figures.sequences_held_back = Number(sequences, "held_back");
  const json::object& timing = Object(in, "timing");
  figures.startup_ms = Real(timing, "startup_ms");
  figures.sending_ms = Real(timing, "sending_ms");
  figures.silence_ms = Real(timing, "silence_ms");
  figures.resends_ms = Real(timing, "resends_ms");
  figures.shrinking_ms = Real(timing, "shrinking_ms");
  figures.coverage_ms = Real(timing, "coverage_ms");
  figures.own_cpu_ms = Real(timing, "own_cpu_ms");
  figures.servers_cpu_ms = Real(timing, "servers_cpu_ms");
  figures.elapsed_ms = std::llround(report.duration_seconds * 1000.0);
  figures.sessions_opened = Number(in, "sessions_opened");
  figures.pipelined = Number(in, "pipelined");
  figures.restarts = Number(in, "restarts");
  figures.warm_restarts = Number(in, "warm_restarts");
  figures.cases_per_family = Counts(Object(in, "cases_per_family"));
  figures.cases_per_revision = Counts(Object(in, "cases_per_revision"));
  return report;
}

void SetRunSpan(const std::vector<Report>& shards, Report& merged) {
  merged.started_at = shards.front().started_at;
  merged.duration_seconds = 0;
  merged.stopped_by.clear();
  for (const Report& shard : shards) {
    merged.started_at = std::min(merged.started_at, shard.started_at);
    merged.duration_seconds = std::max(merged.duration_seconds, shard.duration_seconds);
    if (!merged.StoppedEarly()) merged.stopped_by = shard.stopped_by;
  }
}

std::string ShardProblem(const std::vector<std::string>& labels) {
  if (labels.size() == 1 && labels.front().empty()) return {};
  std::set<std::size_t> seen;
  std::size_t count = 0;
  for (const std::string& label : labels) {
    const std::size_t slash = label.find('/');
    std::size_t index = 0;
    std::size_t of = 0;
    try {
      if (slash == std::string::npos) throw std::invalid_argument(label);
      index = std::stoul(label.substr(0, slash));
      of = std::stoul(label.substr(slash + 1));
    } catch (...) {
      return "a report is not one shard of a run (it names no --shard K/N); merge the reports "
             "of all N shards of one run";
    }
    if (count != 0 && of != count) {
      return "the reports are shards of runs split differently (" + std::to_string(count) +
             " and " + std::to_string(of) + " ways)";
    }
    count = of;
    if (!seen.insert(index).second) return "shard " + label + " is given twice";
  }
  for (std::size_t index = 1; index <= count; ++index) {
    if (!seen.contains(index)) {
      return "shard " + std::to_string(index) + "/" + std::to_string(count) + " is missing";
    }
  }
  return {};
}

Result<Report> MergeFuzzReports(const std::vector<Report>& shards) {
  if (shards.empty()) return Error{"no report to merge"};
  std::vector<std::string> labels;
  for (const Report& shard : shards) {
    if (shard.kind != ReportKind::kFuzz || !shard.fuzz || shard.targets.size() != 1) {
      return Error{"not a fuzz report"};
    }
    labels.push_back(shard.shard);
  }
  if (std::string problem = ShardProblem(labels); !problem.empty()) return Error{problem};

  Report merged = shards.front();
  FuzzFigures& figures = *merged.fuzz;
  TargetSection& target = merged.targets.front();
  merged.shard.clear();
  figures = FuzzFigures{};
  figures.seed = shards.front().fuzz->seed;
  figures.revisions = shards.front().fuzz->revisions;
  figures.big_input_every = shards.front().fuzz->big_input_every;
  figures.sequence_every = shards.front().fuzz->sequence_every;
  SetRunSpan(shards, merged);
  target.items.clear();
  target.notes.clear();
  std::map<std::string, ReportItem> findings;  // signature → the finding of the lowest case
  for (const Report& shard : shards) {
    const FuzzFigures& part = *shard.fuzz;
    const TargetSection& section = shard.targets.front();
    // The stable name, not the description: the built-in server's port differs per run.
    if (part.seed != figures.seed || section.stable_name != target.stable_name) {
      return Error{"the reports are not shards of one run: the seed or the target differs"};
    }
    if (part.revisions != figures.revisions || section.eras.speaks != target.eras.speaks) {
      return Error{
          "the reports are not shards of one run: their sessions were opened in different "
          "revisions (--revision, or a target that answered differently), so case i was not "
          "the same case in each"};
    }
    figures.elapsed_ms = std::max(figures.elapsed_ms, part.elapsed_ms);
    figures.cases += part.cases;
    figures.generation_failures += part.generation_failures;
    figures.skipped += part.skipped;
    figures.big_inputs_held_back += part.big_inputs_held_back;
    figures.sequences_held_back += part.sequences_held_back;
    figures.startup_ms += part.startup_ms;
    figures.sending_ms += part.sending_ms;
    figures.silence_ms += part.silence_ms;
    figures.resends_ms += part.resends_ms;
    figures.shrinking_ms += part.shrinking_ms;
    figures.coverage_ms += part.coverage_ms;
    figures.own_cpu_ms += part.own_cpu_ms;
    figures.servers_cpu_ms += part.servers_cpu_ms;
    figures.sessions_opened += part.sessions_opened;
    figures.pipelined += part.pipelined;
    figures.restarts += part.restarts;
    figures.warm_restarts += part.warm_restarts;
    AddCounts(part.cases_per_family, figures.cases_per_family);
    AddCounts(part.cases_per_revision, figures.cases_per_revision);
    AddNotes(section.notes, target.notes);
    // Each shard opened its own sessions; a server names itself alike in each.
    if (!target.server_info) target.server_info = section.server_info;
    for (const ReportItem& item : section.items) {
      const std::string signature = Text(item.record.as_object(), "signature");
      auto [found, inserted] = findings.emplace(signature, item);
      if (inserted) continue;
      ReportItem& kept = found->second;
      const std::size_t repeats = Number(kept.record.as_object(), "repeats") +
                                  Number(item.record.as_object(), "repeats") + 1;
      if (CaseIndexOf(item) < CaseIndexOf(kept)) kept = item;
      kept.record.as_object()["repeats"] = repeats;
    }
  }
  for (auto& [signature, item] : findings) {
    // The facts say the repeats too: the item is made again from its record (and the verdict
    // already read from it).
    const std::string title = item.title;
    item = FuzzFindingItem(std::move(item.record.as_object()), std::move(item.verdict));
    item.title = title;
    target.items.push_back(std::move(item));
  }
  // The unsharded campaign lists findings in the order found (by case index) within each
  // strength and check.
  std::stable_sort(
      target.items.begin(), target.items.end(),
      [](const ReportItem& a, const ReportItem& b) { return CaseIndexOf(a) < CaseIndexOf(b); });
  OrderByStrength(ReportKind::kFuzz, target);
  return merged;
}

}  // namespace mcpfuzz::reports
