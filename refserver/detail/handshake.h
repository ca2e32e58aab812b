#pragma once
// Internal: the handshake era (2024-11-05 … 2025-11-25): initialize and version negotiation,
// sessions over HTTP, one implicit session over stdio, batches in 2025-03-26 only.
//
// Choices where the spec leaves the answer open (oracle tables §4a, §9b, §12):
// - ping is answered {} at any time, even before initialize (L6);
// - a second initialize gets -32600 "Server already initialized" (L8, as the TS SDK);
// - requests after the initialize response but before notifications/initialized are served;
// - once logging/setLevel set a session's level, each request served in it is logged with an
//   info notifications/message before its reply when info is at that level or above (§7 G4; the
//   fault set-level-ignored logs it whatever the level);
// - resources/subscribe of a listed resource subscribes the session to it, resources/unsubscribe
//   ends that (-32002 for a URI it does not list, as resources/read); every request served in
//   the session counts as a change of the resources it is subscribed to, so its reply carries a
//   notifications/resources/updated for each before the result (§7 R4s; the fault
//   unsubscribe-ignored answers an unsubscribe and keeps the subscription);
// - a request served with a _meta.progressToken gets one notifications/progress for it before
//   its result (§4a L10; the fault progress-after-response sends another one for it in the
//   reply of the next request served, after it was answered: L10a);
// - a cursor may be sent again (§7 C2; the fault cursor-single-use refuses a cursor the session
//   sent before with -32602 "Invalid cursor");
// - HTTP: a request without Mcp-Session-Id gets 400 (-32000), an unknown one 404 (-32001
//   "Session not found"), DELETE ends the session with 200, a present MCP-Protocol-Version
//   that is not a handshake revision gets 400 (-32000); initialize is exempt from both header
//   checks because it precedes the session and the negotiated version;
// - framing errors (-32700, -32600, -32602 for non-object params) are sent with HTTP 400,
//   method-level errors in-band with 200, accepted notifications and responses get 202.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
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

  /// One session: its negotiated revision, the log level logging/setLevel set (a rank of
  /// kLogLevels, none before one did), and the resources it is subscribed to.
  struct Session {
    Revision revision = kLatestHandshakeRevision;
    std::optional<std::size_t> log_level;
    std::set<std::string, std::less<>> subscriptions;
    /// cursor-single-use: the cursors a list request of the session carried.
    std::set<std::string, std::less<>> spent_cursors;
    /// progress-after-response: the progressToken of the last request served, whose progress
    /// the next reply repeats.
    std::optional<boost::json::value> answered_progress_token;
    bool operator==(const Session&) const = default;
  };
  /// Everything a message can change: the HTTP sessions and the stdio session.
  struct Sessions {
    std::map<std::string, Session, std::less<>> http;
    std::optional<Session> stdio;
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
  /// Answers `body` in `session` (a temporary one where a fault serves a request without one).
  Answer Process(const boost::json::value& body, Session& session) const;
  Answer ProcessBatch(const boost::json::array& batch, Session& session) const;
  MethodReply Dispatch(const Call& call, Session& session) const;
  std::string MintSessionId() const;

  const FaultSet& faults_;
  const boost::json::object& server_info_;
  Sessions sessions_;
};

}  // namespace mcpfuzz::refserver::detail
