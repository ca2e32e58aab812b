// The fresh sessions of a revision's checks made beside the era probe (checks/detail/
// beside_probe.h) and taken by the revision's Connections: made over HTTP only, unseen until
// taken, taken only while nothing could have changed the target since, and only what they
// lack made afterwards.

#include "checks/detail/beside_probe.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "checks/detail/connections.h"
#include "model/request_builder.h"
#include "support/dropping_stdio.h"
#include "support/reference_server.h"
#include "transport/session.h"

namespace mcpfuzz::checks::detail {
namespace {

using namespace std::chrono_literals;

constexpr Revision kRevision = Revision::k2025_11_25;

class Counting final : public SessionObserver {
 public:
  void Saw(const ObservedExchange& /*exchange*/) override { ++seen; }
  std::atomic<std::size_t> seen{0};
};

FreshSteps TwoOpenedAndOneSent() {
  FreshSteps steps;
  steps.opened = 2;
  steps.sent.push_back(MakeInitialize(kRevision, TransportKind::kHttp, 0));
  return steps;
}

test_support::RefTarget HttpRefServer() {
  return test_support::StartRefServer(TransportKind::kHttp, {},
                                      test_support::ReferenceServerLimits(3000ms, 50ms));
}

TEST(BesideProbe, OpensTheStepsOverHttpUnseenUntilTaken) {
  const test_support::RefTarget target = HttpRefServer();
  Counting observer;
  TargetLink link(target.connect, &observer);
  BesideProbe beside(link, kRevision, TwoOpenedAndOneSent);
  // The era probe's first connection says the target is reached over HTTP.
  auto probe_connection = beside.Watching(target.connect)();
  ASSERT_TRUE(probe_connection.ok());
  FreshPool pool = beside.Take();
  EXPECT_EQ(pool.revision, kRevision);
  ASSERT_EQ(pool.prepared.size(), 3U);
  std::size_t opened = 0;
  for (const FreshPool::Prepared& prepared : pool.prepared) {
    if (prepared.opened) ++opened;
    if (prepared.first) {
      EXPECT_EQ(prepared.sent.observation.outcome, Outcome::kOk);
    }
  }
  EXPECT_EQ(opened, 2U);
  EXPECT_EQ(observer.seen.load(), 0U) << "made ahead, nothing is seen before it is taken";
}

// The probe asks a question again alone: what was made beside it is ended, not handed over,
// and once withdrawn nothing more is made.
TEST(BesideProbe, WithdrawnItHandsOverNothing) {
  const test_support::RefTarget target = HttpRefServer();
  TargetLink link(target.connect);
  BesideProbe beside(link, kRevision, TwoOpenedAndOneSent);
  ASSERT_TRUE(beside.Watching(target.connect)().ok());
  beside.Withdraw();
  EXPECT_TRUE(beside.Take().prepared.empty());

  TargetLink early_link(target.connect);
  BesideProbe early(early_link, kRevision, TwoOpenedAndOneSent);
  early.Withdraw();
  ASSERT_TRUE(early.Watching(target.connect)().ok());
  EXPECT_TRUE(early.Take().prepared.empty());
  EXPECT_EQ(early_link.connections_made(), 0U);
}

TEST(BesideProbe, StartsNoStdioServer) {
  auto counts = std::make_shared<test_support::DroppingStdioCounts>();
  const TransportFactory connect = test_support::DroppingStdioFactory({}, counts);
  TargetLink link(connect);
  BesideProbe beside(link, kRevision, TwoOpenedAndOneSent);
  ASSERT_TRUE(beside.Watching(connect)().ok());
  EXPECT_TRUE(beside.Take().prepared.empty());
  EXPECT_EQ(counts->connections.load(), 1U) << "only the probe's own connection";
}

TEST(BesideProbe, MakesNothingWhenTheProbeConnectedNowhere) {
  std::atomic<int> calls{0};
  const TransportFactory connect = [&calls]() -> Result<std::unique_ptr<Transport>> {
    ++calls;
    return Error{"refused"};
  };
  TargetLink link(connect);
  BesideProbe beside(link, kRevision, TwoOpenedAndOneSent);
  EXPECT_FALSE(beside.Watching(connect)().ok());
  EXPECT_TRUE(beside.Take().prepared.empty());
  EXPECT_EQ(calls.load(), 1);
}

// What the pool made is taken; only what it lacks is made now, and what it has too many of is
// kept unused.
TEST(PreparedAhead, IsTakenAndOnlyWhatItLacksIsMade) {
  const test_support::RefTarget target = HttpRefServer();
  TargetLink link(target.connect);
  FreshPool ahead = FreshPool::Make(link, kRevision, TwoOpenedAndOneSent());
  ASSERT_EQ(ahead.prepared.size(), 3U);
  Connections connections(link, kRevision);
  ASSERT_TRUE(connections.Start({}));
  const std::size_t before = link.connections_made();
  FreshSteps steps;
  steps.opened = 1;
  steps.sent.push_back(MakeInitialize(kRevision, TransportKind::kHttp, 0));
  steps.sent.push_back(MakeInitialize(Revision::k2025_06_18, TransportKind::kHttp, 1));
  connections.Prepare(steps, std::move(ahead));
  EXPECT_EQ(link.connections_made(), before + 1) << "only the step the pool lacked";

  // Kept while the other is taken, as a check keeps its own until the revision ends: ending a
  // session (DELETE) may end others.
  std::vector<Exchange> opening;
  bool opened = false;
  const std::unique_ptr<Connection> first = connections.FreshOpened(opening, opened);
  EXPECT_NE(first, nullptr);
  EXPECT_TRUE(opened);
  Exchange sent;
  const std::unique_ptr<Connection> second = connections.FreshSending(steps.sent[0], sent);
  EXPECT_NE(second, nullptr);
  EXPECT_EQ(sent.observation.outcome, Outcome::kOk);
  EXPECT_EQ(link.connections_made(), before + 1) << "taken, not made again";
}

// A pool made before the target left something unanswered may no longer be what it answers:
// every step is made anew.
TEST(PreparedAhead, IsNotTakenOnceTheTargetMayHaveChanged) {
  const test_support::RefTarget target = HttpRefServer();
  TargetLink link(target.connect);
  FreshPool ahead = FreshPool::Make(link, kRevision, TwoOpenedAndOneSent());
  ASSERT_EQ(ahead.prepared.size(), 3U);
  Observation timed_out;
  timed_out.outcome = Outcome::kTimeout;
  link.NoteAnswer(MakeInitialize(kRevision, TransportKind::kHttp, 9), timed_out);
  Connections connections(link, kRevision);
  ASSERT_TRUE(connections.Start({}));
  const std::size_t before = link.connections_made();
  connections.Prepare(TwoOpenedAndOneSent(), std::move(ahead));
  EXPECT_EQ(link.connections_made(), before + 3);
}

// Made for another revision than the run's, nothing of it is taken.
TEST(PreparedAhead, OfAnotherRevisionIsNotTaken) {
  const test_support::RefTarget target = HttpRefServer();
  TargetLink link(target.connect);
  FreshPool ahead = FreshPool::Make(link, Revision::k2025_06_18, TwoOpenedAndOneSent());
  Connections connections(link, kRevision);
  ASSERT_TRUE(connections.Start({}));
  const std::size_t before = link.connections_made();
  connections.Prepare(TwoOpenedAndOneSent(), std::move(ahead));
  EXPECT_EQ(link.connections_made(), before + 3);
}

}  // namespace
}  // namespace mcpfuzz::checks::detail
