#pragma once
// Internal: JSON-RPC 2.0 framing shared by both eras, and the reply values handlers build
// before a front turns them into bytes.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/request.h"
#include "refserver/refserver.h"

namespace mcpfuzz::refserver::detail {

/// Deepest nesting the parser accepts. Deeper documents are answered as a parse error: a
/// nesting limit is what RFC 8259 §9 allows a parser, and it keeps recursion bounded.
inline constexpr std::size_t kMaxJsonDepth = 1024;

/// Parses a body or line. Nothing for invalid JSON, invalid UTF-8 or nesting past kMaxJsonDepth.
std::optional<boost::json::value> ParseMessage(std::string_view text);

/// A JSON-RPC error as a handler reports it.
struct RpcError {
  std::int64_t code = 0;
  std::string message;
  std::optional<boost::json::value> data;
};

/// What a broken server sends instead of JSON-RPC (the unknown-tool-html fault).
struct RawPage {
  int http_status = 500;
  std::string content_type;
  std::string body;
  std::string stdio_line;
};

/// A method handler's outcome: a result object, an error, or something that is not JSON-RPC.
struct MethodReply {
  std::variant<boost::json::object, RpcError, RawPage> reply;
  Action action = Action::kNone;
};

/// One HTTP request's or stdio line's answer, before a front turns it into bytes.
struct Answer {
  /// Notifications written before the reply (a subscription's acknowledgement): over HTTP
  /// they make the reply an SSE stream, over stdio each is a line of its own.
  std::vector<boost::json::value> notifications;
  /// The JSON-RPC reply (an object, or an array for a batch); none means no reply.
  std::optional<boost::json::value> message;
  /// Replaces `message` when set.
  std::optional<RawPage> raw;
  /// HTTP status; 202 goes with no message.
  int http_status = 202;
  /// Added to the HTTP reply (Mcp-Session-Id, Allow).
  Headers http_headers;
  Action action = Action::kNone;
};

/// A request or notification that passed framing.
struct Call {
  std::optional<boost::json::value> id;  ///< Absent for a notification.
  std::string method;
  boost::json::object params;  ///< Empty when the message had no params.
  bool is_notification() const { return !id.has_value(); }
};

/// What one JSON value is, as a JSON-RPC message sent to a server.
struct Framed {
  enum class Kind { kCall, kClientResponse, kInvalid };
  Kind kind = Kind::kInvalid;
  Call call;                       ///< For kCall.
  boost::json::value error_reply;  ///< For kInvalid: the error response to send.
};

/// Frames one JSON value (rows F2–F6 of the oracle tables): not an object → -32600 id null;
/// jsonrpc not "2.0" or method not a string → -32600 (id echoed when readable); id null,
/// fractional, bool, array or object → -32600 id null; params not an object → -32602.
/// With `lenient_jsonrpc` (invalid-request-accepted) the jsonrpc member is not checked.
Framed Frame(const boost::json::value& message, bool lenient_jsonrpc);

/// {"jsonrpc":"2.0","id":id,"error":{...}}.
boost::json::value ErrorReply(const boost::json::value& id, const RpcError& error);
/// {"jsonrpc":"2.0","id":id,"result":result}.
boost::json::value ResultReply(const boost::json::value& id, boost::json::object result);
/// The -32700 reply with id null (id 0 under the parse-error-wrong-id fault).
boost::json::value ParseErrorReply(const FaultSet& faults, std::string_view detail);
/// The JSON-RPC reply to a handled call.
boost::json::value ToReply(const boost::json::value& id, const MethodReply& reply);

/// The notifications/message this server logs the serving of `method` with, at info.
boost::json::value ServingLogMessage(std::string_view method);
/// The one notifications/progress this server sends about a request: `token`, progress 1 of 1.
boost::json::value ProgressNotification(const boost::json::value& token);
/// The `_meta.progressToken` a call gave, when it is one (a string or an integer).
std::optional<boost::json::value> ProgressTokenOf(const Call& call);

/// The answer to a notification: none, or (notification-answered) an empty result with id null.
Answer NotificationAnswer(const FaultSet& faults, bool stateless);

/// An answer carrying one JSON-RPC message with `http_status`.
Answer MessageAnswer(boost::json::value message, int http_status);

}  // namespace mcpfuzz::refserver::detail
