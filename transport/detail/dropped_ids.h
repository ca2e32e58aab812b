#pragma once
// The ids of requests a stdio transport concluded without their reply: dropped (the sentinel
// behind them was answered) or unanswered within the time limit. A reply carrying one of them,
// arriving in a later exchange, is that request's late reply, never the answer of the message
// it arrived with. After a drop that waited its grace it also reveals a server that answers
// out of order (the sentinel before a slow reply), whose drops were misjudged; after a drop
// whose grace was spared, only that the order learnt for such a request was wrong. The ids of
// requests answered are
// kept too: a second response carrying one is a repeat, set aside rather than taken for the
// answer of a later message.

#include <algorithm>
#include <boost/json/value.hpp>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "transport/detail/reply_rule.h"

namespace mcpfuzz::transport_detail {

class DroppedIds {
 public:
  /// Bounded: a late reply comes, if at all, within a few exchanges; older ids are forgotten.
  static constexpr std::size_t kCapacity = 64;

  /// `id` was concluded Outcome::kDropped: after the grace, or with the grace spared for a
  /// request of `spared_kind` (ReplyOrderHint::kind).
  void Remember(const boost::json::value& id, std::optional<std::string> spared_kind) {
    Add(id, spared_kind ? Why::kDroppedGraceSpared : Why::kDropped,
        std::move(spared_kind).value_or(std::string()));
  }
  /// `id` went unanswered within the time limit: a reply may still come, late.
  void RememberUnanswered(const boost::json::value& id) { Add(id, Why::kUnanswered); }
  /// A request whose id cannot be echoed went unanswered at a server known to answer late. Its
  /// reply, should it come, is an error with a null id (the answer to a request whose id could
  /// not be read), which nothing tells from another request's: the next response with a null
  /// or missing id is taken for it, never for the answer of the message it arrives with.
  /// Counted, since such replies carry no name.
  void RememberUnansweredUnnamed() { unnamed_ = std::min(unnamed_ + 1, kCapacity); }
  /// A new request is about to be sent with `rule`, written as `wire`: a reply carrying its id
  /// is that request's, so the id no longer tells a late or repeated reply (callers that reuse
  /// ids lose the detection for them). A request whose id cannot be echoed (a raw body, a
  /// batch) may be answered with any id its bytes spell out (SpelledIds): those are forgotten.
  void ForgetFor(const ReplyRule& rule, std::string_view wire);
  /// Whether `message` is a response carrying a remembered id, or one with a null or missing id
  /// while a request remembered unnamed is owed one. The id is forgotten (a reply comes once);
  /// when it was dropped after its grace, the server is known, from now on, to answer out of
  /// order; when with its grace spared, `spared_kind` is set to its kind.
  enum class Late { kNo, kYes, kGraceSpared };
  Late TakeLateReply(const boost::json::value& message, std::string* spared_kind = nullptr);

  /// `id`'s request got its response: another response carrying it, in a later exchange, is a
  /// repeat (JSON-RPC owes one), never the answer of the message it arrives with.
  void RememberAnswered(const boost::json::value& id);
  /// True when `message` is a response carrying the id of a request answered in an earlier
  /// exchange. The id stays remembered: a server that repeats may repeat again.
  bool TakeRepeatedReply(const boost::json::value& message) const;
  /// Set by the first late reply to a request dropped after its grace; never reset, since the
  /// server's ordering is a property of it.
  bool out_of_order() const { return out_of_order_; }

 private:
  enum class Why { kUnanswered, kDropped, kDroppedGraceSpared };
  struct Entry {
    boost::json::value id;
    Why why = Why::kUnanswered;
    std::string spared_kind;  // Why::kDroppedGraceSpared only
  };
  void Add(const boost::json::value& id, Why why, std::string spared_kind = {});
  void Forget(const boost::json::value& id);

  std::deque<Entry> ids_;
  // Kept apart, so answered ids, the common case, never push a dropped one out.
  std::deque<boost::json::value> answered_;
  std::size_t unnamed_ = 0;
  bool out_of_order_ = false;
};

}  // namespace mcpfuzz::transport_detail
