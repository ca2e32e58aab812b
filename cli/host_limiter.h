#pragma once
// Politeness towards the servers of a survey: per host, at most `budget` requests in the whole
// run and at least `spacing` between two of them, however many targets share the host and
// however many checks run in parallel.

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "transport/transport.h"

namespace mcpfuzz::cli {

class HostLimiter {
 public:
  /// budget 0 means no limit.
  HostLimiter(std::size_t budget, std::chrono::milliseconds spacing)
      : budget_(budget), spacing_(spacing) {}

  /// Waits for the host's turn; false when its budget is used up.
  bool Acquire(const std::string& host);

  /// "127.0.0.1" for "http://user@127.0.0.1:8080/mcp": the host without port or user.
  static std::string HostOf(const std::string& url);

 private:
  struct Host {
    std::mutex mutex;
    std::size_t sent = 0;
    std::chrono::steady_clock::time_point last;
  };
  std::size_t budget_;
  std::chrono::milliseconds spacing_;
  std::mutex hosts_mutex_;
  std::map<std::string, std::unique_ptr<Host>> hosts_;
};

/// `inner` with every request passing `limiter` first. A request over the budget is not sent:
/// it ends as a transport error saying so, which the oracles judge UNVERIFIED.
std::unique_ptr<Transport> LimitedTransport(std::unique_ptr<Transport> inner, HostLimiter& limiter,
                                            std::string host);

}  // namespace mcpfuzz::cli
