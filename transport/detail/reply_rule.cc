#include "transport/detail/reply_rule.h"

#include <boost/json/serialize.hpp>
#include <string>

#include "model/subscription.h"

namespace mcpfuzz::transport_detail {

ReplyRule ReplyRuleFor(const Request& request) {
  if (auto id = request.RpcId()) {
    // Only a string or integer id can be echoed; a server refusing id 1.5, true or {} answers
    // with id null or none, or stays silent, so these wait like unreadable ids.
    if (id->is_string() || id->is_int64() || id->is_uint64()) {
      return {ReplyRule::Kind::kMatchingId, std::move(*id), IsListen(request)};
    }
    return {ReplyRule::Kind::kFirstResponse, nullptr};
  }
  if (request.IsNotification()) return {ReplyRule::Kind::kSilence, nullptr};
  return {ReplyRule::Kind::kFirstResponse, nullptr};
}

bool Acknowledges(const ReplyRule& rule, const boost::json::value& message) {
  return rule.long_lived && AcknowledgesListen(message, rule.id);
}

bool EchoesId(const boost::json::value& message, const boost::json::value& id) {
  if (!IsResponseShaped(message)) return false;
  const auto* echoed = message.as_object().if_contains("id");
  return echoed != nullptr && *echoed == id;
}

std::vector<bool> SpelledIds(std::string_view bytes, const std::vector<boost::json::value>& ids) {
  std::vector<bool> spelled(ids.size(), false);
  std::vector<std::string> texts;
  texts.reserve(ids.size());
  for (const boost::json::value& id : ids) texts.push_back(boost::json::serialize(id));
  for (std::size_t at = bytes.find("\"id\""); at != std::string_view::npos;
       at = bytes.find("\"id\"", at + 1)) {
    const std::size_t next = bytes.find_first_not_of(" \t:", at + 4);
    if (next == std::string_view::npos) break;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      const std::string& text = texts[i];
      if (spelled[i] || bytes.compare(next, text.size(), text) != 0) continue;
      // "id":33 does not spell 3: a number goes on while digits do (a string ends at its quote).
      const std::size_t after = next + text.size();
      const bool cut =
          text.back() != '"' && after < bytes.size() &&
          std::string_view("0123456789.eE").find(bytes[after]) != std::string_view::npos;
      spelled[i] = !cut;
    }
  }
  return spelled;
}

bool EndsExchange(const ReplyRule& rule, const boost::json::value& message) {
  switch (rule.kind) {
    case ReplyRule::Kind::kMatchingId: {
      if (!IsResponseShaped(message)) return false;
      const auto& object = message.as_object();
      const auto* id = object.if_contains("id");
      // An error whose id is null or missing answers a request whose id the server could not
      // read; it is the reply (the oracles judge the missing echo), so the wait ends.
      if (id == nullptr || id->is_null()) return object.contains("error");
      return *id == rule.id;
    }
    case ReplyRule::Kind::kFirstResponse:
      // A batch body is answered by an array.
      return IsResponseShaped(message) || message.is_array();
    case ReplyRule::Kind::kSilence:
      return false;
  }
  return false;
}

}  // namespace mcpfuzz::transport_detail
