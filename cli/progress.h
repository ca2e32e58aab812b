#pragma once
// What a running `fuzz` or `check` shows on stderr while it works (`--progress`). On a
// terminal, one line redrawn in place; in a log (CI), a plain line every kLogInterval, so that
// a long nightly job shows it is alive without filling the log.

#include <chrono>
#include <optional>
#include <ostream>
#include <string>

#include "campaign/campaign.h"
#include "cli/options.h"

namespace mcpfuzz::cli {

/// The time between two progress lines written to a log.
inline constexpr std::chrono::seconds kLogInterval{10};

/// How long the rest of a campaign should take: the sooner of its time budget and its case
/// budget at the rate so far; nothing when neither can be told (no rate yet, or no budget).
std::optional<std::chrono::seconds> EstimatedTimeLeft(const CampaignProgress& now);

/// "1200/2000 cases, 310 cases/s, 2 findings, 4 s elapsed, about 3 s left": cases sent of the
/// cases the run is to draw (one held back or skipped is drawn, not sent), in whole seconds.
std::string DescribeProgress(const CampaignProgress& now);

/// One run's progress output. `terminal` is whether stderr is one; the clock is the caller's,
/// so that the log's cadence can be tested without waiting.
class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;
  ProgressLine(ProgressMode mode, bool terminal, std::ostream& err);

  /// Shows `text` now on a terminal; in a log, only when kLogInterval has passed since the
  /// last line (or since the start).
  void Show(const std::string& text, Clock::time_point now = Clock::now());
  /// Ends the output: erases the terminal's line, so the report starts on a clean one.
  void Finish();

 private:
  enum class Style { kNone, kRedrawn, kLogLines };
  Style style_;
  std::ostream& err_;
  Clock::time_point last_line_;
};

}  // namespace mcpfuzz::cli
