#include "transport/detail/reply_rule.h"

namespace mcpfuzz::detail {

ReplyRule ReplyRuleFor(const Request& request) {
  if (auto id = request.RpcId()) return {ReplyRule::Kind::kMatchingId, std::move(*id)};
  if (request.IsNotification()) return {ReplyRule::Kind::kSilence, nullptr};
  return {ReplyRule::Kind::kFirstResponse, nullptr};
}

bool EndsExchange(const ReplyRule& rule, const boost::json::value& message) {
  switch (rule.kind) {
    case ReplyRule::Kind::kMatchingId: {
      if (!IsResponseShaped(message)) return false;
      const auto& object = message.as_object();
      const auto* id = object.if_contains("id");
      if (id == nullptr) return false;
      return *id == rule.id || (id->is_null() && object.contains("error"));
    }
    case ReplyRule::Kind::kFirstResponse:
      // A batch body is answered by an array.
      return IsResponseShaped(message) || message.is_array();
    case ReplyRule::Kind::kSilence:
      return false;
  }
  return false;
}

}  // namespace mcpfuzz::detail
