// ReferenceServer: assigns each message to an era (see refserver.h), runs the checks both eras
// share, and turns an Answer into the bytes a front writes.

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <mutex>
#include <utility>

#include "model/json_depth.h"
#include "model/request_builder.h"
#include "model/request_edit.h"
#include "refserver/detail/handshake.h"
#include "refserver/detail/http_rules.h"
#include "refserver/detail/jsonrpc.h"
#include "refserver/detail/stateless.h"
#include "refserver/refserver.h"

namespace mcpfuzz::refserver {
// This file puts the era handlers, framing and catalog together behind ReferenceServer.
using namespace detail;
namespace {

constexpr std::size_t kCrashDepth = 64;
// Fault crash-on-long-id: a string id longer than this aborts, as a server copying ids into a
// fixed buffer would.
constexpr std::size_t kCrashIdBytes = 4096;
// Over 10 MiB: the line length past which the stdio stacks measured stop answering.
constexpr std::size_t kBigLine = std::size_t{10} << 20;
constexpr std::string_view kLeakedInternals =
    "\n    at ToolRouter.dispatch (/srv/app/src/router.js:88:11)"
    "\n    at McpServer.handle (/srv/app/node_modules/mcp-core/dist/server.js:412:23)"
    "\n    upstream db-primary.prod.internal.corp:5432 refused the connection";
constexpr std::string_view kStdoutLogLine = "[INFO] mcpfuzz-refserver: handling message";

bool HasStatelessMeta(const boost::json::value& message) {
  const boost::json::object* meta = ParamsMeta(message);
  return meta != nullptr &&
         (meta->contains(kMetaProtocolVersion) || meta->contains(kMetaClientCapabilities));
}

bool IsMethod(const boost::json::value& message, std::string_view method) {
  const auto* object = message.if_object();
  const auto* value = object != nullptr ? object->if_contains("method") : nullptr;
  return value != nullptr && value->is_string() && value->get_string() == method;
}

bool HasLongStringId(const boost::json::value& message) {
  if (const auto* batch = message.if_array()) {
    return std::any_of(batch->begin(), batch->end(), HasLongStringId);
  }
  const auto* object = message.if_object();
  const auto* id = object != nullptr ? object->if_contains("id") : nullptr;
  return id != nullptr && id->is_string() && id->get_string().size() > kCrashIdBytes;
}

void LeakInternals(boost::json::value& message) {
  if (auto* batch = message.if_array()) {
    for (auto& element : *batch) LeakInternals(element);
    return;
  }
  auto* object = message.if_object();
  auto* error = object != nullptr ? object->if_contains("error") : nullptr;
  auto* error_object = error != nullptr ? error->if_object() : nullptr;
  auto* text = error_object != nullptr ? error_object->if_contains("message") : nullptr;
  if (text != nullptr && text->is_string()) text->get_string().append(kLeakedInternals);
}

// A request the handler served: the era-distinctive request that locks a stdio connection.
bool Served(const Answer& answer) {
  const auto* object = answer.message ? answer.message->if_object() : nullptr;
  return !answer.raw && object != nullptr && object->contains("result");
}

HttpReply JsonReply(int status, std::int64_t code, std::string message) {
  HttpReply reply;
  reply.status = status;
  reply.headers.push_back({"Content-Type", "application/json"});
  reply.body =
      boost::json::serialize(ErrorReply(nullptr, RpcError{code, std::move(message), std::nullopt}));
  return reply;
}

}  // namespace

struct ReferenceServer::State {
  explicit State(ServerOptions server_options) : options(std::move(server_options)) {}

  enum class HttpEra { kHandshake, kStateless };
  HttpEra DetectHttpEra(const Headers& headers,
                        const std::optional<boost::json::value>& json) const {
    if (json && HasStatelessMeta(*json)) return HttpEra::kStateless;
    if (FindHeader(headers, kHeaderSessionId)) return HttpEra::kHandshake;
    if (json && IsMethod(*json, "initialize")) return HttpEra::kHandshake;
    if (auto header = FindHeader(headers, kHeaderProtocolVersion)) {
      auto named = ParseRevision(TrimOws(*header));
      return (named && EraOf(*named) == Era::kHandshake) ? HttpEra::kHandshake
                                                         : HttpEra::kStateless;
    }
    // No modern marker: a dual-era front serves it on its legacy leg, as 2025-03-26 (§10 X6).
    return options.faults.contains(Fault::kSessionNotEnforced) || options.DualEra()
               ? HttpEra::kHandshake
               : HttpEra::kStateless;
  }

  // The dual-era stdio front (refserver.h): the connection's era, locked by the first
  // era-distinctive request served; server/discover never locks.
  enum class StdioEra { kUnlocked, kHandshake, kStateless };
  Answer DualEraStdio(const boost::json::value& json) {
    const FaultSet& faults = options.faults;
    const bool enveloped = HasStatelessMeta(json) && !IsMethod(json, "initialize");
    switch (stdio_era) {
      case StdioEra::kStateless:
        if (!enveloped && json.is_object() && faults.contains(Fault::kEraLockIgnored)) {
          return handshake.HandleStdio(json);
        }
        if (RelocksEra(json)) return Relock(json);
        // Envelope-less or partial-envelope requests are refused for the missing fields (V1).
        return HandleStatelessStdio(faults, server_info, json);
      case StdioEra::kHandshake:
        if (enveloped && !faults.contains(Fault::kEraSwitchAfterInitialize)) {
          return EraConflict(json);
        }
        return enveloped ? HandleStatelessStdio(faults, server_info, json)
                         : handshake.HandleStdio(json);
      case StdioEra::kUnlocked:
        break;
    }
    if (IsMethod(json, "server/discover")) return HandleStatelessStdio(faults, server_info, json);
    if (json.is_array()) return handshake.HandleStdio(json);
    Answer answer =
        enveloped ? HandleStatelessStdio(faults, server_info, json) : handshake.HandleStdio(json);
    if (Served(answer)) stdio_era = enveloped ? StdioEra::kStateless : StdioEra::kHandshake;
    return answer;
  }

  // The stdio front without --dual-era: each message goes to its era (refserver.h), but once a
  // served enveloped request or initialize has locked the connection, a request of the other
  // era is refused as the dual-era front refuses it (tables §4b V16a, V16b).
  Answer SplitEraStdio(const boost::json::value& json) {
    const FaultSet& faults = options.faults;
    const bool enveloped = HasStatelessMeta(json) && !IsMethod(json, "initialize");
    if (enveloped && stdio_era == StdioEra::kHandshake &&
        !faults.contains(Fault::kEraSwitchAfterInitialize)) {
      return EraConflict(json);
    }
    if (stdio_era == StdioEra::kStateless && IsMethod(json, "initialize") &&
        !HasStatelessMeta(json)) {
      // Refused for the missing _meta (V1), unless the fault lets it re-lock the connection.
      return RelocksEra(json) ? Relock(json) : HandleStatelessStdio(faults, server_info, json);
    }
    Answer answer;
    if (HasStatelessMeta(json)) {
      answer = HandleStatelessStdio(faults, server_info, json);
    } else if (json.is_array() || handshake.stdio_initialized() || IsMethod(json, "initialize") ||
               IsMethod(json, "ping")) {
      answer = handshake.HandleStdio(json);
    } else {
      // Before initialize and without _meta: the stateless rules reject the missing _meta.
      answer = HandleStatelessStdio(faults, server_info, json);
    }
    // Only initialize locks the handshake era here: ping is answered in either era.
    if (stdio_era == StdioEra::kUnlocked && Served(answer) && !IsMethod(json, "server/discover")) {
      if (enveloped) stdio_era = StdioEra::kStateless;
      if (IsMethod(json, "initialize") && !HasStatelessMeta(json)) stdio_era = StdioEra::kHandshake;
    }
    return answer;
  }

  // Fault initialize-relocks-era: an envelope-less initialize on a connection locked to
  // 2026-07-28.
  bool RelocksEra(const boost::json::value& json) const {
    return options.faults.contains(Fault::kInitializeRelocksEra) && IsMethod(json, "initialize") &&
           !HasStatelessMeta(json);
  }
  Answer Relock(const boost::json::value& json) {
    Answer answer = handshake.HandleStdio(json);
    if (Served(answer)) stdio_era = StdioEra::kHandshake;
    return answer;
  }

  // An enveloped message on a connection locked to the handshake era, as the dual-era SDKs
  // answer it: -32600 for a request, nothing for a notification.
  Answer EraConflict(const boost::json::value& json) const {
    Framed framed = Frame(json, options.faults.contains(Fault::kInvalidRequestAccepted));
    if (framed.kind == Framed::Kind::kInvalid) return MessageAnswer(framed.error_reply, 400);
    if (framed.kind != Framed::Kind::kCall || framed.call.is_notification()) return {};
    return MessageAnswer(
        ErrorReply(*framed.call.id,
                   RpcError{-32600,
                            "Invalid Request: this connection serves the handshake era; "
                            "2026-07-28 envelope requests are not accepted on it",
                            std::nullopt}),
        200);
  }

  std::string Serialize(boost::json::value message) const {
    if (options.faults.contains(Fault::kErrorLeaksInternals)) LeakInternals(message);
    return boost::json::serialize(message);
  }

  HttpReply ToHttpReply(Answer answer) const {
    HttpReply reply;
    reply.status = answer.http_status;
    reply.action = answer.action;
    if (answer.raw) {
      reply.status = answer.raw->http_status;
      reply.headers.push_back({"Content-Type", answer.raw->content_type});
      reply.body = std::move(answer.raw->body);
    } else if (!answer.notifications.empty()) {
      // Messages before the reply make it a stream (Streamable HTTP "Sending Messages" 6).
      reply.headers.push_back({"Content-Type", "text/event-stream"});
      if (answer.message) answer.notifications.push_back(std::move(*answer.message));
      for (boost::json::value& message : answer.notifications) {
        reply.body += "event: message\ndata: " + Serialize(std::move(message)) + "\n\n";
      }
    } else if (answer.message) {
      reply.headers.push_back({"Content-Type", "application/json"});
      reply.body = Serialize(std::move(*answer.message));
    }
    for (Header& header : answer.http_headers) reply.headers.push_back(std::move(header));
    return reply;
  }

  ServerOptions options;
  const boost::json::object server_info{{"name", options.server_name},
                                        {"version", options.server_version}};
  std::mutex mutex;
  HandshakeEra handshake{options.faults, server_info};
  HandshakeEra::Sessions checkpoint;
  StdioEra stdio_era = StdioEra::kUnlocked;
  StdioEra checkpoint_era = StdioEra::kUnlocked;
  /// deaf-after-big-line: a line over kBigLine was read; nothing is answered any more.
  bool deaf = false;
};

ReferenceServer::ReferenceServer(ServerOptions options)
    : state_(std::make_unique<State>(std::move(options))) {}

ReferenceServer::~ReferenceServer() = default;

const ServerOptions& ReferenceServer::options() const { return state_->options; }

void ReferenceServer::Checkpoint() {
  std::lock_guard lock(state_->mutex);
  state_->checkpoint = state_->handshake.sessions();
  state_->checkpoint_era = state_->stdio_era;
}

void ReferenceServer::Rewind() {
  std::lock_guard lock(state_->mutex);
  state_->deaf = false;
  // Most inputs change nothing; comparing is cheaper than copying the sessions back.
  if (state_->handshake.sessions() != state_->checkpoint) {
    state_->handshake.set_sessions(state_->checkpoint);
  }
  state_->stdio_era = state_->checkpoint_era;
}

HttpReply ReferenceServer::HandleHttp(const HttpRequest& received) {
  std::lock_guard lock(state_->mutex);
  const FaultSet& faults = state_->options.faults;
  const Headers& headers = received.headers;
  if (received.path != kEndpointPath) {
    return HttpReply{404, {{"Content-Type", "text/plain"}}, "Not Found\n", Action::kNone};
  }
  if (!faults.contains(Fault::kOriginNotChecked) && !OriginAndHostAllowed(headers)) {
    return JsonReply(403, -32600, "Forbidden: Origin or Host is not a loopback address");
  }
  if (faults.contains(Fault::kCrashOnDeepNesting) &&
      JsonNestingDepth(received.body) > kCrashDepth) {
    return HttpReply{500, {}, "", Action::kCrash};
  }
  if (faults.contains(Fault::k500OnDeepNesting) &&
      JsonNestingDepth(received.body) > kMaxJsonDepth && IsJsonText(received.body)) {
    // A recursive parser out of stack, caught by a generic handler.
    return JsonReply(500, -32603, "Internal error");
  }
  std::optional<boost::json::value> json = ParseMessage(received.body);
  if (faults.contains(Fault::kCrashOnLongId) && json && HasLongStringId(*json)) {
    return HttpReply{500, {}, "", Action::kCrash};
  }
  const auto era = state_->DetectHttpEra(headers, json);
  const bool handshake = era == State::HttpEra::kHandshake;

  if (received.method != "POST") {
    if (received.method == "DELETE" && handshake && FindHeader(headers, kHeaderSessionId)) {
      return state_->ToHttpReply(state_->handshake.HandleHttpDelete(headers));
    }
    HttpReply reply = JsonReply(405, -32600, "Method not allowed: " + received.method);
    reply.headers.push_back({"Allow", handshake ? "POST, DELETE" : "POST"});
    return reply;
  }
  if (!AcceptsJson(headers)) {
    return JsonReply(406, -32600, "Not Acceptable: Accept must include application/json");
  }
  if (!IsJsonContentType(headers)) {
    return JsonReply(415, -32600, "Unsupported Media Type: Content-Type must be application/json");
  }
  if (!json) {
    return state_->ToHttpReply(MessageAnswer(ParseErrorReply(faults, "Invalid JSON"), 400));
  }
  Answer answer = handshake ? state_->handshake.HandleHttpPost(headers, *json)
                            : HandleStatelessHttp(faults, state_->server_info, headers, *json);
  return state_->ToHttpReply(std::move(answer));
}

StdioReply ReferenceServer::HandleStdioLine(std::string_view line) {
  std::lock_guard lock(state_->mutex);
  const FaultSet& faults = state_->options.faults;
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return {};
  if (faults.contains(Fault::kDeafAfterBigLine) && (state_->deaf || line.size() > kBigLine)) {
    // Every stdio stack measured stops answering after such a line (issue #13).
    state_->deaf = true;
    return {};
  }
  if (faults.contains(Fault::kCrashOnDeepNesting) && JsonNestingDepth(line) > kCrashDepth) {
    return {{}, Action::kCrash};
  }
  std::optional<boost::json::value> json = ParseMessage(line);
  if (faults.contains(Fault::kCrashOnLongId) && json && HasLongStringId(*json)) {
    return {{}, Action::kCrash};
  }
  Answer answer;
  if (!json) {
    answer = MessageAnswer(ParseErrorReply(faults, "Invalid JSON"), 400);
  } else if (state_->options.DualEra()) {
    answer = state_->DualEraStdio(*json);
  } else {
    answer = state_->SplitEraStdio(*json);
  }

  StdioReply reply;
  reply.action = answer.action;
  if (answer.raw) {
    reply.lines.push_back(std::move(answer.raw->stdio_line));
  } else {
    for (boost::json::value& message : answer.notifications) {
      reply.lines.push_back(state_->Serialize(std::move(message)));
    }
    if (answer.message) reply.lines.push_back(state_->Serialize(std::move(*answer.message)));
  }
  if (!reply.lines.empty() && faults.contains(Fault::kLogsOnStdout)) {
    reply.lines.insert(reply.lines.begin(), std::string(kStdoutLogLine));
  }
  return reply;
}

}  // namespace mcpfuzz::refserver
