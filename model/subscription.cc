#include "model/subscription.h"

#include <boost/json.hpp>

#include "model/request_edit.h"

namespace mcpfuzz {

bool IsListen(const Request& request) {
  return request.RpcMethod() == kListenMethod && request.RpcId().has_value();
}

const boost::json::value* SubscriptionIdOf(const boost::json::value& message) {
  if (!message.is_object()) return nullptr;
  const boost::json::object& object = message.get_object();
  const boost::json::object* holder = ObjectMember(object, "params");
  if (holder == nullptr) holder = ObjectMember(object, "result");
  if (holder == nullptr) return nullptr;
  const boost::json::object* meta = ObjectMember(*holder, "_meta");
  return meta != nullptr ? meta->if_contains(kMetaSubscriptionId) : nullptr;
}

bool IsAcknowledgement(const boost::json::value& message) {
  if (!message.is_object()) return false;
  const boost::json::value* method = message.get_object().if_contains("method");
  return method != nullptr && method->is_string() && method->get_string() == kAcknowledgedMethod;
}

bool AcknowledgesListen(const boost::json::value& message, const boost::json::value& id) {
  if (!IsAcknowledgement(message)) return false;
  const boost::json::value* stamped = SubscriptionIdOf(message);
  return stamped == nullptr || *stamped == id;
}

}  // namespace mcpfuzz
