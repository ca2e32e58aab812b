#include "cli/survey.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "checks/checks.h"
#include "cli/check.h"
#include "cli/host_limiter.h"
#include "cli/report_files.h"
#include "cli/run_info.h"
#include "cli/run_reports.h"
#include "cli/signals.h"
#include "cli/target.h"
#include "cli/targets_file.h"
#include "reports/terminal.h"
#include "reports/writers.h"
#include "transport/start_gate.h"

namespace mcpfuzz::cli {
namespace {

// The target's name before it is opened: its URL, or the command it starts, as the file says.
std::string NameOf(const TargetSpec& spec) {
  if (spec.kind == TargetSpec::Kind::kHttpUrl) return spec.url;
  std::string command = "stdio:";
  for (const std::string& word : spec.argv) command += " " + word;
  return command;
}

// What the survey's log says of a target once it is done.
std::string Outcome(const reports::TargetSection& section) {
  if (!section.error.empty())
    return "not judged: " + reports::EscapeForTerminal(section.error, 160);
  std::size_t fail = 0, warn = 0;
  for (const auto& item : section.items) {
    fail += item.verdict.kind == VerdictKind::kFail ? 1 : 0;
    warn += item.verdict.kind == VerdictKind::kWarn ? 1 : 0;
  }
  return std::to_string(fail) + " FAIL, " + std::to_string(warn) + " WARN";
}

// A target that was not checked at all, and why.
reports::TargetSection NotChecked(const TargetSpec& spec, std::string why) {
  reports::TargetSection section;
  section.description = NameOf(spec);
  section.transport = spec.kind == TargetSpec::Kind::kHttpUrl ? "http" : "stdio";
  section.error = std::move(why);
  return section;
}

// Checks one target; never throws, so one bad target cannot end the survey.
reports::TargetSection CheckOne(const TargetSpec& spec, const checks::CheckOptions& options,
                                HostLimiter& limiter, const std::string& self_executable) {
  auto target = OpenTarget(spec, self_executable);
  if (!target) return NotChecked(spec, target.error().message);
  reports::RunInfo info = StartRunInfo(**target);
  TransportFactory connect = (*target)->Factory();
  if (spec.kind == TargetSpec::Kind::kHttpUrl) {
    connect = [&, inner = connect,
               host = HostLimiter::HostOf(spec.url)]() -> Result<std::unique_ptr<Transport>> {
      auto transport = inner();
      if (!transport) return transport;
      return LimitedTransport(std::move(*transport), limiter, host);
    };
  }
  const auto start = std::chrono::steady_clock::now();
  checks::CheckRun run = checks::RunChecks(connect, options);
  info.duration_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  reports::TargetSection section = CheckSection(info, run, nullptr);
  if (StopOnSignals::requested()) {
    // The signal ended the exchanges in flight, era detection's too: what they left says
    // nothing of the target, so it is not called unreachable.
    section.notes.push_back("the survey was stopped by signal " +
                            std::to_string(StopOnSignals::signal_number()) +
                            " while this target was checked; the checks not reached are left out");
  } else if (Unreachable(run.eras)) {
    section.error = UnreachableReason(run.eras).substr(std::string_view("the target ").size());
  } else if (run.eras.speaks.empty()) {
    // It answered something, but no revision was agreed (say, an error to the first probe and
    // a timeout to the others): no row of blanks, but why, as `check` says it alone.
    if (auto why = WhyNothingWasJudged(run, section.description)) section.error = why->reason;
  }
  return section;
}

}  // namespace

int SurveyExitCode(const reports::Report& report, bool stopped, std::ostream& err) {
  std::size_t not_judged = 0;
  for (const auto& target : report.targets) {
    if (target.error.empty() || stopped) continue;
    ++not_judged;
    err << "mcpfuzz: " << reports::EscapeForTerminal(target.description, 120)
        << ": not judged: " << reports::EscapeForTerminal(target.error, 400) << "\n";
  }
  if (not_judged > 0) {
    err << "mcpfuzz: " << not_judged << " of " << report.targets.size()
        << " target(s) could not be judged\n";
    return 2;
  }
  return FindingsExitCode(report);
}

int RunSurvey(const CheckSettings& settings, reports::FailOn fail_on, const TargetSpec& defaults,
              const std::string& self_executable, std::ostream& out, std::ostream& err) {
  const auto options = ToCheckOptions(settings);
  if (!options) {
    err << "mcpfuzz: " << options.error().message << "\n";
    return 2;
  }
  std::ifstream file(*settings.targets_file, std::ios::binary);
  if (!file) {
    err << "mcpfuzz: cannot read the targets file " << *settings.targets_file << "\n";
    return 2;
  }
  std::ostringstream text;
  text << file.rdbuf();
  auto specs = ParseTargetsFile(text.str(), defaults);
  if (!specs) {
    err << "mcpfuzz: " << *settings.targets_file << ": " << specs.error().message << "\n";
    return 2;
  }

  reports::Report report;
  report.kind = reports::ReportKind::kSurvey;
  report.tool_version = kToolVersion;
  report.started_at = UtcNow();
  if (settings.shard) {
    // Target j (from 0, in file order) goes to shard j % N + 1: `mcpfuzz merge` puts the rows
    // back in file order from that alone.
    std::vector<TargetSpec> mine;
    for (std::size_t j = settings.shard->index - 1; j < specs->size(); j += settings.shard->count) {
      mine.push_back((*specs)[j]);
    }
    *specs = std::move(mine);
    report.shard =
        std::to_string(settings.shard->index) + "/" + std::to_string(settings.shard->count);
  }
  report.targets.resize(specs->size());
  const auto start = std::chrono::steady_clock::now();

  HostLimiter limiter(settings.host_budget, std::chrono::milliseconds(settings.host_spacing_ms));
  // Opt-in: start-up waits already end on the server's first reply, and measured on 2 cores a
  // gate only slowed surveys that judged alike without it (docs/report-format.md).
  LimitConcurrentStarts(settings.parallel_starts);
  std::atomic<std::size_t> next{0};
  std::mutex print_mutex;
  // Each index is started by one worker and read only after every worker is joined.
  std::vector<char> started(specs->size(), 0);
  auto worker = [&] {
    for (std::size_t i = next++; i < specs->size(); i = next++) {
      // After a signal no target is started; the running ones stop after their exchange in
      // flight (options->stop), so the report below covers what was done.
      if (StopOnSignals::requested()) return;
      started[i] = 1;
      const std::string place =
          "[" + std::to_string(i + 1) + "/" + std::to_string(specs->size()) + "] ";
      if (settings.progress != ProgressMode::kNever) {
        std::lock_guard lock(print_mutex);
        err << place << "checking " << reports::EscapeForTerminal(NameOf((*specs)[i]), 80) << "\n"
            << std::flush;
      }
      const auto began = std::chrono::steady_clock::now();
      report.targets[i] = CheckOne((*specs)[i], *options, limiter, self_executable);
      const auto took = std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::steady_clock::now() - began);
      std::lock_guard lock(print_mutex);
      err << place << reports::EscapeForTerminal(report.targets[i].description, 80) << ": "
          << Outcome(report.targets[i]) << " (" << took.count() << " s)\n"
          << std::flush;
    }
  };
  std::vector<std::thread> workers;
  const std::size_t count = std::min(settings.parallel, specs->size());
  for (std::size_t i = 0; i < count; ++i) workers.emplace_back(worker);
  for (auto& thread : workers) thread.join();
  for (std::size_t i = 0; i < specs->size(); ++i) {
    if (started[i] == 0) {
      report.targets[i] = NotChecked(
          (*specs)[i], "the survey was stopped by signal " +
                           std::to_string(StopOnSignals::signal_number()) + " before it started");
    }
  }
  report.duration_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.stopped_by = StopOnSignals::stopped_by();
  ApplyExitPolicy(report, fail_on, nullptr);

  reports::WriteTerminal(report, out);
  const bool written = WriteReportFiles(report, settings.reports, out, err);
  const int code = SurveyExitCode(report, StopOnSignals::requested(), err);
  return written ? code : 2;
}

}  // namespace mcpfuzz::cli
