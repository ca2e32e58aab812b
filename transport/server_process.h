#pragma once
// An HTTP MCP server run as a child process for the length of a run: the built-in reference
// server (mcpfuzz itself, started as `mcpfuzz refserver --http`) or a real server under test.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/result.h"

namespace mcpfuzz {

namespace detail {
class ChildProcess;
}

class HttpServerProcess {
 public:
  /// Starts `argv` in its own process group and waits up to `timeout` for it to print a line
  /// `listening on URL` on stdout. The error carries what the server printed instead.
  static Result<HttpServerProcess> Start(const std::vector<std::string>& argv,
                                         std::chrono::milliseconds timeout);

  HttpServerProcess(HttpServerProcess&&) noexcept;
  HttpServerProcess& operator=(HttpServerProcess&&) noexcept;
  /// Ends the whole process group: SIGTERM, then SIGKILL for whatever is left.
  ~HttpServerProcess();

  const std::string& url() const { return url_; }
  /// True while the server process runs.
  bool Alive();

 private:
  HttpServerProcess(std::unique_ptr<detail::ChildProcess> process, std::string url);

  std::unique_ptr<detail::ChildProcess> process_;
  std::string url_;
};

}  // namespace mcpfuzz
