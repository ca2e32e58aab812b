// The JSON writer: the check and fuzz documents keep their version-1 members exactly;
// replay and survey documents are new formats (docs/report-format.md).

#include <boost/json/serialize.hpp>
#include <cstdint>

#include "model/json_build.h"
#include "model/pretty_json.h"
#include "oracles/verdict_json.h"
#include "reports/detail/server_info_json.h"
#include "reports/detail/stopped_early.h"
#include "reports/escape.h"
#include "reports/sdk_fingerprints.h"
#include "reports/survey.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

namespace json = boost::json;

json::value Nullable(std::optional<std::int64_t> value) {
  return value ? json::value(*value) : json::value(nullptr);
}
json::value Status(int status) { return status == 0 ? json::value(nullptr) : json::value(status); }

// Whether the item fails the run under --fail-on, and whether a baseline knows it.
void AddPolicyJson(const ReportItem& item, json::object& out) {
  out["fails_run"] = item.failing;
  if (item.known) out["known"] = true;
}

json::value ComparisonJson(const BaselineComparison& baseline) {
  json::object out{{"new_failures", JsonNames(baseline.new_failures)},
                   {"no_longer_failing", JsonNames(baseline.no_longer_failing)},
                   {"still_failing", JsonNames(baseline.still_failing)},
                   {"not_run", JsonNames(baseline.not_run)}};
  if (!baseline.stale.empty()) out["stale"] = JsonNames(baseline.stale);
  return out;
}

json::object ItemJson(const ReportItem& item) {
  json::object out{{"id", item.id}, {"revision", item.revision}, {"transport", item.transport}};
  AddVerdictJson(item.verdict, out);
  if (!item.reproducer.empty()) out["reproducer"] = item.reproducer;
  json::array exchanges;
  for (const auto& exchange : item.exchanges) {
    exchanges.push_back({{"request", exchange.request}, {"observation", exchange.observation}});
  }
  out["exchanges"] = std::move(exchanges);
  out["judged"] = item.judged;
  AddPolicyJson(item, out);
  return out;
}

// What a stdio server wrote last to stderr, as the terminal shows it under the exit reason:
// why a server that could not be reached exited is usually there.
json::array StderrTailJson(std::string_view tail) {
  json::array lines;
  for (const std::string_view line : LastLines(tail, kStderrTailLines))
    lines.push_back(json::value(Visible(line)));
  return lines;
}

json::value ErasJson(const EraReport& eras) {
  json::array attempts;
  for (const EraAttempt& attempt : eras.attempts) {
    attempts.push_back(
        {{"asked", ToString(attempt.asked)},
         {"method", attempt.method},
         {"channel", ToString(attempt.channel)},
         {"supported_versions", JsonArray(attempt.supported_versions)},
         {"note", attempt.note},
         {"error_code", Nullable(attempt.error_code)},
         {"http_status", Status(attempt.http_status)},
         {"answered", attempt.answered ? json::value(ToString(*attempt.answered)) : nullptr},
         {"timed_out", attempt.timed_out ? json::value(ToString(*attempt.timed_out)) : nullptr},
         {"asked_times", attempt.asked_times},
         {"stderr_tail", StderrTailJson(attempt.stderr_tail)}});
  }
  return {{"speaks", JsonNames(eras.speaks)},
          {"undetermined", JsonNames(eras.undetermined)},
          {"attempts", std::move(attempts)}};
}

json::value CountsJson(const VerdictCounts& counts) {
  return {{"pass", counts.pass},
          {"warn", counts.warn},
          {"fail", counts.fail},
          {"unverified", counts.unverified},
          {"not_applicable", counts.not_applicable}};
}

json::object Header(const Report& report, std::string_view format, const TargetSection* target) {
  json::object out{{"format", format},
                   {"version", 1},
                   {"tool", {{"name", "mcpfuzz"}, {"version", report.tool_version}}}};
  if (target != nullptr) {
    out["target"] = {{"description", target->description}, {"transport", target->transport}};
  }
  out["started_at"] = report.started_at;
  out["fail_on"] = ToString(report.fail_on);
  detail::AddStoppedEarlyJson(report, out);
  return out;
}

// The check report's own members, also one target's entry in a survey.
void AddCheckMembers(const TargetSection& target, json::object& out) {
  out["eras"] = ErasJson(target.eras);
  out["server_info"] = detail::ServerInfoToJson(target.server_info);
  out["summary"] = CountsJson(Count(target.items));
  json::array checks;
  for (const auto& item : target.items) checks.push_back(ItemJson(item));
  out["checks"] = std::move(checks);
  json::array controls;
  for (const auto& control : target.handshake_controls) {
    controls.push_back({{"revision", ToString(control.revision)},
                        {"rejects_pre_init", ToString(control.pre_init.rejects)},
                        {"grounds", ToString(control.pre_init.grounds)},
                        {"reason", control.pre_init.reason}});
  }
  out["handshake_controls"] = std::move(controls);
  out["notes"] = JsonArray(target.notes);
  if (target.baseline) out["baseline"] = ComparisonJson(*target.baseline);
}

json::object CheckJson(const Report& report) {
  const TargetSection& target = report.targets.at(0);
  json::object out = Header(report, "mcpfuzz-check-report", &target);
  out["duration_seconds"] = report.duration_seconds;
  AddCheckMembers(target, out);
  return out;
}

json::object CoverageJson(const FuzzCoverage& coverage) {
  json::object out;
  if (!coverage.off.empty()) {
    out["off"] = coverage.off;
    return out;
  }
  out["blocks"] = coverage.blocks;
  out["in_node_modules"] = coverage.in_node_modules;
  out["takes"] = coverage.takes;
  out["missed_takes"] = coverage.missed;
  json::array growth;
  for (const auto& [cases, blocks] : coverage.growth) growth.push_back({cases, blocks});
  out["growth"] = std::move(growth);
  json::array scripts;
  for (const auto& script : coverage.scripts) {
    scripts.push_back(json::object{{"url", script.url},
                                   {"blocks", script.blocks},
                                   {"in_node_modules", script.in_node_modules}});
  }
  out["scripts"] = std::move(scripts);
  out["unstable_blocks"] = coverage.unstable;
  out["steered"] = coverage.steered;
  if (coverage.steered) {
    out["mutants"] = coverage.mutants;
    json::array corpus;
    for (const auto& entry : coverage.corpus) {
      corpus.push_back(json::object{{"case", entry.case_index},
                                    {"family", entry.family},
                                    {"variant", entry.variant},
                                    {"blocks", entry.blocks},
                                    {"new_answer", entry.new_answer},
                                    {"mutants", entry.mutants}});
    }
    out["corpus"] = std::move(corpus);
  }
  return out;
}

json::object FuzzJson(const Report& report) {
  const TargetSection& target = report.targets.at(0);
  const FuzzFigures figures = report.fuzz.value_or(FuzzFigures{});
  json::object out = Header(report, "mcpfuzz-fuzz-report", &target);
  // What `mcpfuzz merge` needs to write the SARIF fingerprints the unsharded run writes.
  out["target"].as_object()["stable_name"] = target.stable_name;
  out["seed"] = figures.seed;
  if (!report.shard.empty()) out["shard"] = report.shard;
  out["revisions"] = JsonArray(figures.revisions);
  out["cases"] = figures.cases;
  out["generation_failures"] = figures.generation_failures;
  out["skipped"] = figures.skipped;
  out["big_inputs"] = {{"every", figures.big_input_every},
                       {"held_back", figures.big_inputs_held_back}};
  out["sequences"] = {{"every", figures.sequence_every},
                      {"held_back", figures.sequences_held_back}};
  out["elapsed_seconds"] = report.duration_seconds;
  out["cases_per_second"] = report.duration_seconds > 0
                                ? static_cast<double>(figures.cases) / report.duration_seconds
                                : 0.0;
  auto counts = [](const std::map<std::string, std::size_t>& by) {
    json::object object;
    for (const auto& [name, count] : by) object[name] = count;
    return object;
  };
  out["cases_per_family"] = counts(figures.cases_per_family);
  out["cases_per_revision"] = counts(figures.cases_per_revision);
  out["speaks"] = JsonNames(target.eras.speaks);
  out["undetermined"] = JsonNames(target.eras.undetermined);
  out["server_info"] = detail::ServerInfoToJson(target.server_info);
  // Whole milliseconds: the figures are for people and benchmarks, not for arithmetic.
  auto ms = [](double value) { return static_cast<std::int64_t>(value + 0.5); };
  out["timing"] = {
      {"startup_ms", ms(figures.startup_ms)},        {"sending_ms", ms(figures.sending_ms)},
      {"silence_ms", ms(figures.silence_ms)},        {"resends_ms", ms(figures.resends_ms)},
      {"shrinking_ms", ms(figures.shrinking_ms)},    {"own_cpu_ms", ms(figures.own_cpu_ms)},
      {"servers_cpu_ms", ms(figures.servers_cpu_ms)}};
  if (figures.coverage) out["timing"].as_object()["coverage_ms"] = ms(figures.coverage_ms);
  out["sessions_opened"] = figures.sessions_opened;
  out["pipelined"] = figures.pipelined;
  out["restarts"] = figures.restarts;
  out["warm_restarts"] = figures.warm_restarts;
  if (figures.coverage) out["coverage"] = CoverageJson(*figures.coverage);
  json::array findings;
  for (const auto& item : target.items) {
    json::object record = item.record.is_object() ? item.record.as_object() : json::object{};
    AddPolicyJson(item, record);
    findings.push_back(std::move(record));
  }
  out["findings"] = std::move(findings);
  if (report.baseline) out["baseline"] = ComparisonJson(*report.baseline);
  out["notes"] = JsonArray(target.notes);
  return out;
}

json::object ReplayJson(const Report& report) {
  const TargetSection& target = report.targets.at(0);
  json::object out = Header(report, "mcpfuzz-replay-report", &target);
  out["duration_seconds"] = report.duration_seconds;
  out["still_failing"] = FailingCount(report);
  json::array cases;
  for (const auto& item : target.items) {
    json::object entry = ItemJson(item);
    entry["file"] = item.case_file;
    entry["still_fails"] = Fact(item, "replay").starts_with("still");
    for (const auto& [name, value] : item.facts) entry[name] = value;
    cases.push_back(std::move(entry));
  }
  out["cases"] = std::move(cases);
  if (report.baseline) out["baseline"] = ComparisonJson(*report.baseline);
  return out;
}

json::array Indices(const std::vector<std::size_t>& targets) {
  json::array out;
  for (std::size_t t : targets) out.push_back(t);
  return out;
}

json::object SurveyJson(const Report& report) {
  json::object out = Header(report, "mcpfuzz-survey-report", nullptr);
  out["duration_seconds"] = report.duration_seconds;
  if (!report.shard.empty()) out["shard"] = report.shard;
  const FingerprintTable& fingerprints = KnownSdkFingerprints();
  const SurveyTables tables = Tabulate(report, fingerprints);
  const SurveyCensus& census = tables.census;
  out["census"] = {{"targets", census.targets},
                   {"reached", census.reached},
                   {"with_fail", census.with_fail},
                   {"not_judged", census.not_judged},
                   {"text", CensusText(census)}};
  out["summary"] = CountsJson(Count(report));
  json::array per_check;
  for (const auto& row : tables.per_check) {
    json::object entry{{"id", row.id}};
    entry["servers"] = CountsJson(row.counts);
    per_check.push_back(std::move(entry));
  }
  out["per_check"] = std::move(per_check);
  json::array deviating;
  for (const DeviatingCheck& check : tables.deviating) {
    deviating.push_back({{"id", check.id},
                         {"failing", Indices(check.failing)},
                         {"warning", Indices(check.warning)}});
  }
  out["deviating_checks"] = std::move(deviating);
  const UnknownToolTable& unknown = tables.unknown_tool;
  out["unknown_tool"] = {{"verified", unknown.verified},
                         {"observed_risk", unknown.observed_risk},
                         {"unverified", unknown.unverified},
                         {"not_checked", unknown.not_checked},
                         {"observed_risk_shapes",
                          {{"is_error_result", unknown.is_error_result},
                           {"result_without_is_error", unknown.result_without_is_error},
                           {"not_json_rpc", unknown.not_json_rpc},
                           {"other", unknown.other_risk}}}};
  json::array targets;
  for (std::size_t t = 0; t < report.targets.size(); ++t) {
    const TargetSection& target = report.targets[t];
    const ServerRow& row = tables.servers[t];
    json::object entry{{"description", target.description},
                       {"stable_name", target.stable_name},
                       {"transport", target.transport},
                       {"name", row.name},
                       {"reached", row.reached},
                       {"fail_checks", row.fail_checks},
                       {"warn_checks", row.warn_checks}};
    if (!target.error.empty()) entry["error"] = target.error;
    AddCheckMembers(target, entry);
    // Each deviation's fingerprint, as scripts/sdk-fingerprints.sh gathers them from the SDK
    // servers, so a reader can see why one was or was not called inherited.
    json::array& checks = entry["checks"].as_array();
    for (std::size_t i = 0; i < target.items.size(); ++i) {
      if (std::string print = Fingerprint(target.items[i]); !print.empty()) {
        checks[i].as_object()["fingerprint"] = std::move(print);
      }
    }
    json::array inherited;
    for (const InheritedCheck& check : row.inherited) {
      json::array sdks;
      for (const std::string& id : check.sdks) sdks.emplace_back(id);
      inherited.push_back({{"check", check.check}, {"sdks", std::move(sdks)}});
    }
    entry["likely_inherited"] = std::move(inherited);
    targets.push_back(std::move(entry));
  }
  out["targets"] = std::move(targets);
  return out;
}

}  // namespace

json::value ReportToJson(const Report& report) {
  json::value out;
  switch (report.kind) {
    case ReportKind::kCheck:
      out = CheckJson(report);
      break;
    case ReportKind::kFuzz:
      out = FuzzJson(report);
      break;
    case ReportKind::kReplay:
      out = ReplayJson(report);
      break;
    case ReportKind::kSurvey:
      out = SurveyJson(report);
      break;
    case ReportKind::kDiff:
      out = DiffToJson(report);
      break;
  }
  MakeJsonStringsValidUtf8(out);
  return out;
}

void WriteJson(const Report& report, std::ostream& out) { out << PrettyJson(ReportToJson(report)); }

}  // namespace mcpfuzz::reports
