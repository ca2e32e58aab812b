#pragma once
// A spawned server's stdin, stdout and stderr, pumped together so that a server writing a lot
// to one stream never stalls (and so never deadlocks) while we wait on another.

#include <chrono>
#include <cstddef>
#include <string>

#include "transport/detail/agent_channel.h"
#include "transport/detail/child_process.h"
#include "transport/detail/line_splitter.h"

namespace mcpfuzz::transport_detail {

class ServerPipes {
 public:
  using Clock = std::chrono::steady_clock;
  /// A server whose grandchild keeps its pipes open never delivers EOF, so waits for output
  /// also check this often whether the process itself has exited.
  static constexpr std::chrono::milliseconds kExitCheckInterval{20};

  /// Takes over `process`; stdout lines are capped at `max_line_bytes`, and the last
  /// `stderr_tail_bytes` of stderr are kept.
  ServerPipes(ChildProcess process, std::size_t max_line_bytes, std::size_t stderr_tail_bytes);

  ChildProcess& process() { return process_; }
  /// Lines read from stdout and not yet taken, kept across exchanges.
  LineSplitter& stdout_lines() { return stdout_lines_; }
  /// True once stdout reached end of file (every holder of its write end closed it).
  bool stdout_eof() const { return stdout_eof_; }
  /// Every stdout byte read so far (kept or dropped): exchanges cap what one reply window reads.
  std::size_t stdout_bytes_read() const { return stdout_bytes_read_; }
  /// From now on stdout is read and thrown away (at shutdown nobody asks for it, but the server
  /// must not block writing it).
  void DiscardStdout() { discard_stdout_ = true; }

  struct PumpResult {
    bool read_any = false;
    /// stdin can take bytes, or has failed (which the next write reports).
    bool stdin_ready = false;
  };
  /// Waits up to `wait` for any pipe (stdin only when `watch_stdin`) and reads what is ready.
  /// EINTR returns early with nothing done; callers loop on their own deadline.
  PumpResult Pump(Clock::duration wait, bool watch_stdin);
  /// Reads what is already in the pipes, without waiting, until nothing more is ready or
  /// about `max_stdout_bytes` more stdout bytes were read: a descendant that outlives the
  /// server may keep writing forever, so the bound is the caller's reply window cap.
  void Drain(std::size_t max_stdout_bytes);
  /// Pumps until the process exits or `wait` passes; true when it exited.
  bool WaitForExit(Clock::duration wait);

  /// Lines read from the side channel (ChildProcess::side_fd), pumped with the other streams
  /// so that neither stalls the server; a line is capped at kAgentLineBytes.
  LineSplitter& side_lines() { return side_lines_; }
  /// True once the side channel ended (the child closed its end, or it never had one).
  bool side_eof() const { return side_eof_ || process_.side_fd() < 0; }

  /// Starts a new per-exchange stderr tail.
  void ClearExchangeStderr() { exchange_stderr_tail_.clear(); }
  /// The last bytes of stderr written since ClearExchangeStderr.
  const std::string& exchange_stderr_tail() const { return exchange_stderr_tail_; }
  /// The last bytes of stderr over the whole life of the process.
  const std::string& stderr_tail() const { return stderr_tail_; }

 private:
  void ReadStdout();
  void ReadStderr();
  void ReadSide();

  ChildProcess process_;
  LineSplitter stdout_lines_;
  std::size_t stderr_tail_bytes_;
  bool stdout_eof_ = false;
  std::size_t stdout_bytes_read_ = 0;
  bool discard_stdout_ = false;
  std::string exchange_stderr_tail_;
  std::string stderr_tail_;
  LineSplitter side_lines_{kAgentLineBytes};
  bool side_eof_ = false;
};

}  // namespace mcpfuzz::transport_detail
