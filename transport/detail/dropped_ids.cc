#include "transport/detail/dropped_ids.h"

#include <algorithm>

#include "model/channel.h"

namespace mcpfuzz::transport_detail {

void DroppedIds::Remember(const boost::json::value& id) {
  Forget(id);
  ids_.push_back(id);
  if (ids_.size() > kCapacity) ids_.pop_front();
}

void DroppedIds::Forget(const boost::json::value& id) {
  ids_.erase(std::remove(ids_.begin(), ids_.end(), id), ids_.end());
}

bool DroppedIds::TakeLateReply(const boost::json::value& message) {
  if (ids_.empty() || !IsResponseShaped(message)) return false;
  const auto* id = message.as_object().if_contains("id");
  if (id == nullptr || id->is_null()) return false;
  auto found = std::find(ids_.begin(), ids_.end(), *id);
  if (found == ids_.end()) return false;
  ids_.erase(found);
  out_of_order_ = true;
  return true;
}

}  // namespace mcpfuzz::transport_detail
