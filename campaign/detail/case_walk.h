#pragma once
// Internal: which case indices a run sends and when it stops taking new ones, shared by every
// loop over cases (the campaign's serial, pipelined and parallel loops, and the differential
// run), so that a shard, a time limit and a signal mean the same in each.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>

namespace mcpfuzz::campaign_detail {

/// The case indices a run sends, in order: first, first + step, ... below end (all of them,
/// or one shard's). The loops walk positions 0, 1, ... of this sequence.
struct CaseIndices {
  std::size_t first = 0;
  std::size_t step = 1;
  std::size_t end = 0;

  /// Shard `shard_index` of `shard_count` (1-based) of the indices below `end`.
  static CaseIndices Shard(std::size_t shard_index, std::size_t shard_count, std::size_t end) {
    return {(shard_index > 0 ? shard_index : 1) - 1, shard_count > 0 ? shard_count : 1, end};
  }
  std::size_t At(std::size_t position) const { return first + position * step; }
  std::size_t PositionOf(std::size_t index) const { return (index - first) / step; }
  /// How many indices there are.
  std::size_t Count() const { return end > first ? (end - first - 1) / step + 1 : 0; }
};

/// When a run stops taking new cases, whatever else it counts: its time is up (`--time`), or a
/// signal came. The case in flight is finished either way.
struct RunLimits {
  using Clock = std::chrono::steady_clock;
  std::optional<std::chrono::milliseconds> duration;
  const std::atomic<bool>* stop = nullptr;
  /// What `duration` is measured with (CampaignOptions::clock); the steady clock when empty.
  std::function<Clock::time_point()> clock{};
  Clock::time_point start = Now();

  Clock::time_point Now() const { return clock ? clock() : Clock::now(); }
  bool TimeIsUp() const { return duration && Now() - start >= *duration; }
  bool Interrupted() const { return stop != nullptr && stop->load(); }
  bool Over() const { return TimeIsUp() || Interrupted(); }
};

}  // namespace mcpfuzz::campaign_detail
