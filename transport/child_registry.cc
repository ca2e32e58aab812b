#include "transport/detail/child_registry.h"

#include <signal.h>

#include <array>
#include <atomic>

#include "transport/children.h"

namespace mcpfuzz {
namespace {

// Zero marks a free slot. Plain stores and compare-exchange on lock-free atomics are
// async-signal-safe, which a mutex-guarded container would not be.
std::array<std::atomic<pid_t>, kMaxTrackedChildren> groups{};
static_assert(std::atomic<pid_t>::is_always_lock_free);

std::atomic<bool> stopped{false};
static_assert(std::atomic<bool>::is_always_lock_free);

}  // namespace

void StopAllExchanges() noexcept { stopped.store(true); }
bool ExchangesStopped() noexcept { return stopped.load(); }

void KillAllChildrenNow() noexcept {
  for (std::atomic<pid_t>& slot : groups) {
    const pid_t group = slot.load();
    if (group > 0) ::killpg(group, SIGKILL);
  }
}

namespace transport_detail {

bool RegisterChildGroup(pid_t group) noexcept {
  for (std::atomic<pid_t>& slot : groups) {
    pid_t expected = 0;
    if (slot.compare_exchange_strong(expected, group)) return true;
  }
  return false;
}

void UnregisterChildGroup(pid_t group) noexcept {
  for (std::atomic<pid_t>& slot : groups) {
    pid_t expected = group;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

}  // namespace transport_detail
}  // namespace mcpfuzz
