#pragma once
// The end-to-end benchmark's parts: the requests mcpfuzz sends, captured once; bare clients
// that send exactly those bytes as fast as they can; and `mcpfuzz fuzz` run as a child.
// A benchmark is a tool, not a library: it does its own I/O.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/request.h"

namespace mcpfuzz::bench {

/// One request as a campaign sent it, and on which connection (for stdio: which process).
struct SentRequest {
  std::size_t connection = 0;
  Request request;
  /// The HTTP status mcpfuzz got back (0 over stdio), to check the bare client gets the same.
  int status = 0;
};

/// What `mcpfuzz fuzz --seed S --cases N` sends to the target, in order, captured by running
/// the same campaign in-process through a recording transport. `cases` lie at
/// [first_case, first_case + case_count); before them come the era probe and the sessions'
/// openings, after them the sessions' closings.
struct Recording {
  std::vector<SentRequest> sent;
  std::size_t first_case = 0;
  std::size_t case_count = 0;
};

struct RecordSettings {
  std::uint64_t seed = 1;
  std::size_t cases = 1000;
  std::chrono::milliseconds quiet_window{50};
  /// HTTP: the URL; stdio: the server's argv.
  std::string url;
  std::vector<std::string> stdio_argv;
};
Recording Record(const RecordSettings& settings);

struct BareRun {
  double seconds = 0;
  /// Replies whose HTTP status differs from the one recorded: the bare client is only a fair
  /// comparison when the server did the same work for it.
  std::size_t status_mismatches = 0;
};

/// Sends every recorded request over HTTP with libcurl (keep-alive, one handle per thread),
/// discarding the replies but their status: the setup serially, the cases over `concurrency`
/// threads. Session ids come from the answers to `initialize`, per recorded connection.
BareRun BareHttp(const std::string& url, const Recording& recording, std::size_t concurrency);

/// Writes every recorded body as a line to `argv` started over stdio, one process per recorded
/// connection, and reads until a reply line arrives; after a message that needs no reply (or
/// when none comes), it listens for `quiet_window`, as mcpfuzz does. Returns the seconds taken.
double BareStdio(const std::vector<std::string>& argv, const Recording& recording,
                 std::chrono::milliseconds quiet_window);

/// A finished child process: wall time, exit status, peak RSS (its VmHWM, sampled).
struct ChildRun {
  double seconds = 0;
  int exit_code = -1;
  long peak_rss_kib = 0;
  std::string output;  ///< stdout and stderr, for when it failed
  /// Ended by the deadline: SIGTERM, then SIGKILL a few seconds later.
  bool killed = false;
};
/// `deadline` zero: no deadline.
ChildRun RunChild(const std::vector<std::string>& argv,
                  std::chrono::seconds deadline = std::chrono::seconds(0));

}  // namespace mcpfuzz::bench
