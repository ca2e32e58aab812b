#include "transport/detail/dropped_ids.h"

#include <algorithm>

#include "model/channel.h"

namespace mcpfuzz::transport_detail {

void DroppedIds::Add(const boost::json::value& id, bool dropped) {
  Forget(id);
  ids_.push_back({id, dropped});
  if (ids_.size() > kCapacity) ids_.pop_front();
}

void DroppedIds::Forget(const boost::json::value& id) {
  std::erase_if(ids_, [&id](const Entry& entry) { return entry.id == id; });
  std::erase(answered_, id);
}

void DroppedIds::RememberAnswered(const boost::json::value& id) {
  std::erase(answered_, id);
  answered_.push_back(id);
  if (answered_.size() > kCapacity) answered_.pop_front();
}

bool DroppedIds::TakeRepeatedReply(const boost::json::value& message) const {
  if (answered_.empty() || !IsResponseShaped(message)) return false;
  const auto* id = message.as_object().if_contains("id");
  return id != nullptr && !id->is_null() &&
         std::find(answered_.begin(), answered_.end(), *id) != answered_.end();
}

bool DroppedIds::TakeLateReply(const boost::json::value& message) {
  if (ids_.empty() || !IsResponseShaped(message)) return false;
  const auto* id = message.as_object().if_contains("id");
  if (id == nullptr || id->is_null()) return false;
  auto found =
      std::find_if(ids_.begin(), ids_.end(), [id](const Entry& entry) { return entry.id == *id; });
  if (found == ids_.end()) return false;
  out_of_order_ = out_of_order_ || found->dropped;
  ids_.erase(found);
  return true;
}

}  // namespace mcpfuzz::transport_detail
