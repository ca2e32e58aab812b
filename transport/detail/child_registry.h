#pragma once
// The list behind KillAllChildrenNow: ChildProcess adds each group it spawns and removes it
// before reaping.

#include <sys/types.h>

namespace mcpfuzz::transport_detail {

/// Lists `group`; false when the list is full (the group is then not reachable from a signal
/// handler, only from its owner).
bool RegisterChildGroup(pid_t group) noexcept;
/// Removes `group`; called before the leader is reaped, while the id cannot be reused.
void UnregisterChildGroup(pid_t group) noexcept;

}  // namespace mcpfuzz::transport_detail
