#pragma once
// Internal: one MCP session of a campaign or replay, in one revision, kept alive across cases:
// a stdio server that died or went deaf is started again, an HTTP connection that failed is
// opened again (with a new session in the handshake era).

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "generators/generated_case.h"
#include "transport/client.h"
#include "transport/era_probe.h"

namespace mcpfuzz::campaign_detail {

class Session {
 public:
  Session(const TransportFactory& connect, Revision revision);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// Connects and opens the session. With `list_features`, also lists tools, prompts and
  /// resources into context(). False (and why) when the target could not be opened.
  bool Open(bool list_features, std::string& why);

  /// Sends `request`, first reopening the session when the previous exchange left it broken.
  /// An observation with Outcome::kTransportError and a detail says when that failed.
  Observation Send(const Request& request);

  /// A stdio server found ended before a Send, after answering the exchange before it: the
  /// exit, once. The session was restarted for the Send.
  std::optional<ProcessExit> TakeDeathBetweenExchanges();
  /// Waits up to `wait` for a stdio server to end after its last exchange; the exit if it did.
  std::optional<ProcessExit> AwaitDeath(std::chrono::milliseconds wait);

  /// A well-formed request every server of the revision answers (ping, or server/discover).
  Request Probe() const;
  /// The next Send reopens the session first (a stdio server that stopped answering).
  void MarkBroken() { broken_ = true; }

  /// The session could not be reopened: nothing more is sent.
  bool lost() const { return lost_; }
  const std::string& lost_reason() const { return lost_reason_; }
  Revision revision() const { return revision_; }
  TransportKind kind() const { return kind_; }
  /// Where requests go, for people and reproducers.
  const std::string& target_description() const { return description_; }
  const GenContext& context() const { return context_; }
  GenContext& mutable_context() { return context_; }
  std::size_t reopens() const { return reopens_; }

 private:
  bool Connect(std::string& why);
  void ListFeatures();
  StdioTransport* stdio() const;

  const TransportFactory& connect_;
  Revision revision_;
  TransportKind kind_ = TransportKind::kHttp;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<McpClient> client_;
  GenContext context_;
  std::string description_;
  bool broken_ = false;
  bool lost_ = false;
  std::string lost_reason_;
  std::optional<ProcessExit> death_between_;
  std::size_t reopens_ = 0;
};

}  // namespace mcpfuzz::campaign_detail
