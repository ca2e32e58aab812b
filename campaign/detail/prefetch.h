#pragma once
// Internal: cases drawn ahead, in index order, on a thread of their own, so the thread that
// sends finds the next case ready (the HTTP serial loop). Drawing is pure, so the cases are
// the ones the sending thread would have drawn itself.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "generators/generated_case.h"

namespace mcpfuzz::campaign_detail {

class CasePrefetcher {
 public:
  /// The case at `position` (of the run's case indices); nothing when the generator failed.
  /// May throw.
  using Draw = std::function<std::optional<GeneratedCase>(std::size_t position)>;

  /// Draws the cases at positions first, first + 1, ... below `end`.
  CasePrefetcher(Draw draw, std::size_t first, std::size_t end);
  ~CasePrefetcher();
  CasePrefetcher(const CasePrefetcher&) = delete;
  CasePrefetcher& operator=(const CasePrefetcher&) = delete;

  /// The position Take returns next.
  std::size_t next() const { return next_; }
  /// Waits for the case at next(), which must be below `end`; rethrows what drawing it threw.
  std::optional<GeneratedCase> Take();

 private:
  struct Drawn {
    std::optional<GeneratedCase> generated;
    std::exception_ptr error;
    std::size_t bytes = 0;
  };
  void DrawAll(std::size_t first, std::size_t end);
  // Under mutex_: the drawing thread stops at Full and starts again at HasRoom (an empty
  // queue always has room, so one case of any size is drawn).
  bool Full() const;
  bool HasRoom() const;

  Draw draw_;
  std::size_t next_;
  std::mutex mutex_;
  std::condition_variable room_;   // the drawing thread waits on it
  std::condition_variable ready_;  // Take waits on it
  std::deque<Drawn> drawn_;
  std::size_t drawn_bytes_ = 0;
  bool drawer_waiting_ = false;
  bool taker_waiting_ = false;
  bool stop_ = false;
  std::thread thread_;  // last: started once the rest is set up
};

}  // namespace mcpfuzz::campaign_detail
