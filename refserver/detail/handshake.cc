#include "refserver/detail/handshake.h"

#include <array>
#include <boost/json/array.hpp>
#include <random>
#include <string_view>
#include <utility>

#include "model/logging.h"
#include "model/request_builder.h"
#include "model/text.h"
#include "refserver/detail/catalog.h"
#include "refserver/detail/http_rules.h"

namespace mcpfuzz::refserver::detail {
namespace {

Answer BadRequest(std::int64_t code, std::string message, int status = 400) {
  return MessageAnswer(ErrorReply(nullptr, RpcError{code, std::move(message), std::nullopt}),
                       status);
}

Answer SessionNotFound() { return BadRequest(-32001, "Session not found", 404); }

// A valid level sets the session's (tables §7 G1, G4).
MethodReply SetLevel(const boost::json::object& params, HandshakeEra::Session& session) {
  const boost::json::value* level = params.if_contains("level");
  const std::optional<std::size_t> rank =
      level != nullptr && level->is_string() ? LogLevelRank(level->get_string()) : std::nullopt;
  if (rank) {
    session.log_level = rank;
    return {boost::json::object{}};
  }
  return {RpcError{-32602,
                   "Invalid params: level must be one of debug, info, notice, warning, "
                   "error, critical, alert, emergency",
                   std::nullopt}};
}

// resources/subscribe and resources/unsubscribe of the one resource (tables §7 R4s).
MethodReply Subscription(const FaultSet& faults, const Call& call, HandshakeEra::Session& session) {
  const boost::json::value* uri = call.params.if_contains("uri");
  if (uri == nullptr || !uri->is_string()) {
    return {RpcError{-32602, "Invalid params: uri must be a string", std::nullopt}};
  }
  if (uri->get_string() != kReadmeUri) {
    return {RpcError{-32002, "Resource not found", boost::json::object{{"uri", *uri}}}};
  }
  if (call.method == "resources/subscribe") {
    session.subscriptions.emplace(uri->get_string());
  } else if (!faults.contains(Fault::kUnsubscribeIgnored)) {
    session.subscriptions.erase(std::string(uri->get_string()));
  }
  return {boost::json::object{}};
}

// What a request served in `session` brings before its reply: an update of each resource the
// session is subscribed to (every other request served counts as a change of them), and a log
// message when the session's level lets info through.
std::vector<boost::json::value> SessionNotifications(const FaultSet& faults, const Call& call,
                                                     HandshakeEra::Session& session) {
  std::vector<boost::json::value> notifications;
  const std::optional<boost::json::value> token = ProgressTokenOf(call);
  if (token) notifications.push_back(ProgressNotification(*token));
  if (faults.contains(Fault::kProgressAfterResponse)) {
    if (session.answered_progress_token) {
      notifications.push_back(ProgressNotification(*session.answered_progress_token));
    }
    session.answered_progress_token = token;
  }
  if (call.method != "resources/subscribe" && call.method != "resources/unsubscribe") {
    for (const std::string& uri : session.subscriptions) {
      notifications.push_back(boost::json::object{{"jsonrpc", "2.0"},
                                                  {"method", "notifications/resources/updated"},
                                                  {"params", boost::json::object{{"uri", uri}}}});
    }
  }
  if (session.log_level && call.method != "logging/setLevel" &&
      (*session.log_level <= *LogLevelRank("info") || faults.contains(Fault::kSetLevelIgnored))) {
    notifications.push_back(ServingLogMessage(call.method));
  }
  return notifications;
}

// A raw page or a hang replaces the whole reply, whatever else the message held.
std::optional<Answer> TakeOverAnswer(const MethodReply& reply) {
  if (const auto* page = std::get_if<RawPage>(&reply.reply)) {
    Answer answer;
    answer.raw = *page;
    answer.http_status = page->http_status;
    answer.action = reply.action;
    return answer;
  }
  if (reply.action == Action::kHang || reply.action == Action::kCrash) {
    Answer answer;
    answer.action = reply.action;
    return answer;
  }
  return std::nullopt;
}

}  // namespace

Answer HandshakeEra::HandleHttpPost(const Headers& headers, const boost::json::value& body) {
  Framed framed = Frame(body, faults_.contains(Fault::kInvalidRequestAccepted));
  const bool is_initialize = body.is_object() && framed.kind == Framed::Kind::kCall &&
                             framed.call.method == "initialize" && !framed.call.is_notification();
  // Where a fault serves a request without a session of its own.
  Session unbound;
  Session* serving = &unbound;
  if (auto session_id = FindHeader(headers, kHeaderSessionId)) {
    auto session = sessions_.http.find(TrimOws(*session_id));
    if (session != sessions_.http.end()) {
      serving = &session->second;
    } else if (!faults_.contains(Fault::kStaleSessionServed)) {
      return SessionNotFound();
    }
    if (is_initialize) {
      // The id is known, so the error echoes it (JSON-RPC 2.0 §5: null only when it is not).
      return MessageAnswer(
          ErrorReply(*framed.call.id,
                     RpcError{-32600, "Invalid Request: Server already initialized", std::nullopt}),
          400);
    }
  } else if (is_initialize) {
    Initialized initialized = Initialize(framed.call);
    Answer answer = MessageAnswer(ToReply(*framed.call.id, initialized.reply), 200);
    answer.action = initialized.reply.action;
    if (std::holds_alternative<boost::json::object>(initialized.reply.reply)) {
      std::string id = MintSessionId();
      Session session;
      session.revision = initialized.revision;
      sessions_.http.emplace(id, std::move(session));
      answer.http_headers.push_back({std::string(kHeaderSessionId), id});
    }
    return answer;
  } else if (faults_.contains(Fault::kSessionNotEnforced)) {
    if (auto header = FindHeader(headers, kHeaderProtocolVersion)) {
      unbound.revision = ParseRevision(TrimOws(*header)).value_or(unbound.revision);
    }
  } else {
    return BadRequest(-32000, "Bad Request: Mcp-Session-Id header is required");
  }

  if (auto header = FindHeader(headers, kHeaderProtocolVersion)) {
    auto named = ParseRevision(TrimOws(*header));
    if (!named || EraOf(*named) != Era::kHandshake) {
      return BadRequest(-32000, "Bad Request: Unsupported protocol version " +
                                    ToValidUtf8(*header) + " in MCP-Protocol-Version");
    }
  }
  return Process(body, *serving);
}

Answer HandshakeEra::HandleHttpDelete(const Headers& headers) {
  auto session_id = FindHeader(headers, kHeaderSessionId);
  if (!session_id) return BadRequest(-32000, "Bad Request: Mcp-Session-Id header is required");
  auto session = sessions_.http.find(TrimOws(*session_id));
  if (session == sessions_.http.end()) return SessionNotFound();
  if (faults_.contains(Fault::kDeleteEndsAllSessions)) {
    sessions_.http.clear();
  } else if (!faults_.contains(Fault::kDeletedSessionServed)) {
    sessions_.http.erase(session);
  }
  Answer answer;
  answer.http_status = 200;
  return answer;
}

Answer HandshakeEra::HandleStdio(const boost::json::value& message) {
  Framed framed = Frame(message, faults_.contains(Fault::kInvalidRequestAccepted));
  if (message.is_object() && framed.kind == Framed::Kind::kCall &&
      framed.call.method == "initialize" && !framed.call.is_notification() && !sessions_.stdio) {
    Initialized initialized = Initialize(framed.call);
    if (std::holds_alternative<boost::json::object>(initialized.reply.reply)) {
      sessions_.stdio = Session{};
      sessions_.stdio->revision = initialized.revision;
    }
    Answer answer = MessageAnswer(ToReply(*framed.call.id, initialized.reply), 200);
    answer.action = initialized.reply.action;
    return answer;
  }
  Session before_initialize;
  return Process(message, sessions_.stdio ? *sessions_.stdio : before_initialize);
}

HandshakeEra::Initialized HandshakeEra::Initialize(const Call& call) const {
  const boost::json::value* requested = call.params.if_contains("protocolVersion");
  if (requested == nullptr || !requested->is_string()) {
    return {{RpcError{-32602, "Invalid params: initialize needs a string protocolVersion",
                      std::nullopt}}};
  }
  // L2: an unsupported request is answered with the latest revision, not an error.
  auto named = ParseRevision(requested->get_string());
  Revision revision =
      (named && EraOf(*named) == Era::kHandshake) ? *named : kLatestHandshakeRevision;
  boost::json::value answered_version(ToString(revision));
  if (faults_.contains(Fault::kUnsupportedVersionEchoed)) answered_version = *requested;

  boost::json::object result{{"protocolVersion", answered_version},
                             {"capabilities", ServerCapabilities(Era::kHandshake)},
                             {"serverInfo", server_info_}};
  if (revision >= Revision::k2025_03_26) result["instructions"] = ServerInstructions();
  MethodReply reply{std::move(result)};
  if (faults_.contains(Fault::kExitAfterInitialize)) reply.action = Action::kExit;
  return {std::move(reply), revision};
}

Answer HandshakeEra::Process(const boost::json::value& body, Session& session) const {
  if (const auto* batch = body.if_array()) return ProcessBatch(*batch, session);
  Framed framed = Frame(body, faults_.contains(Fault::kInvalidRequestAccepted));
  switch (framed.kind) {
    case Framed::Kind::kInvalid:
      return MessageAnswer(framed.error_reply, 400);
    case Framed::Kind::kClientResponse:
      return Answer{};
    case Framed::Kind::kCall:
      break;
  }
  if (framed.call.is_notification()) return NotificationAnswer(faults_, false);
  MethodReply reply = Dispatch(framed.call, session);
  if (auto take_over = TakeOverAnswer(reply)) return *take_over;
  Answer answer = MessageAnswer(ToReply(*framed.call.id, reply), 200);
  answer.action = reply.action;
  if (std::holds_alternative<boost::json::object>(reply.reply)) {
    answer.notifications = SessionNotifications(faults_, framed.call, session);
  }
  return answer;
}

Answer HandshakeEra::ProcessBatch(const boost::json::array& batch, Session& session) const {
  if (session.revision != Revision::k2025_03_26 ||
      faults_.contains(Fault::kBatchRejectedIn2025_03_26)) {
    return BadRequest(-32600, "Invalid Request: JSON-RPC batches are not supported in " +
                                  std::string(ToString(session.revision)));
  }
  if (batch.empty()) return BadRequest(-32600, "Invalid Request: empty batch");
  boost::json::array replies;
  for (const boost::json::value& element : batch) {
    Framed framed = Frame(element, faults_.contains(Fault::kInvalidRequestAccepted));
    if (framed.kind == Framed::Kind::kInvalid) {
      replies.push_back(framed.error_reply);
      continue;
    }
    if (framed.kind == Framed::Kind::kClientResponse) continue;
    if (framed.call.is_notification()) {
      if (auto answered = NotificationAnswer(faults_, false).message) {
        replies.push_back(std::move(*answered));
      }
      continue;
    }
    MethodReply reply =
        framed.call.method == "initialize"
            ? MethodReply{RpcError{-32600, "Invalid Request: initialize must not be batched", {}}}
            : Dispatch(framed.call, session);
    if (auto take_over = TakeOverAnswer(reply)) return *take_over;
    replies.push_back(ToReply(*framed.call.id, reply));
  }
  if (replies.empty()) return Answer{};
  return MessageAnswer(std::move(replies), 200);
}

MethodReply HandshakeEra::Dispatch(const Call& call, Session& session) const {
  if (call.method == "ping") {
    if (faults_.contains(Fault::kPingMethodNotFound)) {
      return {RpcError{-32601, "Method not found: ping", std::nullopt}};
    }
    return {boost::json::object{}};
  }
  if (call.method == "initialize") {
    return {RpcError{-32600, "Invalid Request: Server already initialized", std::nullopt}};
  }
  if (call.method == "logging/setLevel") return SetLevel(call.params, session);
  if (call.method == "resources/subscribe" || call.method == "resources/unsubscribe") {
    return Subscription(faults_, call, session);
  }
  if (IsCatalogMethod(call.method)) {
    const boost::json::value* cursor = call.params.if_contains("cursor");
    if (faults_.contains(Fault::kCursorSingleUse) && cursor != nullptr && cursor->is_string() &&
        !session.spent_cursors.emplace(cursor->get_string()).second) {
      return {RpcError{-32602, "Invalid cursor", std::nullopt}};
    }
    return CallCatalog(faults_, session.revision, call.method, call.params);
  }
  return {RpcError{-32601, "Method not found: " + call.method, std::nullopt}};
}

std::string HandshakeEra::MintSessionId() const {
  static constexpr std::string_view kHex = "0123456789abcdef";
  std::random_device entropy;
  std::string id;
  while (id.size() < 32) {
    auto bits = entropy();
    for (int nibble = 0; nibble < 8; ++nibble, bits >>= 4U) id.push_back(kHex[bits & 0xFU]);
  }
  return id;
}

}  // namespace mcpfuzz::refserver::detail
