#pragma once
// How many stdio servers may be starting at once in this process. A cold start (node loading
// an SDK, Python importing) is mostly CPU: a survey that starts eight at once on two cores
// makes each take four times as long, and the ones started last run out of their start-up
// limit for no fault of their own. Under a gate, a server is spawned only when a slot is free,
// and its start-up limit is counted from then, so what a start is given does not shrink with
// the neighbours' load. A start ends with the server's first exchange: its first reply, its
// exit, or its start-up limit.
//
// Process-wide, because the servers of every target of a survey share the machine. Unlimited
// unless a caller sets a limit (a survey given `--parallel-starts`).

#include <chrono>
#include <cstddef>
#include <thread>

namespace mcpfuzz {

/// 0: no limit (the default).
void LimitConcurrentStarts(std::size_t count);
/// Whether a limit is set: a server started ahead of its use (StartingAhead) would hold a
/// slot while it waits to be used, so none is started ahead then.
bool StartsLimited();

/// A slot of the gate, held while one server starts; released once, or when destroyed.
class StartSlot {
 public:
  StartSlot() = default;
  ~StartSlot() { Release(); }
  StartSlot(StartSlot&& other) noexcept;
  StartSlot& operator=(StartSlot&& other) noexcept;
  StartSlot(const StartSlot&) = delete;
  StartSlot& operator=(const StartSlot&) = delete;

  void Release();

 private:
  friend StartSlot AcquireStartSlot(std::chrono::milliseconds max_wait);
  bool held_ = false;
  std::thread::id owner_;
};

/// Waits for a free slot. A thread that already holds one is not made to wait (a target that
/// opens several sessions at once would otherwise wait on itself); nor does anyone wait past
/// `max_wait` or a stop (signals): then the start goes ahead unslotted, as without a gate.
StartSlot AcquireStartSlot(std::chrono::milliseconds max_wait);

}  // namespace mcpfuzz
