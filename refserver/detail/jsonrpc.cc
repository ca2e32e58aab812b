#include "refserver/detail/jsonrpc.h"

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>
#include <cmath>
#include <utility>

#include "model/logging.h"

namespace mcpfuzz::refserver::detail {
namespace {

// A JSON-RPC id must be a string or an integer (schema.json RequestId); 2.0 is an integer in
// JSON Schema's sense, 1.5 is not.
bool IsReadableId(const boost::json::value& id) {
  if (id.is_string() || id.is_int64() || id.is_uint64()) return true;
  if (id.is_double()) {
    double number = id.get_double();
    return std::isfinite(number) && std::trunc(number) == number;
  }
  return false;
}

Framed Invalid(const boost::json::value& id, std::int64_t code, std::string message) {
  Framed framed;
  framed.kind = Framed::Kind::kInvalid;
  framed.error_reply = ErrorReply(id, RpcError{code, std::move(message), std::nullopt});
  return framed;
}

}  // namespace

std::optional<boost::json::value> ParseMessage(std::string_view text) {
  boost::json::parse_options options;
  options.max_depth = kMaxJsonDepth;
  boost::system::error_code error;
  boost::json::value value = boost::json::parse(text, error, {}, options);
  if (error) return std::nullopt;
  return value;
}

Framed Frame(const boost::json::value& message, bool lenient_jsonrpc) {
  const boost::json::value null_id;
  const auto* object = message.if_object();
  if (object == nullptr) {
    return Invalid(null_id, -32600, "Invalid Request: a message must be a JSON object");
  }
  const boost::json::value* id = object->if_contains("id");
  const boost::json::value& echo_id = (id != nullptr && IsReadableId(*id)) ? *id : null_id;

  const boost::json::value* method = object->if_contains("method");
  if (method == nullptr && (object->contains("result") || object->contains("error"))) {
    Framed framed;
    framed.kind = Framed::Kind::kClientResponse;
    return framed;
  }
  const boost::json::value* version = object->if_contains("jsonrpc");
  if (!lenient_jsonrpc &&
      (version == nullptr || !version->is_string() || version->get_string() != "2.0")) {
    return Invalid(echo_id, -32600, "Invalid Request: jsonrpc must be \"2.0\"");
  }
  if (method == nullptr || !method->is_string()) {
    return Invalid(echo_id, -32600, "Invalid Request: method must be a string");
  }
  if (id != nullptr && !IsReadableId(*id)) {
    return Invalid(null_id, -32600, "Invalid Request: id must be a string or an integer");
  }
  const boost::json::value* params = object->if_contains("params");
  // A notification cannot be answered, even with an error about its params.
  if (params != nullptr && !params->is_object() && id != nullptr) {
    return Invalid(echo_id, -32602, "Invalid params: params must be an object");
  }

  Framed framed;
  framed.kind = Framed::Kind::kCall;
  if (id != nullptr) framed.call.id = *id;
  framed.call.method = std::string(method->get_string());
  if (params != nullptr && params->is_object()) framed.call.params = params->get_object();
  return framed;
}

boost::json::value ErrorReply(const boost::json::value& id, const RpcError& error) {
  boost::json::object body;
  body["code"] = error.code;
  body["message"] = error.message;
  if (error.data) body["data"] = *error.data;
  return boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(body)}};
}

boost::json::value ResultReply(const boost::json::value& id, boost::json::object result) {
  return boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

boost::json::value ParseErrorReply(const FaultSet& faults, std::string_view detail) {
  boost::json::value id;
  if (faults.contains(Fault::kParseErrorWrongId)) id = 0;
  return ErrorReply(id, RpcError{-32700, "Parse error: " + std::string(detail), std::nullopt});
}

boost::json::value ToReply(const boost::json::value& id, const MethodReply& reply) {
  if (const auto* result = std::get_if<boost::json::object>(&reply.reply)) {
    return ResultReply(id, *result);
  }
  if (const auto* error = std::get_if<RpcError>(&reply.reply)) return ErrorReply(id, *error);
  return nullptr;
}

boost::json::value ServingLogMessage(std::string_view method) {
  return boost::json::object{
      {"jsonrpc", "2.0"},
      {"method", "notifications/message"},
      {"params", boost::json::object{{"level", "info"},
                                     {"logger", "mcpfuzz-refserver"},
                                     {"data", "serving " + std::string(method)}}}};
}

boost::json::value ProgressNotification(const boost::json::value& token) {
  return boost::json::object{
      {"jsonrpc", "2.0"},
      {"method", "notifications/progress"},
      {"params", boost::json::object{{kMetaProgressToken, token}, {"progress", 1}, {"total", 1}}}};
}

std::optional<boost::json::value> ProgressTokenOf(const Call& call) {
  const boost::json::value* meta = call.params.if_contains("_meta");
  const boost::json::value* token = meta != nullptr && meta->is_object()
                                        ? meta->get_object().if_contains(kMetaProgressToken)
                                        : nullptr;
  if (token == nullptr || !(token->is_string() || token->is_int64() || token->is_uint64())) {
    return std::nullopt;
  }
  return *token;
}

Answer NotificationAnswer(const FaultSet& faults, bool stateless) {
  Answer answer;
  if (!faults.contains(Fault::kNotificationAnswered)) return answer;
  boost::json::object result;
  if (stateless && !faults.contains(Fault::kMissingResultType)) result["resultType"] = "complete";
  return MessageAnswer(ResultReply(nullptr, std::move(result)), 200);
}

Answer MessageAnswer(boost::json::value message, int http_status) {
  Answer answer;
  answer.message = std::move(message);
  answer.http_status = http_status;
  return answer;
}

}  // namespace mcpfuzz::refserver::detail
