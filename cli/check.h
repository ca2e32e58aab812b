#pragma once
// `mcpfuzz check`: the checklist against one target, the terminal report, the JSON report and
// the baseline comparison.

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

#include "checks/checks.h"
#include "cli/options.h"
#include "cli/target.h"
#include "model/result.h"
#include "reports/escape.h"
#include "transport/era_probe.h"

namespace mcpfuzz::cli {

/// The checklist options `settings` ask for. Fails on an --only/--skip name that selects no
/// check: almost always a typo, and the run it leaves out would look clean.
Result<checks::CheckOptions> ToCheckOptions(const CheckSettings& settings);

/// True when every era probe failed in the transport: nothing answered at all.
bool Unreachable(const EraReport& eras);
/// Why the first era question got no answer, in words people act on: "connection refused",
/// "TLS failed", "the server exited before it replied", "the reply was larger than
/// --max-response-bytes allows", "no reply within the start-up limit (…; --startup-timeout-ms
/// raises it)"; "" when the transport's own note says it best (a stdio server that could not
/// start: "stdio: cannot start 'x': No such file or directory").
std::string CauseOf(const EraAttempt& attempt);
/// "the target could not be reached: CAUSE: what the transport said".
std::string UnreachableReason(const EraReport& eras);
/// " (asked 2 times; --startup-timeout-ms raises it)" for a question a time limit ended,
/// naming that limit's option; "" otherwise.
std::string LimitHint(const EraAttempt& attempt);

/// Why a run judged nothing.
struct NothingJudged {
  /// One line: "the target could not be reached: … (the server exited with code 3)".
  std::string reason;
  /// What a stdio server that could not be reached wrote last to stderr, as it wrote it.
  std::string stderr_tail;
};

/// Why `run` judged nothing (no PASS, WARN or FAIL): the target could not be reached (and
/// why), no MCP endpoint (HTTP 404), credentials wanted (401/403), no revision spoken, or
/// every check UNVERIFIED. Nothing when at least one check was judged.
std::optional<NothingJudged> WhyNothingWasJudged(const checks::CheckRun& run,
                                                 const std::string& target);

/// The last lines of stderr that `why` shows on the terminal, at most.
inline constexpr std::size_t kStderrLinesShown = reports::kStderrTailLines;

/// "mcpfuzz: REASON", then the last lines of the stderr tail, each escaped and capped as all
/// server text is on the terminal.
void PrintNothingJudged(const NothingJudged& why, std::ostream& err);

/// Prints every check id with its title (`check --list`).
void ListChecks(std::ostream& out);

/// Returns 0 (nothing fails under --fail-on, or with a baseline: nothing new and nothing
/// stale; or a baseline was written), 1 (a FAIL, or a WARN under --fail-on warn), or 2
/// (nothing could be judged, or a file could not be read or written).
int RunCheck(const CheckSettings& settings, const ExitPolicy& policy, Target& target,
             std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
