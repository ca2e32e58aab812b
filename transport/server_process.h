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

namespace transport_detail {
class ChildProcess;
class OutputDrain;
}  // namespace transport_detail

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
  /// The last few KiB the server wrote to stderr, for error messages about a server that died.
  std::string StderrTail() const;

 private:
  HttpServerProcess(std::unique_ptr<transport_detail::ChildProcess> process, std::string url,
                    std::string stderr_so_far);

  std::unique_ptr<transport_detail::ChildProcess> process_;
  // Keeps reading the server's stdout and stderr after start-up: a server that logs more than
  // a pipe buffer would otherwise block on its next write and look hung.
  std::unique_ptr<transport_detail::OutputDrain> drain_;
  std::string url_;
};

}  // namespace mcpfuzz
