#pragma once
// An HTTP MCP server run as a child process for the length of a run: the built-in reference
// server (mcpfuzz itself, started as `mcpfuzz refserver --http`) or a real server under test.

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/result.h"
#include "transport/transport.h"

namespace mcpfuzz {

namespace transport_detail {
class ChildProcess;
class OutputDrain;
}  // namespace transport_detail

/// An HTTP server mcpfuzz starts for a run (`--server-cmd`), so that it can load the coverage
/// agent and never outlives the run.
struct ServerCommand {
  /// A shell command line, run by /bin/sh -c in a process group of its own.
  std::string shell_command;
  /// The loopback port it listens on: it is ready once 127.0.0.1:`port` accepts a connection.
  std::uint16_t port = 0;
  /// As StdioTarget's: variables on top of mcpfuzz's own environment, or alone.
  std::vector<std::pair<std::string, std::string>> env;
  bool inherit_env = true;
  /// The folder of the coverage agents the server loads (StdioTarget::coverage_agent).
  std::optional<std::string> coverage_agent;
  std::chrono::milliseconds startup_timeout{10000};
};

/// A free TCP port on 127.0.0.1, for a server command to listen on. Another process may take
/// it before the server does; the server then fails to start and says so.
Result<std::uint16_t> FreeLoopbackPort();

class HttpServerProcess {
 public:
  /// Starts `argv` in its own process group and waits up to `timeout` for it to print a line
  /// `listening on URL` on stdout. The error carries what the server printed instead.
  static Result<HttpServerProcess> Start(const std::vector<std::string>& argv,
                                         std::chrono::milliseconds timeout);
  /// Starts `command` and waits, up to its start-up limit, until its port accepts a connection
  /// (no event says a port listens short of trying it: tried every kPortRetry) or it exits. The
  /// error carries what the server printed. url() is empty: the caller knows where it listens.
  static Result<HttpServerProcess> Start(const ServerCommand& command);
  static constexpr std::chrono::milliseconds kPortRetry{20};

  HttpServerProcess(HttpServerProcess&&) noexcept;
  HttpServerProcess& operator=(HttpServerProcess&&) noexcept;
  /// Ends the whole process group: SIGTERM, then SIGKILL for whatever is left.
  ~HttpServerProcess();

  const std::string& url() const { return url_; }
  /// True while the server process runs. Safe from any thread.
  bool Alive();
  /// Whether the server has ended. One started on a port (ServerCommand) that runs but refuses
  /// connections there, as a server a request crashed does a moment before it can be reaped,
  /// is given `wait` to end first.
  bool Ended(std::chrono::milliseconds wait);
  /// The last few KiB the server wrote to stderr, for error messages about a server that died.
  std::string StderrTail() const;
  /// Transport::TakeCoverage of a server started with ServerCommand::coverage_agent: the agent
  /// given up to `timeout` to answer. Every connection to the server asks this one agent, one
  /// question at a time.
  Result<std::string> TakeCoverage(bool all, std::chrono::milliseconds timeout);
  /// Whether it was started with a coverage agent to ask.
  bool has_agent() const { return agent_ != nullptr; }

 private:
  HttpServerProcess(std::unique_ptr<transport_detail::ChildProcess> process, std::string url,
                    std::string stderr_so_far);
  struct Agent;

  std::unique_ptr<transport_detail::ChildProcess> process_;
  // Keeps reading the server's stdout and stderr after start-up: a server that logs more than
  // a pipe buffer would otherwise block on its next write and look hung.
  std::unique_ptr<transport_detail::OutputDrain> drain_;
  std::string url_;
  std::uint16_t port_ = 0;  // started from a ServerCommand only
  // Workers ask whether it ended (ServedHttpServer's connections) while another takes coverage.
  std::unique_ptr<std::mutex> exit_mutex_ = std::make_unique<std::mutex>();
  std::unique_ptr<Agent> agent_;  // with ServerCommand::coverage_agent only
};

/// The HTTP server of a `--server-cmd`, started again on its port when a connection is asked
/// for after it ended: a request that crashes it then costs a restart, as over stdio, instead
/// of the rest of the run, and its finding is re-sent and shrunk against fresh servers. Only an
/// ended server is started again (one that hangs is judged by its timeouts), and the sessions'
/// restart budget bounds a server that ends at once. Workers may connect at once.
class ServedHttpServer {
 public:
  /// Starts `command` (HttpServerProcess::Start).
  static Result<std::unique_ptr<ServedHttpServer>> Start(ServerCommand command);

  /// `OpenHttp(target)` to the server, started again first if it has ended. The transport's
  /// server_ended() says when the server it reached has ended (a new one listens on the port
  /// then: the session is opened anew), and a request that broke the connection is answered
  /// once that is settled; with an agent, its TakeCoverage asks that server's, and its
  /// coverage_process() is the server's number: 0 for the first started, then 1, 2, ... (each
  /// numbers its scripts itself).
  Result<std::unique_ptr<Transport>> Connect(HttpTarget target);
  /// How many times the server was started again.
  std::size_t restarts() const;

 private:
  ServedHttpServer(ServerCommand command, HttpServerProcess first);

  const ServerCommand command_;
  mutable std::mutex mutex_;
  // Shared with its connections: a restart leaves each the server it reached, to tell it ended
  // and to ask its agent.
  std::shared_ptr<HttpServerProcess> server_;
  std::size_t restarts_ = 0;
};

}  // namespace mcpfuzz
