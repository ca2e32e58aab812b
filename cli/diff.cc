#include "cli/diff.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <random>

#include "cli/check.h"
#include "cli/report_files.h"
#include "cli/run_info.h"
#include "cli/run_reports.h"
#include "cli/signals.h"
#include "cli/target.h"
#include "cli/targets_file.h"
#include "model/case_file.h"
#include "reports/terminal.h"
#include "reports/writers.h"

namespace mcpfuzz::cli {
namespace {

std::vector<std::string> SplitOnCommas(const std::string& text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) names.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

}  // namespace

Result<TargetSpec> ParseDiffTarget(const std::string& word, const TargetSpec& defaults) {
  if (std::optional<TargetSpec> spec = ParseTargetWord(word, defaults)) {
    if (spec->kind == TargetSpec::Kind::kStdioCommand && spec->argv.empty()) {
      return Error{"'" + word + "' names no command after stdio:"};
    }
    return *spec;
  }
  TargetSpec spec = defaults;
  if (word == "builtin" || word.starts_with("builtin:")) {
    spec.kind = TargetSpec::Kind::kBuiltinHttp;
    spec.faults = SplitOnCommas(word.substr(std::min<std::size_t>(word.size(), 8)));
  } else if (word == "builtin-stdio" || word.starts_with("builtin-stdio:")) {
    spec.kind = TargetSpec::Kind::kBuiltinStdio;
    spec.faults = SplitOnCommas(word.substr(std::min<std::size_t>(word.size(), 14)));
  } else {
    return Error{"'" + word +
                 "' is not a diff TARGET (http://URL, stdio:COMMAND, builtin[:FAULTS], "
                 "builtin-stdio[:FAULTS])"};
  }
  return spec;
}

std::string NotJudgedReason(const DiffResult& result, std::size_t target) {
  if (target >= result.not_judged.size() || result.not_judged[target].empty()) return "";
  // A target that never answered: say why as `check` does (refused, TLS, cannot start, …).
  if (target < result.eras.size() && result.eras[target].speaks.empty() &&
      Unreachable(result.eras[target])) {
    return UnreachableReason(result.eras[target]).substr(std::string_view("the target ").size());
  }
  return result.not_judged[target];
}

reports::Report BuildDiffReport(const DiffResult& result, const DiffOptions& options,
                                const std::vector<std::string>& transports) {
  reports::Report report;
  report.kind = reports::ReportKind::kDiff;
  report.tool_version = kToolVersion;
  report.started_at = UtcNow();
  report.duration_seconds = static_cast<double>(result.elapsed.count()) / 1000.0;
  reports::DiffSection diff;
  diff.seed = options.seed;
  if (result.revision) diff.revision = std::string(ToString(*result.revision));
  diff.cases = result.cases;
  diff.incomparable = result.incomparable;
  if (options.shard_count > 1) {
    diff.shard = std::to_string(options.shard_index) + "/" + std::to_string(options.shard_count);
  }
  for (std::size_t t = 0; t < result.targets.size(); ++t) {
    diff.targets.push_back({result.targets[t], t < transports.size() ? transports[t] : "",
                            t < result.server_info.size() ? result.server_info[t] : std::nullopt,
                            NotJudgedReason(result, t)});
  }
  for (const DiffCheckCount& check : result.checks) {
    diff.checks.push_back({check.check_id, check.cases, check.disagreeing});
  }
  for (const Disagreement& found : result.disagreements) {
    reports::DiffRow row;
    row.check_id = found.check_id;
    row.label = std::string(ToString(found.label));
    row.family = found.family;
    row.variant = found.variant;
    row.revision = std::string(ToString(found.revision));
    row.case_index = found.case_index;
    row.repeats = found.repeats;
    row.shrink_steps = found.shrink_steps;
    if (!found.original_bytes.empty()) row.original_bytes = found.original_bytes.front();
    if (!found.minimal.empty()) {
      row.minimal_bytes = found.minimal.front().WireSize();
      Request shown = found.minimal.front();
      RedactSecrets(shown.headers);
      row.minimal_request = RequestToJson(shown);
    }
    for (const DiffCell& cell : found.cells) {
      std::string provenance;
      if (options.last_is_baseline && row.cells.size() + 1 < found.cells.size()) {
        provenance = cell.inherited ? "inherited" : "own";
      }
      row.cells.push_back({ToString(cell.answer), std::string(ToString(cell.verdict.kind)),
                           cell.accepted, cell.reproducer, std::move(provenance)});
    }
    diff.rows.push_back(std::move(row));
  }
  diff.notes = result.notes;
  diff.baseline = options.last_is_baseline;
  report.diff = std::move(diff);
  return report;
}

int RunDiffCommand(const Options& options, const std::string& self_executable, std::ostream& out,
                   std::ostream& err) {
  std::vector<std::unique_ptr<Target>> opened;
  std::vector<DiffTarget> targets;
  std::vector<std::string> transports;
  std::vector<std::string> words = options.diff_targets;
  if (options.baseline_server) words.push_back(*options.baseline_server);
  for (const std::string& word : words) {
    auto spec = ParseDiffTarget(word, options.target);
    if (!spec) {
      err << "mcpfuzz: " << spec.error().message << "\n";
      return 2;
    }
    auto target = OpenTarget(*spec, self_executable);
    if (!target) {
      err << "mcpfuzz: " << word << ": " << target.error().message << "\n";
      return 2;
    }
    opened.push_back(std::move(*target));
    const bool http =
        spec->kind == TargetSpec::Kind::kHttpUrl || spec->kind == TargetSpec::Kind::kBuiltinHttp;
    transports.emplace_back(http ? "http" : "stdio");
    targets.push_back(DiffTarget{opened.back()->StableName(), opened.back()->Factory(),
                                 opened.back()->ReproduceAt()});
  }
  const FuzzSettings& settings = options.fuzz;
  DiffOptions diff;
  diff.seed = settings.seed ? *settings.seed : std::random_device{}();
  if (settings.cases) diff.max_cases = *settings.cases;
  if (settings.seconds) {
    diff.duration = std::chrono::seconds(*settings.seconds);
    if (!settings.cases) diff.max_cases = std::numeric_limits<std::size_t>::max();
  }
  diff.families = settings.families;
  diff.revision = settings.revision;
  if (settings.shard) {
    diff.shard_index = settings.shard->index;
    diff.shard_count = settings.shard->count;
  }
  diff.stop = &StopOnSignals::requested();
  diff.last_is_baseline = options.baseline_server.has_value();
  err << "mcpfuzz diff: seed " << diff.seed << "\n" << std::flush;

  const DiffResult result = RunDiff(targets, diff);
  reports::Report report = BuildDiffReport(result, diff, transports);
  report.stopped_by = StopOnSignals::stopped_by();
  ApplyExitPolicy(report, options.policy.fail_on, nullptr);
  reports::WriteTerminal(report, out);
  const bool written = WriteReportFiles(report, settings.reports, out, err);
  if (result.unreachable) {
    for (const auto& target : report.diff->targets) {
      if (target.error.empty()) continue;
      err << "mcpfuzz: " << reports::EscapeForTerminal(target.name, 120)
          << ": not judged: " << reports::EscapeForTerminal(target.error, 400) << "\n";
    }
    for (const auto& note : result.notes) err << "mcpfuzz: " << note << "\n";
    return 2;
  }
  if (!written) return 2;
  return FindingsExitCode(report);
}

const char* DiffHelpIntro() {
  return R"(mcpfuzz diff TARGET TARGET... [target options] [diff options]

Sends the same seeded cases to every target and compares the answers: for each case, each
target's answer as (channel, JSON-RPC code, HTTP status). A disagreement is a case whose
answers differ; it is labelled by the oracle's verdict on each side: merely-different (no side
FAILs), some-wrong, all-wrong. Disagreements are deduplicated by check and tuple of answers,
shrunk to the smallest case with the same tuple, and reported as a matrix (checks × targets,
conformant cells marked) with one reproducer per target.

Cases are drawn from what every target shares: the newest revision all of them speak (or
--revision), the capabilities, tools, prompts and resources all of them declare, and the
generator families that apply to every one. Read-only: no real tool is called.

TARGET is one of:
  http://127.0.0.1:PORT/mcp    a Streamable HTTP endpoint
  stdio:COMMAND ARGS           a stdio server (one word: quote it; split on spaces)
  builtin[:FAULT,...]          the built-in reference server over HTTP, with faults
  builtin-stdio[:FAULT,...]    the same over stdio
)";
}

const char* DiffHelpTail() {
  return R"(
Examples:
  mcpfuzz diff builtin builtin:unknown-tool-is-error --seed 1 --cases 200
  mcpfuzz diff 'stdio:node sdk-v1.mjs --stdio' 'stdio:node sdk-v2.mjs --stdio' \
      --report markdown=differences.md

Exit codes: 0 no disagreement with a wrong side (merely different answers are reported but
pass; under --fail-on warn a side that WARNs fails too, under never nothing does), 1 a
disagreement that fails the run, 2 could not run: a target word not understood, a target not
started or reached (each named with why: cannot start, connection refused, TLS failed, …, in
every report), no revision every target speaks, a report not written.
)";
}

}  // namespace mcpfuzz::cli
