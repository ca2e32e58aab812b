#pragma once
// What a stdio target is learnt to answer in the order it reads, kind by kind of message: the
// grace a pipeline waits after the sentinel's reply is spared only for kinds learnt in order.

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "model/request.h"

namespace mcpfuzz {

/// A pipeline whose requests are still open when the sentinel's reply comes waits a grace for
/// what a server handling requests concurrently writes after it. A pipe keeps the order the
/// server wrote in, so for a kind of message the server answers in the order it reads, what is
/// still open then is unanswered for good, and the grace changes nothing.
///
/// Order is learnt per kind (KindOf), not per server: a Node server's handlers are async, and
/// one that awaits more answers after a cheap one written behind it. SDK v1 answers a read of
/// a resource it listed after a ping sent behind the read, while its notifications, drops and
/// error paths keep the order; a server-wide order learnt from those spared the read the grace
/// it needed, and its reply, taken later for a drop's, cost the run its sentinels.
///
/// A kind whose kGracesToLearnOrder graces passed in silence, with none of its replies ever
/// after a sentinel's, is answered in order: pipelines spare its grace, all but one in
/// kRecheckOrderEvery, which keeps every grace to check the order still holds. A reply of a
/// kind taken after a sentinel's, or a late reply to one concluded without its grace, makes the
/// kind one that reorders: its grace stays for the rest of the run.
class ReplyOrders {
 public:
  enum class Order { kLearning, kInOrder, kReorders };
  static constexpr int kGracesToLearnOrder = 8;
  static constexpr int kRecheckOrderEvery = 16;
  /// Kinds beyond this many (requests of random method names the server drops) are never
  /// learnt: they keep their grace, and the memory stays bounded.
  static constexpr std::size_t kMaxKinds = 256;

  /// The kind of `request`, for its order: a request's method; one kind for all notifications
  /// (nothing is owed to any), one for raw bodies (not parsed here: they may be megabytes), one
  /// for the other bodies (batches, objects without a method).
  static std::string KindOf(const Request& request);

  /// For each of the kinds of a pipeline about to be sent: whether it is learnt in order. Each
  /// call counts a pipeline.
  std::vector<bool> InOrderNext(const std::vector<std::string>& kinds);
  /// A message of `kind` was open at the sentinel's reply, and its grace passed in silence.
  void NoteSilentGrace(const std::string& kind);
  /// A message of `kind` was answered after the sentinel's reply; `shown_by` says how, for notes.
  void NoteReorder(const std::string& kind, std::string shown_by);
  /// A pipeline concluded what was open at the sentinel's reply without a grace.
  void NoteGraceSpared();

  Order order(const std::string& kind) const;
  /// Each kind that reorders, with what showed it ("tools/list: a reply to id 7"), for notes.
  std::vector<std::string> reorders() const;
  std::size_t graces_spared() const;

 private:
  struct Learnt {
    Order order = Order::kLearning;
    int silent_graces = 0;
    std::string shown_by;
  };
  // The kind's entry, made if there is room; null when there is none.
  Learnt* Find(const std::string& kind);

  mutable std::mutex mutex_;  // guards the three below
  std::map<std::string, Learnt> kinds_;
  std::size_t pipelines_ = 0;
  std::size_t graces_spared_ = 0;
};

}  // namespace mcpfuzz
