#pragma once
// SIGINT and SIGTERM, as a terminal's Ctrl-C, CI cancellation and `timeout` send them. The first
// asks the run to stop after the exchange in flight: the summary and every report are still
// written and every child is stopped the usual way. A second ends mcpfuzz at once, killing the
// process group of every child first, so no server outlives it either way.

#include <atomic>
#include <string>

namespace mcpfuzz::cli {

class StopOnSignals {
 public:
  /// Installs the handlers; the destructor puts the previous ones back.
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  /// Set by the first signal; runs poll it between exchanges.
  static const std::atomic<bool>& requested();
  /// The signal that asked to stop, or 0.
  static int signal_number();
  /// "SIGINT" or "SIGTERM" once a signal asked to stop, else "": what a report built now
  /// records as reports::Report::stopped_by. A signal that came after the last exchange marks
  /// a complete report too; better that than an incomplete one that looks complete.
  static std::string stopped_by();
  /// The exit code of a run a signal stopped: 128 + the signal (130 for SIGINT, 143 for
  /// SIGTERM), as shells report it.
  static int exit_code() { return 128 + signal_number(); }
};

}  // namespace mcpfuzz::cli
