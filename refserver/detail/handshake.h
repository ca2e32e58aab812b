#pragma once
// Internal: the handshake era (2024-11-05 … 2025-11-25): initialize and version negotiation,
// sessions over HTTP, one implicit session over stdio, batches in 2025-03-26 only.
//
// Choices where the spec leaves the answer open (oracle tables §4a, §9b, §12):
// - ping is answered {} at any time, even before initialize (L6);
// - a second initialize gets -32600 "Server already initialized" (L8, as the TS SDK; the
//   fault reinitialize-renegotiates answers it and changes the session's version instead);
// - requests after the initialize response but before notifications/initialized are served;
// - HTTP: a request without Mcp-Session-Id gets 400 (-32000), an unknown one 404 (-32001
//   "Session not found"), DELETE ends the session with 200, a present MCP-Protocol-Version
//   that is not a handshake revision gets 400 (-32000); initialize is exempt from both header
//   checks because it precedes the session and the negotiated version;
// - framing errors (-32700, -32600, -32602 for non-object params) are sent with HTTP 400,
//   method-level errors in-band with 200, accepted notifications and responses get 202.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "model/request.h"
#include "model/revision.h"
#include "refserver/detail/jsonrpc.h"
#include "refserver/faults.h"

namespace mcpfuzz::refserver::detail {

class HandshakeEra {
 public:
  /// `server_info` is the serverInfo initialize announces; both must outlive the era.
  HandshakeEra(const FaultSet& faults, const boost::json::object& server_info)
      : faults_(faults), server_info_(server_info) {}

  /// A POST routed to this era, after the front's method, Accept and Content-Type checks.
  Answer HandleHttpPost(const Headers& headers, const boost::json::value& body);
  /// A DELETE carrying Mcp-Session-Id: 200 and the session is gone, or 404.
  Answer HandleHttpDelete(const Headers& headers);
  /// One parsed stdio line routed to this era.
  Answer HandleStdio(const boost::json::value& message);

  /// True once initialize was answered on stdio.
  bool stdio_initialized() const { return sessions_.stdio.has_value(); }

  /// Everything a message can change: the HTTP sessions and the stdio session.
  struct Sessions {
    std::map<std::string, Revision, std::less<>> http;
    std::optional<Revision> stdio;
    bool operator==(const Sessions&) const = default;
  };
  const Sessions& sessions() const { return sessions_; }
  void set_sessions(Sessions sessions) { sessions_ = std::move(sessions); }

 private:
  struct Initialized {
    MethodReply reply;
    Revision revision = kLatestHandshakeRevision;
  };
  Initialized Initialize(const Call& call) const;
  Answer Process(const boost::json::value& body, Revision revision) const;
  Answer ProcessBatch(const boost::json::array& batch, Revision revision) const;
  MethodReply Dispatch(const Call& call, Revision revision) const;
  std::string MintSessionId() const;

  const FaultSet& faults_;
  const boost::json::object& server_info_;
  Sessions sessions_;
};

}  // namespace mcpfuzz::refserver::detail
