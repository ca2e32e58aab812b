#pragma once
// Which channel a server answered on: the distinction the whole suite is about.

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/observation.h"
#include "model/request.h"

namespace mcpfuzz {

enum class Channel {
  kProtocolError,     ///< A well-formed JSON-RPC error response.
  kExecutionError,    ///< A result with `isError: true`.
  kSuccess,           ///< A result with `isError` absent or false.
  kNoReply,           ///< Nothing came back (HTTP 202 or an empty body; silence on stdio).
  kNotJsonRpc,        ///< HTML, plain text, invalid JSON, or a message with both result and error.
  kTransportFailure,  ///< Timeout, refused or reset connection, exited process.
};
std::string_view ToString(Channel channel);
/// A JSON-RPC response came: a result (with or without isError) or an error. The request it
/// answers is no longer active.
constexpr bool IsResponse(Channel channel) {
  return channel == Channel::kSuccess || channel == Channel::kExecutionError ||
         channel == Channel::kProtocolError;
}

/// The reply to one request, classified.
struct Reply {
  Channel channel = Channel::kNoReply;
  /// The JSON-RPC response that was classified, when there is one.
  std::optional<boost::json::value> message;
  /// error.code, when the channel is kProtocolError.
  std::optional<std::int64_t> error_code;
  /// Why the reply landed on its channel, for people ("result and error both present").
  std::string reason;
};

/// An object without `method` that has `id`, `result` or `error`: a response, well-formed or
/// not, as opposed to a request or notification travelling the other way.
bool IsResponseShaped(const boost::json::value& message);

/// Classifies one JSON value as a JSON-RPC response.
Reply ClassifyMessage(const boost::json::value& message);

/// Classifies the reply to `request` inside `observation`. The reply is the response whose id
/// equals the request's id; failing that, the first response-shaped message. Server-to-client
/// requests and notifications seen on the way are not the reply.
Reply ClassifyReply(const Request& request, const Observation& observation);
/// The same for a caller that has read the request's id (Request::RpcId) already.
Reply ClassifyReply(const std::optional<boost::json::value>& request_id,
                    const Observation& observation);

/// An answer in one line for people: "protocol_error -32602 (HTTP 400)", "success".
std::string DescribeObserved(Channel channel, std::optional<std::int64_t> code, int http_status);
/// The same for a classified reply; a transport failure names what failed instead of a status.
std::string DescribeReply(const Reply& reply, const Observation& observation);

/// True when the server answered `sentinel`: it read past the request written before it.
bool SentinelAnswered(const Request& sentinel, const Observation& observation);

/// The observation shows the process ended (an exit, or an exit code or signal reported with a
/// reply that came out before the end).
bool ProcessEnded(const Observation& observation);

}  // namespace mcpfuzz
