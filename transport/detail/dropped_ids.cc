#include "transport/detail/dropped_ids.h"

#include <algorithm>
#include <vector>

#include "model/channel.h"

namespace mcpfuzz::transport_detail {

void DroppedIds::Add(const boost::json::value& id, Why why, std::string spared_kind) {
  Forget(id);
  ids_.push_back({id, why, std::move(spared_kind)});
  if (ids_.size() > kCapacity) ids_.pop_front();
}

void DroppedIds::Forget(const boost::json::value& id) {
  std::erase_if(ids_, [&id](const Entry& entry) { return entry.id == id; });
  std::erase(answered_, id);
}

void DroppedIds::ForgetFor(const ReplyRule& rule, std::string_view wire) {
  if (rule.kind == ReplyRule::Kind::kMatchingId) return Forget(rule.id);
  if (rule.kind != ReplyRule::Kind::kFirstResponse || (ids_.empty() && answered_.empty())) return;
  std::vector<boost::json::value> known;
  for (const Entry& entry : ids_) known.push_back(entry.id);
  known.insert(known.end(), answered_.begin(), answered_.end());
  const std::vector<bool> spelled = SpelledIds(wire, known);
  for (std::size_t i = 0; i < known.size(); ++i) {
    if (spelled[i]) Forget(known[i]);
  }
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

DroppedIds::Late DroppedIds::TakeLateReply(const boost::json::value& message,
                                           std::string* spared_kind) {
  if ((ids_.empty() && unnamed_ == 0) || !IsResponseShaped(message)) return Late::kNo;
  const auto* id = message.as_object().if_contains("id");
  if (id == nullptr || id->is_null()) {
    if (unnamed_ == 0) return Late::kNo;
    --unnamed_;
    return Late::kYes;
  }
  auto found =
      std::find_if(ids_.begin(), ids_.end(), [id](const Entry& entry) { return entry.id == *id; });
  if (found == ids_.end()) return Late::kNo;
  const Why why = found->why;
  if (spared_kind != nullptr) *spared_kind = std::move(found->spared_kind);
  ids_.erase(found);
  out_of_order_ = out_of_order_ || why == Why::kDropped;
  return why == Why::kDroppedGraceSpared ? Late::kGraceSpared : Late::kYes;
}

}  // namespace mcpfuzz::transport_detail
