// ReplyOrders: the order a stdio target answers in, kind by kind (transport/reply_orders.h).
#include "transport/reply_orders.h"

#include <boost/json/value.hpp>
#include <variant>

namespace mcpfuzz {

std::string ReplyOrders::KindOf(const Request& request) {
  if (std::holds_alternative<RawBody>(request.body)) return "raw bodies";
  const auto* json = std::get_if<boost::json::value>(&request.body);
  const boost::json::object* object = json != nullptr ? json->if_object() : nullptr;
  const boost::json::value* method = object != nullptr ? object->if_contains("method") : nullptr;
  if (method == nullptr || !method->is_string()) return "bodies without a method";
  if (!object->contains("id")) return "notifications";
  return std::string(method->as_string());
}

std::vector<bool> ReplyOrders::InOrderNext(const std::vector<std::string>& kinds) {
  const std::lock_guard lock(mutex_);
  std::vector<bool> in_order(kinds.size(), false);
  if (++pipelines_ % kRecheckOrderEvery == 0) return in_order;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const auto found = kinds_.find(kinds[i]);
    in_order[i] = found != kinds_.end() && found->second.order == Order::kInOrder;
  }
  return in_order;
}

ReplyOrders::Learnt* ReplyOrders::Find(const std::string& kind) {
  if (auto found = kinds_.find(kind); found != kinds_.end()) return &found->second;
  if (kinds_.size() >= kMaxKinds) return nullptr;
  return &kinds_[kind];
}

void ReplyOrders::NoteSilentGrace(const std::string& kind) {
  const std::lock_guard lock(mutex_);
  Learnt* learnt = Find(kind);
  if (learnt != nullptr && learnt->order == Order::kLearning &&
      ++learnt->silent_graces >= kGracesToLearnOrder) {
    learnt->order = Order::kInOrder;
  }
}

void ReplyOrders::NoteReorder(const std::string& kind, std::string shown_by) {
  const std::lock_guard lock(mutex_);
  // A kind with no room left is never learnt in order, so it keeps its grace anyway.
  Learnt* learnt = Find(kind);
  if (learnt == nullptr || learnt->order == Order::kReorders) return;
  learnt->order = Order::kReorders;
  learnt->shown_by = std::move(shown_by);
}

void ReplyOrders::NoteGraceSpared() {
  const std::lock_guard lock(mutex_);
  ++graces_spared_;
}

ReplyOrders::Order ReplyOrders::order(const std::string& kind) const {
  const std::lock_guard lock(mutex_);
  const auto found = kinds_.find(kind);
  return found == kinds_.end() ? Order::kLearning : found->second.order;
}

std::vector<std::string> ReplyOrders::reorders() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::string> reorders;
  for (const auto& [kind, learnt] : kinds_) {
    if (learnt.order == Order::kReorders) reorders.push_back(kind + ": " + learnt.shown_by);
  }
  return reorders;
}

std::size_t ReplyOrders::graces_spared() const {
  const std::lock_guard lock(mutex_);
  return graces_spared_;
}

}  // namespace mcpfuzz
