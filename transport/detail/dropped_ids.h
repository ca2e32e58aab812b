#pragma once
// The ids of requests a stdio transport concluded Outcome::kDropped, kept so that a reply
// carrying one of them, arriving in a later exchange, reveals a server that answers out of
// order (the sentinel before a slow reply) and was misjudged.

#include <boost/json/value.hpp>
#include <cstddef>
#include <deque>

namespace mcpfuzz::transport_detail {

class DroppedIds {
 public:
  /// Bounded: a late reply comes, if at all, within a few exchanges; older ids are forgotten.
  static constexpr std::size_t kCapacity = 64;

  void Remember(const boost::json::value& id);
  /// A new request with `id` is about to be sent: a reply carrying it is that request's, so the
  /// id no longer tells a late reply (callers that reuse ids lose the detection for them).
  void Forget(const boost::json::value& id);
  /// True when `message` is a response carrying a remembered id. The id is forgotten (a reply
  /// comes once) and the server is known, from now on, to answer out of order.
  bool TakeLateReply(const boost::json::value& message);
  /// Set by the first late reply; never reset, since the server's ordering is a property of it.
  bool out_of_order() const { return out_of_order_; }

 private:
  std::deque<boost::json::value> ids_;
  bool out_of_order_ = false;
};

}  // namespace mcpfuzz::transport_detail
