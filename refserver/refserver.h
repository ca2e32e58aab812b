#pragma once
// The reference MCP server: a small server that answers exactly as the oracle tables say, in
// both eras, over stdio and Streamable HTTP, unless fault switches make it deviate.
//
// How a message is assigned to an era (the server speaks both at once):
// - stateless (2026-07-28) when params._meta carries an io.modelcontextprotocol/protocolVersion
//   or .../clientCapabilities key, or, over HTTP, when MCP-Protocol-Version names no handshake
//   revision;
// - handshake (2024-11-05 … 2025-11-25) when it is `initialize`, or over HTTP carries an
//   Mcp-Session-Id or a handshake-revision MCP-Protocol-Version header, or over stdio arrives
//   after `initialize` (and `ping` at any time);
// - anything else is judged by the stateless rules, so it is rejected for lacking `_meta`
//   (-32602, HTTP 400), which is also an acceptable answer to a session-less handshake-era
//   request (400) or to a request sent before `initialize` (no code is defined for that).
// Over stdio a served `initialize` or enveloped request (server/discover aside) still locks the
// connection's era (oracle tables §4b V16a, V16b): after an enveloped request an envelope-less
// `initialize` is refused for its missing _meta (-32602), and after `initialize` an enveloped
// request gets -32600. `ping` is answered in either era and locks nothing.
//
// With `dual_era` (--dual-era) it is a front for both eras as the dual-era SDKs are
// (oracle tables §10 X6, §4b V16):
// - HTTP: a request with no modern marker (no stateless _meta, no MCP-Protocol-Version) goes to
//   the legacy leg and is served as the handshake era (2025-03-26 rules: sessions);
// - stdio: the first era-distinctive request locks the connection's era for good. An enveloped
//   request locks 2026-07-28 once it is served, and so does `initialize` or any other
//   envelope-less request for the handshake era; server/discover is answered without locking. On a
//   connection locked to 2026-07-28 an envelope-less request is refused (-32602); on one locked to
//   the handshake era an enveloped request gets -32600.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/request.h"
#include "model/result.h"
#include "refserver/faults.h"

namespace mcpfuzz::refserver {

struct ServerOptions {
  FaultSet faults;
  /// Serve both eras as one dual-era front (see above). Fault era-lock-ignored implies it.
  bool dual_era = false;
  /// What the server announces itself as (initialize's serverInfo, the _meta serverInfo of
  /// 2026-07-28 results): `--server-info NAME/VERSION`, so tests can start servers that look
  /// like different SDKs or releases.
  std::string server_name = "mcpfuzz-refserver";
  std::string server_version = "0.1.0";

  bool DualEra() const { return dual_era || faults.contains(Fault::kEraLockIgnored); }
};

/// What the front must do at the I/O level after writing the reply (if any).
enum class Action {
  kNone,
  kCrash,  ///< std::abort() without replying.
  kHang,   ///< Never answer this request.
  kExit,   ///< Write the reply, then end the process (HTTP: stop serving).
};

/// One HTTP request as the front received it.
struct HttpRequest {
  std::string method = "POST";
  std::string path = "/mcp";
  Headers headers;
  std::string body;
};

/// What the HTTP front writes back. `status` 0 never occurs.
struct HttpReply {
  int status = 200;
  Headers headers;
  std::string body;
  Action action = Action::kNone;
};

/// What the stdio front writes back: each line is written followed by "\n".
struct StdioReply {
  std::vector<std::string> lines;
  Action action = Action::kNone;
};

/// The server's logic, free of I/O. Both fronts call it; it is safe to call from several
/// threads at once (session state sits behind a mutex).
class ReferenceServer {
 public:
  explicit ReferenceServer(ServerOptions options = {});
  ~ReferenceServer();
  ReferenceServer(const ReferenceServer&) = delete;
  ReferenceServer& operator=(const ReferenceServer&) = delete;

  /// Answers one HTTP request to the endpoint (path /mcp; other paths get 404).
  HttpReply HandleHttp(const HttpRequest& request);
  /// Answers one line read from stdin (without its "\n"). Blank lines are ignored.
  StdioReply HandleStdioLine(std::string_view line);

  const ServerOptions& options() const;

  /// Remembers the server's state as it is now: the HTTP sessions, whether (and in which
  /// revision) stdio was initialized and the stdio era lock, which is all a message can change. An
  /// in-process harness opens a session once, checkpoints, and rewinds before each input, so each
  /// input meets the server as a fresh server with that session open would be, without a handshake
  /// per input.
  void Checkpoint();
  /// Returns to the state of the last Checkpoint(), or of a new server when there was none.
  void Rewind();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The JSON-RPC endpoint path of the HTTP front.
inline constexpr std::string_view kEndpointPath = "/mcp";

/// A running HTTP front. Stops (and joins its thread) when destroyed.
class HttpServerHandle {
 public:
  struct Impl;
  explicit HttpServerHandle(std::unique_ptr<Impl> impl);
  HttpServerHandle(HttpServerHandle&&) noexcept;
  HttpServerHandle& operator=(HttpServerHandle&&) noexcept;
  ~HttpServerHandle();

  int port() const;
  /// "http://127.0.0.1:PORT/mcp".
  std::string url() const;
  /// False once the server stopped, by Stop() or by the exit-after-initialize fault.
  bool serving() const;
  /// Stops accepting, releases any hanging request, and waits for the server thread. Idempotent.
  void Stop();

 private:
  std::unique_ptr<Impl> impl_;
};

/// Serves `server` over Streamable HTTP on `host`:`port` (0 picks a free port) on a background
/// thread. Only loopback hosts are accepted. `server` must outlive the handle.
Result<HttpServerHandle> ServeHttp(ReferenceServer& server, std::string host = "127.0.0.1",
                                   int port = 0);

/// Serves newline-delimited JSON-RPC from `in` to `out` until end of input or an exit fault.
/// Diagnostics go to `log`, never to `out`. Returns the process exit code (0).
/// A crash fault calls std::abort().
int ServeStdio(ReferenceServer& server, std::istream& in, std::ostream& out, std::ostream& log);

/// The `mcpfuzz-refserver` program (also `mcpfuzz refserver`): parses `args` (without the
/// program name), then serves stdio on `in`/`out` or HTTP until SIGINT/SIGTERM. Returns the
/// exit code: 0, or 2 for bad arguments.
int RunCommandLine(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                   std::ostream& err);

}  // namespace mcpfuzz::refserver
