#include "reports/fuzz_report.h"

#include <chrono>
#include <string>

#include "reports/build.h"
#include "reports/terminal.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

double CasesPerSecond(const CampaignResult& result) {
  const double seconds = static_cast<double>(result.elapsed.count()) / 1000.0;
  return seconds > 0 ? static_cast<double>(result.cases) / seconds : 0.0;
}

}  // namespace

boost::json::value FuzzReportToJson(const RunInfo& info, const CampaignOptions& options,
                                    const CampaignResult& result) {
  RunInfo timed = info;
  timed.duration_seconds = static_cast<double>(result.elapsed.count()) / 1000.0;
  return ReportToJson(BuildFuzzReport(timed, options, result));
}

void PrintFuzzReport(const RunInfo& info, const CampaignOptions& options,
                     const CampaignResult& result, std::ostream& out) {
  out << "target: " << EscapeForTerminal(info.target, 200) << "\nseed: " << options.seed
      << "\nspeaks: ";
  if (result.eras.speaks.empty()) out << "no revision mcpfuzz knows";
  for (std::size_t i = 0; i < result.eras.speaks.size(); ++i) {
    out << (i ? ", " : "") << ToString(result.eras.speaks[i]);
  }
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.0f", CasesPerSecond(result));
  out << "\n"
      << result.cases << " cases in " << result.elapsed.count() << " ms (" << rate << " cases/s), "
      << result.findings.size() << " finding(s), " << result.sessions_opened
      << " session(s) opened\n";
  const CampaignTiming& timing = result.timing;
  auto ms = [](std::chrono::microseconds part) {
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(part).count());
  };
  out << "time: start-up " << ms(timing.startup) << " ms, sending " << ms(timing.sending)
      << " ms, waiting for silence " << ms(timing.silence) << " ms, re-sends " << ms(timing.resends)
      << " ms, shrinking " << ms(timing.shrinking) << " ms\n";
  if (result.pipelined > 0 || result.restarts > 0) {
    out << "stdio: " << result.pipelined << " of " << result.cases
        << " cases pipelined; the server restarted " << result.restarts << " time(s), "
        << result.warm_restarts << " onto a spare started ahead\n";
  }
  for (const auto& note : result.notes) out << "note: " << EscapeForTerminal(note, 200) << "\n";
  for (const auto& finding : result.findings) {
    const Verdict& verdict = finding.verdict;
    out << "\n"
        << ToString(verdict.kind) << "  " << finding.check_id << "  " << ToString(finding.revision)
        << "  family " << finding.family << "  " << (finding.stable ? "stable" : "flaky") << " ("
        << finding.reproduced << "/" << finding.resends << ")";
    if (finding.repeats > 0) out << "  +" << finding.repeats << " repeats";
    out << "\n  expected: " << EscapeForTerminal(verdict.expected.text, 160)
        << "\n  observed: " << ToString(verdict.observed.channel);
    if (verdict.observed.code) out << " " << *verdict.observed.code;
    if (verdict.observed.http_status != 0) out << " (HTTP " << verdict.observed.http_status << ")";
    if (verdict.observed.outcome != Outcome::kOk) out << " " << ToString(verdict.observed.outcome);
    out << "\n  shrunk in " << finding.shrink_steps << " step(s), " << finding.shrink_sends
        << " send(s)\n";
    if (!finding.file.empty()) {
      out << "  case: " << EscapeForTerminal(finding.file.string(), 300) << "\n";
    } else if (!finding.file_error.empty()) {
      out << "  case not written: " << EscapeForTerminal(finding.file_error, 200) << "\n";
    }
    out << "  reproduce: "
        << EscapeForTerminal(Reproducer(finding.minimal, info.reproducer_target), 2000) << "\n";
  }
}

}  // namespace mcpfuzz::reports
