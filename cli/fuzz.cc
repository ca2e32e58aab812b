#include "cli/fuzz.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>

#include "campaign/campaign.h"
#include "cli/check.h"
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
  if (settings.max_request_bytes) options.max_request_bytes = *settings.max_request_bytes;
  if (settings.big_input_every) options.big_input_every = *settings.big_input_every;
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

int RunFuzz(const FuzzSettings& settings, Target& target, std::ostream& out, std::ostream& err) {
  for (const auto& name : settings.families) {
    if (gen::FindFamily(name) == nullptr) {
      err << "mcpfuzz: no generator family is named '" << name
          << "'; `mcpfuzz fuzz --list-families` lists them\n";
      return 2;
    }
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

  info.duration_seconds = static_cast<double>(result.elapsed.count()) / 1000.0;
  reports::Report report = BuildFuzzReport(info, options, result);
  report.stopped_by = StopOnSignals::stopped_by();
  reports::WriteTerminal(report, out);
  bool written = WriteReportFiles(report, settings.reports, out, err);
  for (const auto& finding : result.findings) {
    if (!options.corpus_dir.empty() && finding.file.empty()) written = false;
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
  return FindingsExitCode(result);
}

namespace {

// A finding that none of its re-sends showed again is reported (labelled flaky), but one
// unlucky exchange does not fail a pipeline by itself.
bool Confirmed(std::size_t reproduced, std::size_t resends) {
  return resends == 0 || reproduced > 0;
}

std::size_t NumberIn(const boost::json::value& record, std::string_view key) {
  const boost::json::value* value = record.as_object().if_contains(key);
  return value != nullptr && value->is_int64() ? static_cast<std::size_t>(value->as_int64()) : 0;
}

}  // namespace

int FindingsExitCode(const CampaignResult& result) {
  const bool confirmed = std::any_of(
      result.findings.begin(), result.findings.end(), [](const CampaignFinding& finding) {
        return Confirmed(static_cast<std::size_t>(std::max(finding.reproduced, 0)),
                         static_cast<std::size_t>(std::max(finding.resends, 0)));
      });
  return confirmed ? 1 : 0;
}

int FindingsExitCode(const reports::Report& report) {
  for (const reports::TargetSection& target : report.targets) {
    for (const reports::ReportItem& item : target.items) {
      if (item.record.is_object() &&
          Confirmed(NumberIn(item.record, "reproduced"), NumberIn(item.record, "resends"))) {
        return 1;
      }
    }
  }
  return 0;
}

int RunReplay(const std::string& path, const std::vector<ReportFile>& report_files, Target& target,
              std::ostream& out, std::ostream& err) {
  reports::RunInfo info = StartRunInfo(target);
  const auto start = std::chrono::steady_clock::now();
  ReplayResult result = Replay(target.Factory(), path, &StopOnSignals::requested());
  info.duration_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  bool unreadable = result.cases.empty();
  if (unreadable) err << "mcpfuzz: no case file found at " << path << "\n";
  for (const auto& replayed : result.cases) unreadable = unreadable || !replayed.error.empty();
  reports::Report report = BuildReplayReport(info, result);
  report.stopped_by = StopOnSignals::stopped_by();
  reports::WriteTerminal(report, out);
  if (!WriteReportFiles(report, report_files, out, err)) return 2;
  if (unreadable) return 2;
  return result.still_failing > 0 ? 1 : 0;
}

}  // namespace mcpfuzz::cli
