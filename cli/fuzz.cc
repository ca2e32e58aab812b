#include "cli/fuzz.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>

#include "campaign/campaign.h"
#include "cli/check.h"
#include "cli/coverage_report.h"
#include "cli/progress.h"
#include "cli/report_files.h"
#include "cli/run_info.h"
#include "cli/run_reports.h"
#include "cli/signals.h"
#include "generators/registry.h"
#include "reports/terminal.h"
#include "reports/writers.h"

namespace mcpfuzz::cli {
CampaignOptions ToCampaignOptions(const FuzzSettings& settings, ReproducerTarget reproducer) {
  CampaignOptions options;
  // A fixed default would send the same cases every night; a fresh seed explores, and the
  // printed seed replays. 32 bits: small enough to type, exact in every JSON reader.
  options.seed = settings.seed ? *settings.seed : std::random_device{}();
  if (settings.cases) {
    options.max_cases = *settings.cases;
  } else if (settings.seconds) {
    options.max_cases = std::numeric_limits<std::size_t>::max();
  }
  if (settings.seconds) options.duration = std::chrono::seconds(*settings.seconds);
  options.families = settings.families;
  if (settings.resends) options.resends = *settings.resends;
  if (settings.corpus_dir) options.corpus_dir = *settings.corpus_dir;
  options.revision = settings.revision;
  options.call_real_tools = settings.call_real_tools;
  options.coverage = settings.coverage;
  if (settings.max_request_bytes) options.max_request_bytes = *settings.max_request_bytes;
  if (settings.big_input_every) options.big_input_every = *settings.big_input_every;
  if (settings.sequence_every) options.sequence_every = *settings.sequence_every;
  if (settings.concurrency) options.concurrency = *settings.concurrency;
  if (settings.shard) {
    options.shard_index = settings.shard->index;
    options.shard_count = settings.shard->count;
  }
  options.reproducer = std::move(reproducer);
  options.stop = &StopOnSignals::requested();
  return options;
}

void ListFamilies(std::ostream& out) {
  std::size_t width = 0;
  for (const auto& family : gen::AllFamilies()) width = std::max(width, family.name.size() + 2);
  for (const auto& family : gen::AllFamilies()) {
    out << reports::Pad(family.name, width) << family.description
        << (family.calls_real_tools ? " (calls real tools: only with --call-real-tools)" : "")
        << "\n";
  }
}

namespace {

// Reads `--baseline` into `baseline`; says why not on `err`.
bool ReadBaselineOf(const ExitPolicy& policy, std::optional<reports::Baseline>& baseline,
                    std::ostream& err) {
  if (!policy.baseline) return true;
  auto read = ReadBaseline(*policy.baseline);
  if (!read) {
    err << "mcpfuzz: " << read.error().message << "\n";
    return false;
  }
  baseline = std::move(*read);
  return true;
}

// The report under the policy, printed and written.
bool Publish(reports::Report& report, const ExitPolicy& policy,
             const std::optional<reports::Baseline>& baseline,
             const std::vector<ReportFile>& report_files, std::ostream& out, std::ostream& err) {
  report.stopped_by = StopOnSignals::stopped_by();
  ApplyExitPolicy(report, policy.fail_on, baseline ? &*baseline : nullptr);
  reports::WriteTerminal(report, out);
  return WriteReportFiles(report, report_files, out, err);
}

// What a run that judged exits with: the policy's 0 or 1; with --write-baseline, 0 once it is
// written (it records what fails today; the next run accepts it). Only a run that judged, and
// ran to its end, writes one: an empty or partial baseline would replace a good one.
int JudgedExitCode(const reports::Report& report, const ExitPolicy& policy, std::ostream& out,
                   std::ostream& err) {
  if (!policy.write_baseline) return FindingsExitCode(report);
  if (StopOnSignals::requested()) {
    err << "mcpfuzz: stopped early: " << *policy.write_baseline << " left as it was\n";
    return FindingsExitCode(report);
  }
  return WriteBaseline(*policy.write_baseline, FindingsBaselineOf(report), out, err) ? 0 : 2;
}

}  // namespace

int RunFuzz(const FuzzSettings& settings, const ExitPolicy& policy, Target& target,
            std::ostream& out, std::ostream& err) {
  std::optional<reports::Baseline> baseline;
  if (!ReadBaselineOf(policy, baseline, err)) return 2;
  for (const auto& name : settings.families) {
    if (gen::FindFamily(name) == nullptr) {
      err << "mcpfuzz: no generator family is named '" << name
          << "'; `mcpfuzz fuzz --list-families` lists them\n";
      return 2;
    }
  }
  if (settings.lcov_path && settings.coverage == CoverageUse::kOff) {
    err << "mcpfuzz: --coverage-report needs --coverage or --coverage-measure\n";
    return 2;
  }
  const CampaignOptions options = ToCampaignOptions(settings, target.ReproduceAt());
  reports::RunInfo info = StartRunInfo(target);
  // The seed comes first, so even a run that is killed can be replayed.
  err << "mcpfuzz fuzz: seed " << options.seed << "\n" << std::flush;

  ProgressLine line(settings.progress, ::isatty(STDERR_FILENO) == 1, err);
  CampaignResult result = RunCampaign(target.Factory(), options, [&](const CampaignProgress& now) {
    line.Show(DescribeProgress(now));
  });
  line.Finish();
  for (std::string& note : target.Notes()) result.notes.push_back(std::move(note));

  info.duration_seconds = static_cast<double>(result.elapsed.count()) / 1000.0;
  reports::Report report = BuildFuzzReport(info, options, result);
  bool written = Publish(report, policy, baseline, settings.reports, out, err);
  for (const auto& finding : result.findings) {
    if (!options.corpus_dir.empty() && finding.file.empty()) written = false;
  }
  if (settings.lcov_path && result.coverage && result.coverage->off.empty()) {
    auto lcov = WriteLcov(result.coverage->scripts, *settings.lcov_path);
    if (lcov.ok()) {
      err << "coverage report: lcov " << *settings.lcov_path << " (" << *lcov << " scripts)\n";
    } else {
      err << "mcpfuzz: " << lcov.error().message << "\n";
      written = false;
    }
  }
  // With --revision there is no era probe: what counts is whether any session was opened.
  if (result.revisions.empty()) {
    if (!options.revision && Unreachable(result.eras)) {
      err << "mcpfuzz: " << reports::EscapeForTerminal(UnreachableReason(result.eras), 400) << "\n";
    } else {
      err << "mcpfuzz: the target speaks no revision mcpfuzz knows, or could not be reached";
      if (!result.notes.empty())
        err << ": " << reports::EscapeForTerminal(result.notes.front(), 400);
      err << "\n";
    }
    return 2;
  }
  if (!written) return 2;
  return JudgedExitCode(report, policy, out, err);
}

int RunReplay(const std::string& path, const std::vector<ReportFile>& report_files,
              const ExitPolicy& policy, Target& target, std::ostream& out, std::ostream& err) {
  std::optional<reports::Baseline> baseline;
  if (!ReadBaselineOf(policy, baseline, err)) return 2;
  reports::RunInfo info = StartRunInfo(target);
  const auto start = std::chrono::steady_clock::now();
  ReplayResult result = Replay(target.Factory(), path, &StopOnSignals::requested());
  info.duration_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  bool unreadable = result.cases.empty();
  if (unreadable) err << "mcpfuzz: no case file found at " << path << "\n";
  for (const auto& replayed : result.cases) unreadable = unreadable || !replayed.error.empty();
  reports::Report report = BuildReplayReport(info, result);
  if (!Publish(report, policy, baseline, report_files, out, err)) return 2;
  if (unreadable) return 2;
  return JudgedExitCode(report, policy, out, err);
}

}  // namespace mcpfuzz::cli
