#include "transport/start_gate.h"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <utility>

#include "transport/children.h"

namespace mcpfuzz {
namespace {

struct Gate {
  std::mutex mutex;
  std::condition_variable freed;
  std::size_t limit = 0;
  std::size_t in_use = 0;
  std::map<std::thread::id, std::size_t> held;
};

Gate& TheGate() {
  static Gate gate;
  return gate;
}

}  // namespace

void LimitConcurrentStarts(std::size_t count) {
  Gate& gate = TheGate();
  {
    std::lock_guard lock(gate.mutex);
    gate.limit = count;
  }
  gate.freed.notify_all();
}

bool StartsLimited() {
  Gate& gate = TheGate();
  std::lock_guard lock(gate.mutex);
  return gate.limit > 0;
}

StartSlot::StartSlot(StartSlot&& other) noexcept
    : held_(std::exchange(other.held_, false)), owner_(other.owner_) {}

StartSlot& StartSlot::operator=(StartSlot&& other) noexcept {
  if (this != &other) {
    Release();
    held_ = std::exchange(other.held_, false);
    owner_ = other.owner_;
  }
  return *this;
}

void StartSlot::Release() {
  if (!held_) return;
  held_ = false;
  Gate& gate = TheGate();
  {
    std::lock_guard lock(gate.mutex);
    --gate.in_use;
    if (auto found = gate.held.find(owner_); found != gate.held.end() && --found->second == 0) {
      gate.held.erase(found);
    }
  }
  gate.freed.notify_all();
}

StartSlot AcquireStartSlot(std::chrono::milliseconds max_wait) {
  Gate& gate = TheGate();
  StartSlot slot;
  std::unique_lock lock(gate.mutex);
  if (gate.limit == 0) return slot;
  const auto me = std::this_thread::get_id();
  const auto until = std::chrono::steady_clock::now() + max_wait;
  // Woken by a release; also every 100 ms, since a stop (a signal) sets a flag, not the gate.
  for (auto now = std::chrono::steady_clock::now();
       gate.in_use >= gate.limit && !gate.held.contains(me) && !ExchangesStopped() && now < until;
       now = std::chrono::steady_clock::now()) {
    gate.freed.wait_for(lock, std::min<std::chrono::steady_clock::duration>(
                                  until - now, std::chrono::milliseconds(100)));
  }
  ++gate.in_use;
  ++gate.held[me];
  slot.held_ = true;
  slot.owner_ = me;
  return slot;
}

}  // namespace mcpfuzz
