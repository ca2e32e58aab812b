#pragma once
// Internal: the connections of one revision's checks. Connections keeps the main connection
// open, restarts a stdio server that died or went deaf (within a budget), hands out fresh
// connections, and remembers what the server declared when it was first opened. Every
// connection records its exchanges into the revision's IncidentLog.

#include <boost/json/object.hpp>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/detail/incidents.h"
#include "transport/client.h"
#include "transport/era_probe.h"
#include "transport/transport.h"

namespace mcpfuzz::checks::detail {

/// Every exchange a Connection made since the last Take, including those McpClient makes on
/// its own (initialize, notifications/initialized); each is written into the IncidentLog too.
class RecordingTransport final : public TransportDecorator {
 public:
  /// `serial` tells the connections of one run apart (addresses may be reused).
  RecordingTransport(std::unique_ptr<Transport> inner, std::size_t serial, IncidentLog& log);

  Observation Send(const Request& request) override;
  /// Forwards to the real transport, and records each request's exchange and the sentinel's.
  /// A request left unanswered whose sentinel was answered is recorded as dropped, whichever
  /// transport learnt it.
  PipelineResult SendPipelined(const Pipeline& pipeline) override;

  /// The exchanges recorded since the last call, oldest first.
  std::vector<Exchange> Take();
  /// False once a stdio server process has ended. HTTP servers cannot be watched: always true.
  bool ProcessAlive();
  /// The stdio transport underneath, or nullptr over HTTP.
  StdioTransport* stdio() const { return stdio_; }
  /// Whether the next request is owed a reply; by default, whether it has an id.
  void set_next_owed(Owed owed) { next_owed_ = owed; }
  /// A server of this run answered a request after the sentinel behind it: sentinels prove
  /// nothing about it, so requests owed nothing wait out the quiet window or the timeout.
  bool sentinels_prove_nothing() const { return log_.out_of_order(); }

 private:
  void Record(const Exchange& exchange, Owed owed);

  StdioTransport* stdio_ = nullptr;
  IncidentLog& log_;
  ProcessRecord process_;
  std::vector<Exchange> taken_;
  std::optional<Owed> next_owed_;
};

/// One transport (for stdio: one server process) and the McpClient speaking on it.
class Connection {
 public:
  Connection(std::unique_ptr<Transport> transport, std::size_t serial, Revision revision,
             IncidentLog& log);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// The handshake (handshake era) or server/discover (stateless era). The exchanges it made
  /// are appended to `exchanges` when given.
  bool Open(std::vector<Exchange>* exchanges = nullptr);
  /// Why Open failed, for notes.
  std::string OpenFailure() const;

  /// Sends `request` and returns the exchange, with the session id that went with it. Over
  /// stdio a request owed nothing has a sentinel written behind it, so a server that drops it
  /// is known in one round trip (its exchange reads "no reply"), not after the timeout.
  Exchange Send(const Request& request, Owed owed = Owed::kReply);

  McpClient& client() { return client_; }
  RecordingTransport& transport() { return *transport_; }
  /// A stdio server that exited or stopped answering; HTTP connections never count as dead.
  bool Dead();
  /// Ends a handshake-era HTTP session with DELETE; returns the exchange it made, if any.
  std::vector<Exchange> Close();

 private:
  std::unique_ptr<RecordingTransport> transport_;
  McpClient client_;
  std::optional<Result<OpenOutcome>> opened_;
  /// A stdio exchange ended with the server gone or silent: restart before reusing it.
  bool broken_ = false;
  std::size_t sentinels_ = 0;
};

/// The connections of one revision: the main one, kept open (and restarted) across checks,
/// and fresh ones for checks that need a connection of their own.
class Connections {
 public:
  Connections(const TransportFactory& connect, Revision revision, IncidentLog& log);
  ~Connections();
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;

  /// Known once the first connection was made; kHttp before.
  const TransportKind& kind() const { return kind_; }

  /// Connects and opens the main connection. False when no connection could be made at all.
  bool Start();
  /// The main connection, opened in this revision; a stdio server that died or went deaf is
  /// restarted first. nullptr when it cannot be (re)opened; MainFailure() says why.
  Connection* Main();
  /// Starts the stdio server afresh before the next request: a server that accepted what it
  /// should have refused may have changed state (an era pinned per connection, say), and later
  /// checks must not inherit that. Not counted as a restart after a failure. HTTP connections
  /// are kept: the server behind them does not restart.
  void RetireMain() { retire_main_ = kind_ == TransportKind::kStdio; }
  const std::string& MainFailure() const { return main_failure_; }
  /// A fresh, unopened connection (for stdio: a new server process), or nullptr.
  std::unique_ptr<Connection> Fresh();

  /// What the server declared when the main connection was first opened.
  bool Declares(std::string_view capability) const { return capabilities_.contains(capability); }
  const boost::json::object& capabilities() const { return capabilities_; }
  /// The main connection opened at Start, so capabilities() and session_assigned() are known.
  bool capabilities_known() const { return capabilities_known_; }
  /// The server assigned an Mcp-Session-Id to the main connection (handshake era over HTTP).
  bool session_assigned() const { return session_assigned_; }
  /// What the server announced when the main connection first opened.
  const std::optional<ServerInfo>& server_info() const { return server_info_; }
  /// The exchanges of the main connection's first Open (initialize or server/discover).
  const std::vector<Exchange>& first_open() const { return first_open_; }

 private:
  const TransportFactory& connect_;
  Revision revision_;
  IncidentLog& log_;
  TransportKind kind_ = TransportKind::kHttp;
  std::size_t connections_made_ = 0;

  std::unique_ptr<Connection> main_;
  /// The main connection cannot be (re)opened; checks that need it are UNVERIFIED.
  bool main_broken_ = false;
  int restarts_ = 0;
  bool retire_main_ = false;
  std::string main_failure_;

  boost::json::object capabilities_;
  bool capabilities_known_ = false;
  bool session_assigned_ = false;
  std::optional<ServerInfo> server_info_;
  std::vector<Exchange> first_open_;
};

}  // namespace mcpfuzz::checks::detail
