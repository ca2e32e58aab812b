#pragma once
// Test support: starts a server process that prints `listening on URL` once it serves HTTP,
// and ends its whole process group when the test is done.

#include <poll.h>

#include <chrono>
#include <csignal>
#include <optional>
#include <string>
#include <vector>

#include "model/result.h"
#include "transport/detail/child_process.h"
#include "transport/detail/pipe_io.h"

namespace mcpfuzz::testing {

class ServerProcess {
 public:
  /// Starts `argv` and waits up to `timeout` for its `listening on URL` line on stdout.
  static Result<ServerProcess> StartHttp(const std::vector<std::string>& argv,
                                         std::chrono::milliseconds timeout) {
    auto child = detail::ChildProcess::Spawn(argv, {});
    if (!child) return child.error();
    std::string output;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    constexpr std::string_view kMarker = "listening on ";
    while (std::chrono::steady_clock::now() < deadline) {
      auto newline = output.find('\n', output.find(kMarker));
      if (auto at = output.find(kMarker); at != std::string::npos && newline != std::string::npos) {
        std::string url = output.substr(at + kMarker.size(), newline - at - kMarker.size());
        return ServerProcess(std::move(*child), std::move(url));
      }
      pollfd descriptor{child->stdout_fd(), POLLIN, 0};
      ::poll(&descriptor, 1, 50);
      if (detail::ReadSome(child->stdout_fd(), output, 4096) == detail::ReadStatus::kEof) break;
    }
    std::string stderr_text;
    detail::ReadSome(child->stderr_fd(), stderr_text, 4096);
    return Error{"server did not report `listening on URL`: stdout=" + output +
                 " stderr=" + stderr_text};
  }

  ServerProcess(ServerProcess&&) = default;
  ServerProcess& operator=(ServerProcess&&) = default;
  ~ServerProcess() {
    if (process_) {
      process_->SignalGroup(SIGTERM);
      process_->SignalGroup(SIGKILL);
      process_->Reap();
    }
  }

  const std::string& url() const { return url_; }

 private:
  ServerProcess(detail::ChildProcess process, std::string url)
      : process_(std::move(process)), url_(std::move(url)) {}

  std::optional<detail::ChildProcess> process_;
  std::string url_;
};

/// The folder of the npm-installed real servers and their launch scripts.
inline std::string RealServersDir() { return std::string(MCPFUZZ_SOURCE_DIR) + "/tests/servers"; }

}  // namespace mcpfuzz::testing
