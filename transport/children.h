#pragma once
// The process groups of every server child mcpfuzz has spawned and not yet reaped, for a
// signal handler that must end them without running any destructor.

namespace mcpfuzz {

/// SIGKILLs the process group of every live child spawned by this process (stdio servers and
/// HTTP servers started as children alike). Async-signal-safe: it reads a fixed array of
/// lock-free atomics and calls killpg, nothing else, so a handler for a second SIGINT or
/// SIGTERM may call it and then _exit. A group is listed from just after its spawn until just
/// before its leader is reaped (so the id is never one the kernel reused). At most
/// kMaxTrackedChildren groups are listed at once; more than that are still ended by their
/// owners' destructors, only not by this call.
void KillAllChildrenNow() noexcept;

/// How many live children KillAllChildrenNow can reach at once.
inline constexpr int kMaxTrackedChildren = 256;

/// Ends every exchange in flight at its next poll (a few tens of milliseconds) and every later
/// one before it is sent, each as Outcome::kTransportError "stopped": for the first SIGINT or
/// SIGTERM, so a run stops within one poll of whatever it waits on (a start-up limit of half a
/// minute, a server dripping a byte a second), then writes its reports. Async-signal-safe: one
/// store to a lock-free atomic.
void StopAllExchanges() noexcept;
/// True once StopAllExchanges was called.
bool ExchangesStopped() noexcept;
/// What a stopped exchange's detail says.
inline constexpr const char* kStoppedDetail = "stopped: mcpfuzz was asked to stop";

}  // namespace mcpfuzz
