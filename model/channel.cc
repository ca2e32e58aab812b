#include "model/channel.h"

namespace mcpfuzz {
namespace {

Reply NotJsonRpc(std::string reason, std::optional<boost::json::value> message = std::nullopt) {
  return Reply{Channel::kNotJsonRpc, std::move(message), std::nullopt, std::move(reason)};
}

}  // namespace

bool IsResponseShaped(const boost::json::value& message) {
  const auto* object = message.if_object();
  return object != nullptr && !object->contains("method") &&
         (object->contains("id") || object->contains("result") || object->contains("error"));
}

std::string_view ToString(Channel channel) {
  switch (channel) {
    case Channel::kProtocolError:
      return "protocol_error";
    case Channel::kExecutionError:
      return "execution_error";
    case Channel::kSuccess:
      return "success";
    case Channel::kNoReply:
      return "no_reply";
    case Channel::kNotJsonRpc:
      return "not_json_rpc";
    case Channel::kTransportFailure:
      return "transport_failure";
  }
  return "unknown";
}

std::string_view ToString(Outcome outcome) {
  switch (outcome) {
    case Outcome::kOk:
      return "ok";
    case Outcome::kTimeout:
      return "timeout";
    case Outcome::kConnectionRefused:
      return "connection_refused";
    case Outcome::kConnectionReset:
      return "connection_reset";
    case Outcome::kExited:
      return "exited";
    case Outcome::kAliveButDeaf:
      return "alive_but_deaf";
    case Outcome::kDropped:
      return "dropped";
    case Outcome::kTooLarge:
      return "too_large";
    case Outcome::kTransportError:
      return "transport_error";
  }
  return "unknown";
}

std::string_view ToString(TimeLimit limit) {
  switch (limit) {
    case TimeLimit::kReply:
      return "reply";
    case TimeLimit::kStartup:
      return "startup";
    case TimeLimit::kPatience:
      return "patience";
    case TimeLimit::kStreamOpen:
      return "stream-open";
  }
  return "reply";
}

std::optional<TimeLimit> TimeLimitNamed(std::string_view name) {
  for (TimeLimit limit :
       {TimeLimit::kReply, TimeLimit::kStartup, TimeLimit::kPatience, TimeLimit::kStreamOpen}) {
    if (ToString(limit) == name) return limit;
  }
  return std::nullopt;
}

std::string_view Describe(TimeLimit limit) {
  switch (limit) {
    case TimeLimit::kReply:
      return "the time limit";
    case TimeLimit::kStartup:
      return "the start-up limit";
    case TimeLimit::kPatience:
      return "the patience kept for a server that went deaf before";
    case TimeLimit::kStreamOpen:
      return "the wait for a GET stream's headers";
  }
  return "the time limit";
}

Reply ClassifyMessage(const boost::json::value& message) {
  if (!message.is_object()) return NotJsonRpc("not a JSON object", message);
  const auto& object = message.as_object();
  const auto* jsonrpc = object.if_contains("jsonrpc");
  if (jsonrpc == nullptr || !jsonrpc->is_string() || jsonrpc->as_string() != "2.0") {
    return NotJsonRpc("jsonrpc is not \"2.0\"", message);
  }
  const auto* result = object.if_contains("result");
  const auto* error = object.if_contains("error");
  if (result != nullptr && error != nullptr) {
    return NotJsonRpc("result and error both present", message);
  }
  if (error != nullptr) {
    if (!error->is_object()) return NotJsonRpc("error is not an object", message);
    const auto* code = error->as_object().if_contains("code");
    const auto* text = error->as_object().if_contains("message");
    if (code == nullptr || !code->is_int64()) {
      // 1.0 parses as a double in Boost.JSON; JSON-RPC demands an integer.
      return NotJsonRpc("error.code is not an integer", message);
    }
    if (text == nullptr || !text->is_string()) {
      return NotJsonRpc("error.message is not a string", message);
    }
    return Reply{Channel::kProtocolError, message, code->as_int64(), "JSON-RPC error"};
  }
  if (result != nullptr) {
    if (!result->is_object()) return NotJsonRpc("result is not an object", message);
    const auto* is_error = result->as_object().if_contains("isError");
    if (is_error != nullptr && is_error->is_bool() && is_error->as_bool()) {
      return Reply{Channel::kExecutionError, message, std::nullopt, "result with isError: true"};
    }
    return Reply{Channel::kSuccess, message, std::nullopt, "result"};
  }
  return NotJsonRpc("neither result nor error", message);
}

Reply ClassifyReply(const Request& request, const Observation& observation) {
  if (observation.outcome != Outcome::kOk) return ClassifyReply(std::nullopt, observation);
  return ClassifyReply(request.RpcId(), observation);
}

Reply ClassifyReply(const std::optional<boost::json::value>& id, const Observation& observation) {
  if (observation.outcome == Outcome::kDropped) {
    return Reply{Channel::kNoReply, std::nullopt, std::nullopt,
                 "no reply: the server answered the request written after this one"};
  }
  if (observation.outcome != Outcome::kOk) {
    return Reply{Channel::kTransportFailure, std::nullopt, std::nullopt,
                 std::string(ToString(observation.outcome))};
  }
  const boost::json::value* first_response = nullptr;
  for (const auto& message : observation.messages) {
    if (!IsResponseShaped(message)) continue;
    const auto* message_id = message.as_object().if_contains("id");
    if (id && message_id != nullptr && *message_id == *id) return ClassifyMessage(message);
    if (first_response == nullptr) first_response = &message;
  }
  if (first_response != nullptr) return ClassifyMessage(*first_response);
  for (const auto& message : observation.messages) {
    // A batch reply, or a bare value: judged as a single reply that is not a JSON-RPC object.
    if (!message.is_object()) return NotJsonRpc("reply is not a JSON-RPC object", message);
  }
  if (!observation.non_json.empty()) return NotJsonRpc("reply is not JSON");
  if (observation.http_status >= 300 && !observation.body.empty()) {
    return NotJsonRpc("HTTP error without a JSON-RPC body");
  }
  return Reply{Channel::kNoReply, std::nullopt, std::nullopt, "no reply"};
}

std::string DescribeObserved(Channel channel, std::optional<std::int64_t> code, int http_status) {
  std::string text(ToString(channel));
  if (code) text += " " + std::to_string(*code);
  if (http_status != 0) text += " (HTTP " + std::to_string(http_status) + ")";
  return text;
}

std::string DescribeReply(const Reply& reply, const Observation& observation) {
  if (reply.channel == Channel::kTransportFailure && !observation.detail.empty()) {
    return DescribeObserved(reply.channel, reply.error_code, 0) + " (" + observation.detail + ")";
  }
  return DescribeObserved(reply.channel, reply.error_code, observation.http_status);
}

bool SentinelAnswered(const Request& sentinel, const Observation& observation) {
  return ClassifyReply(sentinel, observation).channel != Channel::kTransportFailure;
}

bool ProcessEnded(const Observation& observation) {
  return observation.outcome == Outcome::kExited || observation.exit_code.has_value() ||
         observation.exit_signal.has_value();
}

}  // namespace mcpfuzz
