#pragma once
// Whether a spawned server is working, read from /proc: for the one wait that pays for work
// rather than for a reply, a large request's read allowance (Limits::read_allowance).

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace mcpfuzz::transport_detail {

/// What every process of one process group was doing at one moment.
struct GroupActivity {
  /// A thread was running or waiting for a CPU (R), or in uninterruptible sleep (D): work that
  /// a busy machine only slows down. A starved server is runnable, never idle.
  bool working = false;
  /// User and system CPU time of the group, in clock ticks.
  std::uint64_t cpu_ticks = 0;
};

/// The group's activity, or nothing when /proc does not say (not Linux, or unreadable): then
/// no wait is cut short.
std::optional<GroupActivity> SampleGroup(pid_t group);

/// Ends a read allowance early, and only then: the allowance (a second per MiB written) pays
/// for reading and parsing a large request, which is CPU work. Once the plain time limit has
/// passed and the request is written whole, a server none of whose threads runs or waits for a
/// CPU, and which spends no CPU time for kIdleConfirmation, is doing neither: waiting out the
/// rest of the allowance (10 s for a 10 MiB line) would only learn again that it does not
/// answer. A server slowed by the machine's load stays runnable and keeps its allowance.
class AllowanceWatch {
 public:
  using Clock = std::chrono::steady_clock;
  /// Idle for this long, sampled at every wake of the exchange (ServerPipes::kExitCheckInterval):
  /// several clock ticks (10 ms each), so a server that works in bursts shows some CPU time.
  static constexpr std::chrono::milliseconds kIdleConfirmation{100};

  AllowanceWatch(pid_t group, std::chrono::milliseconds allowance)
      : group_(group), allowance_(allowance) {}

  /// True once the allowance is not needed: `now` is within it (past `deadline` less the
  /// allowance), the request was `written_whole`, and the server has been idle since.
  bool Spent(Clock::time_point now, Clock::time_point deadline, bool written_whole);
  /// What a timeout detail adds when Spent() ended the wait; empty otherwise.
  std::string Detail() const;

 private:
  const pid_t group_;
  const std::chrono::milliseconds allowance_;
  std::optional<Clock::time_point> idle_since_;
  std::uint64_t idle_ticks_ = 0;
  bool spent_ = false;
};

}  // namespace mcpfuzz::transport_detail
