#pragma once
// The real-server benchmark's parts (mcpfuzz-bench-real): bare clients that open one session
// and send one well-formed request after another as fast as the server answers, what a
// `mcpfuzz fuzz` / `mcpfuzz check` run left behind, and the Markdown tables.

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcpfuzz::bench {

/// The revision the bare clients speak: every server here speaks it, and it is the newest of
/// the handshake era (the era mcpfuzz fuzzes on all of them).
inline constexpr const char* kBareRevision = "2025-11-25";

struct BareSessionRun {
  /// From the first request after the session opened to the last reply: the request loop.
  double seconds = 0;
  std::size_t requests = 0;
  /// Requests not answered by a JSON-RPC result with their id (HTTP: or not with 200).
  std::size_t errors = 0;
  std::string first_error;
};

/// The revision without a handshake: every request carries its own `_meta` envelope.
inline constexpr const char* kEnvelopeRevision = "2026-07-28";

/// `concurrency` threads, each its own libcurl handle (keep-alive) and its own session
/// (initialize, notifications/initialized; none in kEnvelopeRevision), sending `method`
/// requests in `revision` until `requests` are done between them.
BareSessionRun BareSessionHttp(const std::string& url, const std::string& revision,
                               const std::string& method, std::size_t requests,
                               std::size_t concurrency);

/// Starts `argv` with pipes, initializes, then writes one `method` request at a time and reads
/// until the line answering it arrives (skipping the server's notifications).
BareSessionRun BareSessionStdio(const std::vector<std::string>& argv, const std::string& method,
                                std::size_t requests);

/// What a `mcpfuzz fuzz --report json=PATH` run wrote.
struct FuzzFigures {
  std::size_t cases = 0;
  std::size_t findings = 0;
  /// The report's "timing" object (startup_ms, sending_ms, ...), when the build writes one.
  std::map<std::string, double> timing_ms;
};
/// Empty when the file is missing or is not a fuzz report.
std::optional<FuzzFigures> ReadFuzzReport(const std::string& path);

/// One configuration's figures over its runs, in run order.
struct PairedRuns {
  std::string target;
  std::vector<double> bare_per_second;
  std::vector<double> fuzz_per_second;
  std::vector<double> fuzz_seconds;
  std::vector<FuzzFigures> fuzz;
  std::vector<long> peak_rss_kib;
  std::size_t bare_errors = 0;
  std::optional<double> check_seconds;
  int check_exit = -1;
  /// Why a run gave no figure (killed at the deadline, no report): shown in the table.
  std::vector<std::string> notes;
  /// The aims of issue #10 for this configuration; unset: none.
  std::optional<double> aim_ratio;
  std::optional<double> aim_cases_per_second;
  std::optional<double> aim_check_seconds;
};

double Median(std::vector<double> values);
void PrintTables(const std::vector<PairedRuns>& runs);

}  // namespace mcpfuzz::bench
