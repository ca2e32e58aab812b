// The gate on stdio servers starting at once (transport/start_gate.h), decided by events: which
// slots are held, never how long anything took.

#include "transport/start_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace mcpfuzz {
namespace {

// Starts take turns: with a limit of one, a second start waits until the first has had its
// first exchange; a thread that holds a slot is never made to wait on itself.
TEST(StartGate, OneStartAtATimeAndNoneWaitsOnItself) {
  LimitConcurrentStarts(1);
  StartSlot first = AcquireStartSlot(std::chrono::seconds(30));
  StartSlot nested = AcquireStartSlot(std::chrono::seconds(30));  // would deadlock otherwise
  std::atomic<bool> second_started{false};
  std::thread other([&] {
    StartSlot second = AcquireStartSlot(std::chrono::seconds(30));
    second_started = true;
  });
  // Decided by events: the other thread cannot have its slot while two are held.
  first.Release();
  EXPECT_FALSE(second_started.load());
  nested.Release();
  other.join();
  EXPECT_TRUE(second_started.load());
  LimitConcurrentStarts(0);
}

// The gate only orders starts: one kept waiting past its bound goes ahead, as without a gate,
// so a slot never released cannot stop a survey.
TEST(StartGate, AStartWaitsNoLongerThanItsBound) {
  LimitConcurrentStarts(1);
  StartSlot held;
  std::thread holder([&] { held = AcquireStartSlot(std::chrono::seconds(30)); });
  holder.join();
  StartSlot late = AcquireStartSlot(std::chrono::milliseconds(20));
  late.Release();
  held.Release();
  LimitConcurrentStarts(0);
}

}  // namespace
}  // namespace mcpfuzz
