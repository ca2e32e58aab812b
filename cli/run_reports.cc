#include "cli/run_reports.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "campaign/finding_file.h"
#include "model/case_file.h"
#include "reports/merge.h"

namespace mcpfuzz::cli {
namespace {

using reports::BaselineEntry;
using reports::ReportItem;

double Seconds(std::chrono::microseconds elapsed) {
  return static_cast<double>(elapsed.count()) / 1e6;
}

Request Redacted(Request request) {
  RedactSecrets(request.headers);
  return request;
}

Observation Redacted(Observation observation) {
  RedactSecrets(observation.http_headers);
  return observation;
}

std::string TitleOf(const std::string& id) {
  for (const auto& info : checks::AllChecks()) {
    if (info.id == id) return std::string(info.title);
  }
  return {};
}

ReportItem CheckItem(const checks::CheckResult& result, const reports::RunInfo& info) {
  ReportItem item;
  item.id = result.verdict.check_id;
  item.title = TitleOf(item.id);
  item.revision = ToString(result.revision);
  item.transport = ToString(result.transport);
  item.verdict = result.verdict;
  item.judged = result.judged;
  item.reproducer = checks::Reproducer(result, info.reproducer_target);
  for (const auto& exchange : result.exchanges) {
    item.exchanges.push_back({RequestToJson(Redacted(exchange.request)),
                              ObservationToJson(Redacted(exchange.observation))});
    item.seconds += Seconds(exchange.observation.elapsed);
  }
  return item;
}

ReportItem FuzzItem(const CampaignFinding& finding, const CampaignOptions& options) {
  // The case file the campaign wrote, less its credentials (a generator may have copied one
  // into a request), and what the report adds to it: the item is made from that record alone,
  // as `mcpfuzz merge` makes it from the report (reports/merge.h).
  FindingRecord record = RecordOf(finding, options.seed);
  record.request = Redacted(std::move(record.request));
  if (record.campaign && record.campaign->original) {
    record.campaign->original = Redacted(std::move(*record.campaign->original));
  }
  boost::json::object json = FindingToJson(record).as_object();
  json["file"] = finding.file.string();
  json["repeats"] = finding.repeats;
  json["shrink_sends"] = finding.shrink_sends;
  if (!finding.file_error.empty()) json["file_error"] = finding.file_error;
  ReportItem item = reports::FuzzFindingItem(std::move(json));
  item.title = TitleOf(item.id);
  return item;
}

// `transport` is the target's: a case file is sent again over whatever the target speaks.
ReportItem ReplayItem(const ReplayedCase& replayed, const std::string& transport) {
  ReportItem item;
  item.id = replayed.check_id;
  item.title = TitleOf(item.id);
  if (replayed.revision) {
    item.revision = ToString(*replayed.revision);
    item.transport = transport;
  }
  item.case_file = replayed.file.string();
  item.signature = replayed.signature;
  if (replayed.verdict) {
    item.verdict = *replayed.verdict;
  } else {
    // The case could not be judged: nothing was seen of the server's answer.
    item.verdict.check_id = replayed.check_id;
    item.verdict.kind = VerdictKind::kUnverified;
    item.verdict.unverified_reason = UnverifiedReason::kTransportError;
  }
  if (!replayed.error.empty()) item.verdict.notes.push_back(replayed.error);
  const bool warns = item.verdict.kind == VerdictKind::kWarn;
  const std::string state = !replayed.error.empty()         ? "error"
                            : replayed.still_fails && warns ? "still warns"
                            : replayed.still_fails          ? "still fails"
                                                            : "fixed";
  item.facts = {{"replay", state}};
  if (replayed.still_fails) {
    item.facts.emplace_back("signature", replayed.same_signature ? "same" : "different");
  }
  return item;
}

reports::TargetSection SectionFor(const reports::RunInfo& info) {
  reports::TargetSection section;
  section.description = info.target;
  section.stable_name = info.stable_target.empty() ? info.target : info.stable_target;
  section.transport = ToString(info.reproducer_target.kind);
  return section;
}

reports::Report Empty(reports::ReportKind kind, const reports::RunInfo& info) {
  reports::Report report;
  report.kind = kind;
  report.tool_version = info.tool_version;
  report.started_at = info.started_at;
  report.duration_seconds = info.duration_seconds;
  return report;
}

bool Contains(const std::vector<BaselineEntry>& entries, const BaselineEntry& entry) {
  return std::find(entries.begin(), entries.end(), entry) != entries.end();
}

BaselineEntry EntryOf(const checks::CheckResult& result) {
  return {result.verdict.check_id, result.revision, result.transport, ""};
}

// The entry of a check item, as its report spells it.
BaselineEntry EntryOf(const ReportItem& item) {
  BaselineEntry entry;
  entry.id = item.id;
  entry.revision = ParseRevision(item.revision).value_or(kLatestRevision);
  entry.transport = item.transport == "stdio" ? TransportKind::kStdio : TransportKind::kHttp;
  return entry;
}

BaselineEntry FindingEntryOf(const ReportItem& item) {
  BaselineEntry entry;
  entry.id = item.id;
  entry.signature = item.signature;
  return entry;
}

std::size_t NumberIn(const boost::json::value& record, std::string_view key) {
  const boost::json::value* value = record.as_object().if_contains(key);
  return value != nullptr && value->is_int64() ? static_cast<std::size_t>(value->as_int64()) : 0;
}

// A fuzz finding that none of its re-sends showed again is reported (labelled flaky), but one
// unlucky exchange does not fail a pipeline by itself. With no re-send asked for, there is
// nothing to tell it by, so it counts.
bool SeenAgain(const ReportItem& item) {
  if (!item.record.is_object()) return true;
  return NumberIn(item.record, "resends") == 0 || NumberIn(item.record, "reproduced") > 0;
}

}  // namespace

reports::TargetSection CheckSection(const reports::RunInfo& info, const checks::CheckRun& run,
                                    const reports::BaselineComparison* baseline) {
  reports::TargetSection section = SectionFor(info);
  section.eras = run.eras;
  section.server_info = run.server_info;
  for (const auto& result : run.results) section.items.push_back(CheckItem(result, info));
  for (const auto& control : run.handshake_controls) {
    section.handshake_controls.push_back({control.revision, control.pre_init});
  }
  section.notes = run.notes;
  if (baseline != nullptr) section.baseline = *baseline;
  return section;
}

reports::Report BuildCheckReport(const reports::RunInfo& info, const checks::CheckRun& run,
                                 const reports::BaselineComparison* baseline) {
  reports::Report report = Empty(reports::ReportKind::kCheck, info);
  report.targets.push_back(CheckSection(info, run, baseline));
  ApplyExitPolicy(report, reports::FailOn::kFail, nullptr);
  return report;
}

reports::Report BuildFuzzReport(const reports::RunInfo& info, const CampaignOptions& options,
                                const CampaignResult& result) {
  reports::Report report = Empty(reports::ReportKind::kFuzz, info);
  auto ms = [](std::chrono::microseconds part) { return static_cast<double>(part.count()) / 1e3; };
  const CampaignTiming& timing = result.timing;
  reports::FuzzFigures& figures = report.fuzz.emplace();
  figures.seed = options.seed;
  figures.cases = result.cases;
  figures.generation_failures = result.generation_failures;
  figures.skipped = result.skipped;
  figures.big_input_every = options.big_input_every;
  figures.big_inputs_held_back = result.big_inputs_held_back;
  figures.sequence_every = options.sequence_every;
  figures.sequences_held_back = result.sequences_held_back;
  figures.startup_ms = ms(timing.startup);
  figures.sending_ms = ms(timing.sending);
  figures.silence_ms = ms(timing.silence);
  figures.resends_ms = ms(timing.resends);
  figures.shrinking_ms = ms(timing.shrinking);
  figures.coverage_ms = ms(timing.coverage);
  figures.own_cpu_ms = ms(timing.own_cpu);
  figures.servers_cpu_ms = ms(timing.servers_cpu);
  figures.elapsed_ms = result.elapsed.count();
  figures.sessions_opened = result.sessions_opened;
  figures.pipelined = result.pipelined;
  figures.restarts = result.restarts;
  figures.warm_restarts = result.warm_restarts;
  if (result.coverage) {
    reports::FuzzCoverage& coverage = figures.coverage.emplace();
    coverage.off = result.coverage->off;
    coverage.blocks = result.coverage->blocks;
    coverage.in_node_modules = result.coverage->in_node_modules;
    coverage.takes = result.coverage->takes;
    coverage.missed = result.coverage->missed;
    for (const CampaignCoverage::Step& step : result.coverage->growth) {
      coverage.growth.emplace_back(step.cases, step.blocks);
    }
    for (const coverage::ScriptCoverage& script : result.coverage->scripts) {
      coverage.scripts.push_back({script.url, script.blocks, script.in_node_modules});
    }
    coverage.unstable = result.coverage->unstable;
    coverage.steered = result.coverage->steered;
    coverage.mutants = result.coverage->mutants;
    for (const CampaignCoverage::Entry& entry : result.coverage->corpus) {
      coverage.corpus.push_back({entry.case_index, entry.family, entry.variant, entry.blocks,
                                 entry.new_answer, entry.mutants});
    }
  }
  figures.cases_per_family = result.cases_per_family;
  figures.cases_per_revision = result.cases_per_revision;
  for (Revision revision : result.revisions) figures.revisions.emplace_back(ToString(revision));
  if (options.shard_count > 1) {
    report.shard = std::to_string(options.shard_index) + "/" + std::to_string(options.shard_count);
  }
  reports::TargetSection section = SectionFor(info);
  section.eras = result.eras;
  section.server_info = result.server_info;
  section.notes = result.notes;
  for (const std::string& family : result.real_tool_families_left_out) {
    section.notes.push_back("the " + family +
                            " family was left out: it calls the target's real tools, which "
                            "--call-real-tools allows");
  }
  for (const auto& finding : result.findings) section.items.push_back(FuzzItem(finding, options));
  reports::OrderByStrength(reports::ReportKind::kFuzz, section);
  report.targets.push_back(std::move(section));
  ApplyExitPolicy(report, reports::FailOn::kFail, nullptr);
  return report;
}

reports::Report BuildReplayReport(const reports::RunInfo& info, const ReplayResult& result) {
  reports::Report report = Empty(reports::ReportKind::kReplay, info);
  reports::TargetSection section = SectionFor(info);
  for (const auto& replayed : result.cases) {
    section.items.push_back(ReplayItem(replayed, section.transport));
  }
  reports::OrderByStrength(reports::ReportKind::kReplay, section);
  report.targets.push_back(std::move(section));
  ApplyExitPolicy(report, reports::FailOn::kFail, nullptr);
  return report;
}

reports::Baseline BaselineOf(const checks::CheckRun& run, reports::FailOn fail_on) {
  reports::Baseline baseline;
  for (const auto& result : run.results) {
    BaselineEntry entry = EntryOf(result);
    if (reports::FailsRun(result.verdict.kind, fail_on) &&
        !Contains(baseline.known_failures, entry)) {
      baseline.known_failures.push_back(std::move(entry));
    }
  }
  return baseline;
}

reports::BaselineComparison Compare(const checks::CheckRun& run, const reports::Baseline& baseline,
                                    reports::FailOn fail_on) {
  reports::BaselineComparison comparison;
  std::vector<BaselineEntry> failing;
  std::vector<BaselineEntry> judged;
  for (const auto& result : run.results) {
    const VerdictKind kind = result.verdict.kind;
    if (kind == VerdictKind::kPass || kind == VerdictKind::kWarn || kind == VerdictKind::kFail) {
      judged.push_back(EntryOf(result));
    }
    if (!reports::FailsRun(kind, fail_on)) continue;
    BaselineEntry entry = EntryOf(result);
    if (Contains(failing, entry)) continue;
    failing.push_back(entry);
    (Contains(baseline.known_failures, entry) ? comparison.still_failing : comparison.new_failures)
        .push_back(std::move(entry));
  }
  for (const auto& known : baseline.known_failures) {
    if (Contains(failing, known)) continue;
    // A known failure is fixed only where this run judged it again: `--only`, `--revision`, a
    // target that lost an era or a check that could not be verified say nothing about it.
    (Contains(judged, known) ? comparison.no_longer_failing : comparison.not_run).push_back(known);
  }
  return comparison;
}

void ApplyExitPolicy(reports::Report& report, reports::FailOn fail_on,
                     const reports::Baseline* baseline) {
  report.fail_on = fail_on;
  const bool findings =
      report.kind == reports::ReportKind::kFuzz || report.kind == reports::ReportKind::kReplay;
  if (findings && baseline != nullptr) report.baseline.emplace();
  std::vector<BaselineEntry> seen;
  for (reports::TargetSection& target : report.targets) {
    for (ReportItem& item : target.items) {
      const bool finding = reports::IsFinding(report.kind, item);
      item.known = false;
      if (finding && baseline != nullptr && !item.signature.empty()) {
        const BaselineEntry entry = FindingEntryOf(item);
        item.known = Contains(baseline->known_findings, entry);
        if (!Contains(seen, entry)) seen.push_back(entry);
      } else if (!findings && target.baseline) {
        item.known = Contains(target.baseline->still_failing, EntryOf(item));
      }
      // In a replay only a case that still fails counts: one that could not be sent again is
      // an error, which exits 2 by itself.
      const bool counts = report.kind != reports::ReportKind::kReplay || finding;
      item.failing = counts &&
                     reports::FailsRun(reports::FindingSeverity(item, finding), fail_on) &&
                     !item.known && SeenAgain(item);
      if (finding && report.baseline && !item.signature.empty()) {
        if (item.known) {
          report.baseline->still_failing.push_back(FindingEntryOf(item));
        } else if (item.failing) {
          report.baseline->new_failures.push_back(FindingEntryOf(item));
        }
      }
    }
  }
  if (!report.baseline) return;
  for (const BaselineEntry& listed : baseline->known_findings) {
    if (!Contains(seen, listed)) report.baseline->stale.push_back(listed);
  }
}

reports::Baseline FindingsBaselineOf(const reports::Report& report) {
  reports::Baseline baseline;
  for (const reports::TargetSection& target : report.targets) {
    for (const ReportItem& item : target.items) {
      if (!reports::IsFinding(report.kind, item) || item.signature.empty() ||
          !reports::FailsRun(reports::FindingSeverity(item, true), report.fail_on)) {
        continue;
      }
      BaselineEntry entry = FindingEntryOf(item);
      if (!Contains(baseline.known_findings, entry)) baseline.known_findings.push_back(entry);
    }
  }
  return baseline;
}

int FindingsExitCode(const reports::Report& report) {
  if (report.fail_on == reports::FailOn::kNever) return 0;
  for (const reports::TargetSection& target : report.targets) {
    if (target.baseline && !target.baseline->no_longer_failing.empty()) return 1;
  }
  return reports::FailingCount(report) > 0 ? 1 : 0;
}

}  // namespace mcpfuzz::cli
