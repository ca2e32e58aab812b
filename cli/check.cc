#include "cli/check.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string_view>
#include <vector>

#include "checks/checks.h"
#include "cli/progress.h"
#include "cli/report_files.h"
#include "cli/run_info.h"
#include "cli/run_reports.h"
#include "cli/signals.h"
#include "reports/baseline.h"
#include "reports/escape.h"
#include "reports/terminal.h"
#include "reports/writers.h"

namespace mcpfuzz::cli {
namespace {

std::optional<std::string> UnknownSelector(const std::set<std::string>& selectors) {
  for (const auto& selector : selectors) {
    const auto checks = checks::AllChecks();
    if (std::none_of(checks.begin(), checks.end(), [&](const checks::CheckInfo& info) {
          return checks::SelectorMatches(selector, info.id);
        })) {
      return selector;
    }
  }
  return std::nullopt;
}

}  // namespace

Result<checks::CheckOptions> ToCheckOptions(const CheckSettings& settings) {
  for (const auto* selectors : {&settings.only, &settings.skip}) {
    if (auto unknown = UnknownSelector(*selectors)) {
      return Error{"no check is named '" + *unknown + "'; `mcpfuzz check --list` lists them"};
    }
  }
  checks::CheckOptions options;
  options.only = settings.only;
  options.skip = settings.skip;
  options.revision = settings.revision;
  options.call_real_tools = settings.call_real_tools;
  options.revisions_at_once = !settings.one_revision_at_a_time;
  options.stop = &StopOnSignals::requested();
  return options;
}

bool Unreachable(const EraReport& eras) {
  return std::all_of(eras.attempts.begin(), eras.attempts.end(), [](const EraAttempt& attempt) {
    return attempt.channel == Channel::kTransportFailure;
  });
}

std::string LimitHint(const EraAttempt& attempt) {
  if (!attempt.timed_out) return "";
  const std::string asked = " (asked " + std::to_string(attempt.asked_times) + " times; ";
  switch (*attempt.timed_out) {
    case TimeLimit::kStartup:
      return asked + "--startup-timeout-ms raises it)";
    case TimeLimit::kStreamOpen:
      return asked + "--stream-open-ms raises it)";
    case TimeLimit::kReply:
    case TimeLimit::kPatience:
      return asked + "--timeout-ms raises it)";
  }
  return "";
}

std::string CauseOf(const EraAttempt& attempt) {
  if (attempt.timed_out) {
    return "no reply within " + std::string(Describe(*attempt.timed_out)) + LimitHint(attempt);
  }
  switch (attempt.outcome) {
    case Outcome::kConnectionRefused:
      return "connection refused";
    case Outcome::kConnectionReset:
      return "the connection was closed before a reply";
    case Outcome::kExited:
      return "the server exited before it replied";
    case Outcome::kTooLarge:
      return "the reply was larger than --max-response-bytes allows";
    case Outcome::kTransportError:
      // curl has no outcome of its own for TLS; every TLS failure it reports names SSL or TLS.
      if (attempt.detail.find("SSL") != std::string::npos ||
          attempt.detail.find("TLS") != std::string::npos) {
        return "TLS failed";
      }
      // No connection at all: the note says why ("stdio: cannot start 'x': …").
      return "";
    default:
      return "";
  }
}

std::string UnreachableReason(const EraReport& eras) {
  if (eras.attempts.empty()) return "the target could not be reached";
  const EraAttempt& first = eras.attempts.front();
  const std::string cause = CauseOf(first);
  // The transport's words, not the channel's token ("transport_failure") they come inside.
  const std::string& said = first.detail.empty() ? first.note : first.detail;
  return "the target could not be reached: " + (cause.empty() ? said : cause + " (" + said + ")");
}

std::optional<NothingJudged> WhyNothingWasJudged(const checks::CheckRun& run,
                                                 const std::string& target) {
  std::size_t unverified = 0;
  const Verdict* first_unverified = nullptr;
  for (const auto& result : run.results) {
    const VerdictKind kind = result.verdict.kind;
    if (kind == VerdictKind::kPass || kind == VerdictKind::kWarn || kind == VerdictKind::kFail) {
      return std::nullopt;
    }
    if (kind == VerdictKind::kUnverified && ++unverified == 1) first_unverified = &result.verdict;
  }
  const std::vector<EraAttempt>& attempts = run.eras.attempts;
  if (attempts.empty()) return NothingJudged{"no check was selected", ""};
  if (Unreachable(run.eras)) {
    // The first question's own server: its stderr goes with the reason given.
    return NothingJudged{UnreachableReason(run.eras), attempts.front().stderr_tail};
  }
  if (run.eras.speaks.empty()) {
    auto all_status = [&](int low, int high) {
      return std::all_of(attempts.begin(), attempts.end(), [&](const EraAttempt& attempt) {
        return attempt.http_status >= low && attempt.http_status <= high;
      });
    };
    const int status = attempts.front().http_status;
    if (all_status(401, 403)) {
      return NothingJudged{"every request was answered HTTP " + std::to_string(status) +
                               ": the server wants credentials; pass them with --header "
                               "'Authorization: …'",
                           ""};
    }
    if (all_status(404, 404))
      return NothingJudged{"no MCP endpoint at " + target + ": HTTP 404", ""};
    return NothingJudged{
        "the target speaks no MCP revision mcpfuzz knows: " + attempts.front().note, ""};
  }
  std::string why = "no check could be judged (" + std::to_string(unverified) + " unverified)";
  if (first_unverified != nullptr && !first_unverified->notes.empty()) {
    why += ": " + first_unverified->notes.front();
  }
  return NothingJudged{why, ""};
}

void PrintNothingJudged(const NothingJudged& why, std::ostream& err) {
  err << "mcpfuzz: " << reports::EscapeForTerminal(why.reason, 400) << "\n";
  const std::vector<std::string_view> lines =
      reports::LastLines(why.stderr_tail, kStderrLinesShown);
  if (lines.empty()) return;
  err << "  its stderr ended with:\n";
  for (const std::string_view line : lines) {
    err << "    " << reports::EscapeForTerminal(line, 200) << "\n";
  }
}

void ListChecks(std::ostream& out) {
  std::size_t width = 0;
  for (const auto& info : checks::AllChecks()) width = std::max(width, info.id.size() + 2);
  for (const auto& info : checks::AllChecks()) {
    out << reports::Pad(info.id, width) << info.title << "\n";
  }
}

int RunCheck(const CheckSettings& settings, const ExitPolicy& policy, Target& target,
             std::ostream& out, std::ostream& err) {
  auto options = ToCheckOptions(settings);
  if (!options) {
    err << "mcpfuzz: " << options.error().message << "\n";
    return 2;
  }
  std::optional<reports::Baseline> baseline;
  if (policy.baseline) {
    auto read = ReadBaseline(*policy.baseline);
    if (!read) {
      err << "mcpfuzz: " << read.error().message << "\n";
      return 2;
    }
    baseline = std::move(*read);
  }

  reports::RunInfo info = StartRunInfo(target);
  const auto start = std::chrono::steady_clock::now();

  ProgressLine line(settings.progress, ::isatty(STDERR_FILENO) == 1, err);
  int done = 0;
  auto progress = [&](const checks::CheckResult& result) {
    ++done;
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start);
    line.Show("[" + std::to_string(done) + "] " + result.verdict.check_id + " " +
              std::string(ToString(result.revision)) + " " +
              std::string(ToString(result.verdict.kind)) + ", " + std::to_string(elapsed.count()) +
              " s elapsed");
  };
  checks::CheckRun run = checks::RunChecks(target.Factory(), *options, progress);
  line.Finish();
  for (std::string& note : target.Notes()) run.notes.push_back(std::move(note));
  info.duration_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::optional<reports::BaselineComparison> comparison;
  if (baseline) comparison = Compare(run, *baseline, policy.fail_on);
  const reports::BaselineComparison* compared = comparison ? &*comparison : nullptr;

  reports::Report report = BuildCheckReport(info, run, compared);
  report.stopped_by = StopOnSignals::stopped_by();
  ApplyExitPolicy(report, policy.fail_on, nullptr);
  reports::WriteTerminal(report, out);
  const bool written = WriteReportFiles(report, settings.reports, out, err);
  // A run that judged nothing is no pass: a green CI must not mean "the URL was wrong". A
  // signal's run judged nothing because of the signal, which its exit code says.
  if (auto why = WhyNothingWasJudged(run, info.target); why && !StopOnSignals::requested()) {
    PrintNothingJudged(*why, err);
    return 2;
  }
  if (!written) return 2;
  // Writing a baseline records what fails today; it is the run that accepts it. A run that
  // judged nothing (above) or was stopped writes none: it would replace a good one.
  if (!policy.write_baseline) return FindingsExitCode(report);
  if (StopOnSignals::requested()) {
    err << "mcpfuzz: stopped early: " << *policy.write_baseline << " left as it was\n";
    return FindingsExitCode(report);
  }
  return WriteBaseline(*policy.write_baseline, BaselineOf(run, policy.fail_on), out, err) ? 0 : 2;
}

}  // namespace mcpfuzz::cli
