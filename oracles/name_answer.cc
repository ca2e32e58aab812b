#include "oracles/name_answer.h"

#include <boost/json.hpp>

namespace mcpfuzz {

std::string_view RandomNameFor(std::string_view method) {
  if (method == "prompts/get") return "mcpfuzz_no_such_prompt_4f1c9a";
  if (method == "resources/read") return "mcpfuzz_no_such_resource_4f1c9a";
  return "mcpfuzz_no_such_tool_4f1c9a";
}

boost::json::object NameParams(std::string_view method, std::string_view name) {
  boost::json::object params{{method == "resources/read" ? "uri" : "name", name}};
  if (method == "tools/call") params["arguments"] = boost::json::object{};
  return params;
}

std::string NameAskedFor(const Request& request) {
  const std::optional<boost::json::value> body = request.BodyJson();
  const auto* object = body ? body->if_object() : nullptr;
  const auto* params = object != nullptr ? object->if_contains("params") : nullptr;
  if (params == nullptr || !params->is_object()) return {};
  const std::string method = request.RpcMethod().value_or("");
  const auto* name = params->as_object().if_contains(method == "resources/read" ? "uri" : "name");
  return name != nullptr && name->is_string() ? std::string(name->as_string()) : std::string();
}

NameAnswer ReadNameAnswer(const Request& request, const Observation& observation) {
  NameAnswer answer;
  answer.method = request.RpcMethod().value_or("");
  answer.name = NameAskedFor(request);
  const Reply reply = ClassifyReply(request, observation);
  answer.channel = reply.channel;
  answer.code = reply.error_code;
  const auto* message = reply.message ? reply.message->if_object() : nullptr;
  if (message == nullptr) return answer;
  if (const auto* error = message->if_contains("error"); error != nullptr && error->is_object()) {
    const auto* text = error->as_object().if_contains("message");
    if (text != nullptr && text->is_string()) answer.message = std::string(text->as_string());
    return answer;
  }
  const auto* result = message->if_contains("result");
  const auto* content = result != nullptr && result->is_object()
                            ? result->as_object().if_contains("content")
                            : nullptr;
  if (content == nullptr || !content->is_array()) return answer;
  for (const auto& block : content->as_array()) {
    const auto* text = block.is_object() ? block.as_object().if_contains("text") : nullptr;
    if (text != nullptr && text->is_string()) {
      answer.message = std::string(text->as_string());
      break;
    }
  }
  return answer;
}

std::string MessageFor(const NameAnswer& reference, const std::string& name) {
  if (reference.name.empty()) return reference.message;
  std::string message;
  std::size_t from = 0;
  for (std::size_t at = reference.message.find(reference.name); at != std::string::npos;
       at = reference.message.find(reference.name, from)) {
    message.append(reference.message, from, at - from);
    message += name;
    from = at + reference.name.size();
  }
  message.append(reference.message, from);
  return message;
}

}  // namespace mcpfuzz
