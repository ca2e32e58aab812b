// The one target session (transport/session.h): what it learns of a server that answers late,
// drops, dies or stops answering, decided by events (a reply, a sentinel's answer, an exit).

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "model/channel.h"
#include "model/request_builder.h"
#include "support/stdio_requests.h"
#include "transport/session.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

using std::chrono::milliseconds;

const std::string kSessionServer =
    std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/session_server.py";
constexpr Revision kRevision = kLatestHandshakeRevision;

TransportFactory SessionServer(const std::string& mode, milliseconds timeout = milliseconds(5000)) {
  return [mode, timeout]() -> Result<std::unique_ptr<Transport>> {
    StdioTarget target;
    target.argv = {"python3", kSessionServer, mode};
    target.limits.timeout = timeout;
    target.shutdown_grace = milliseconds(300);
    auto spawned = SpawnStdio(std::move(target));
    if (!spawned) return spawned.error();
    return std::unique_ptr<Transport>(std::move(*spawned));
  };
}

// Keeps what the session hands its observer.
struct Seen final : SessionObserver {
  std::vector<std::string> methods;
  std::vector<Owed> owed;
  std::vector<ProcessExit> deaths;
  void Saw(const ObservedExchange& observed) override {
    methods.push_back(observed.request.RpcMethod().value_or("?"));
    owed.push_back(observed.owed);
  }
  void DiedBetween(const ProcessExit& exit, std::size_t) override { deaths.push_back(exit); }
};

Request Unknown(int id) {
  return MakeRequest(kRevision, TransportKind::kStdio, "mcpfuzz/unknown", {}, id);
}

bool IsErrorWithCode(const Observation& observation, std::int64_t code) {
  for (const boost::json::value& message : observation.messages) {
    const Reply reply = ClassifyMessage(message);
    if (reply.channel == Channel::kProtocolError && reply.error_code == code) return true;
  }
  return false;
}

TEST(TargetSession, AnErrorAnsweredAfterTheSentinelIsAwaitedNotTakenForADrop) {
  TargetLink link(SessionServer("late-errors"));
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  const Observation first = session.Send(Unknown(100), Owed::kNothing);
  EXPECT_EQ(first.outcome, Outcome::kOk) << first.detail;
  EXPECT_TRUE(IsErrorWithCode(first, -32601)) << first.detail;
  // The sentinel was answered first: sentinels prove nothing here from now on.
  EXPECT_TRUE(session.out_of_order());
  EXPECT_FALSE(link.late_reply().empty());
  // Every later request waits for its own reply.
  const Observation second = session.Send(Unknown(101), Owed::kNothing);
  EXPECT_EQ(second.outcome, Outcome::kOk) << second.detail;
  EXPECT_TRUE(IsErrorWithCode(second, -32601)) << second.detail;
}

TEST(TargetSession, ADropIsProvenOnceByWaitingThenLearntFromTheSentinel) {
  TargetLink link(SessionServer("drops", milliseconds(400)));
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  EXPECT_FALSE(session.drops_proven());
  const Observation first = session.Send(Unknown(100), Owed::kNothing);
  EXPECT_EQ(first.outcome, Outcome::kDropped) << first.detail;
  EXPECT_TRUE(session.drops_proven());
  EXPECT_FALSE(session.out_of_order());
  const Observation second = session.Send(Unknown(101), Owed::kNothing);
  EXPECT_EQ(second.outcome, Outcome::kDropped) << second.detail;
  ASSERT_TRUE(session.last_sentinel().has_value());
  EXPECT_TRUE(
      SentinelAnswered(session.last_sentinel()->request, session.last_sentinel()->observation));
}

const std::string kUnknownKind = "mcpfuzz/unknown";

TEST(TargetSession, AKindWhoseGracesStaySilentIsLearntInOrderAndSparedTheGrace) {
  TargetLink link(SessionServer("drops"));
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  const ReplyOrders& orders = link.reply_orders();
  // Each drop leaves its request open at the sentinel's reply: a grace, silent here.
  int id = 100;
  for (int grace = 0; grace < ReplyOrders::kGracesToLearnOrder; ++grace) {
    EXPECT_EQ(orders.order(kUnknownKind), ReplyOrders::Order::kLearning) << grace;
    EXPECT_EQ(session.Send(Unknown(id++), Owed::kNothing).outcome, Outcome::kDropped);
  }
  EXPECT_EQ(orders.order(kUnknownKind), ReplyOrders::Order::kInOrder);
  EXPECT_EQ(orders.graces_spared(), 0U);
  // From now on the sentinel's reply concludes the drop, and the verdict is the same.
  for (int sent = 0; sent < 3; ++sent) {
    const Observation dropped = session.Send(Unknown(id++), Owed::kNothing);
    EXPECT_EQ(dropped.outcome, Outcome::kDropped) << dropped.detail;
    EXPECT_NE(dropped.detail.find("answers these in order"), std::string::npos) << dropped.detail;
  }
  EXPECT_EQ(orders.graces_spared(), 3U);
  EXPECT_FALSE(session.out_of_order());
  // Only that kind: requests never seen open at a sentinel's reply are still learning.
  EXPECT_EQ(orders.order("tools/call"), ReplyOrders::Order::kLearning);
}

// Drops of unknown methods, each a silent grace, until the kind is learnt in order.
void LearnUnknownInOrder(TargetSession& session, int& id) {
  for (int grace = 0; grace < ReplyOrders::kGracesToLearnOrder; ++grace) {
    EXPECT_EQ(session.Send(Unknown(id++), Owed::kNothing).outcome, Outcome::kDropped);
  }
}

TEST(TargetSession, OneMethodAnsweredAfterTheSentinelKeepsItsGraceWhileTheOthersAreSpared) {
  TargetLink link(SessionServer("drops-swaps-calls"));
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  const ReplyOrders& orders = link.reply_orders();
  int id = 100;
  LearnUnknownInOrder(session, id);
  ASSERT_EQ(orders.order(kUnknownKind), ReplyOrders::Order::kInOrder);
  // A server-wide order would have spared this call its grace and taken its reply, written
  // behind the sentinel's, for a drop.
  const Request call = MakeRequest(kRevision, TransportKind::kStdio, "tools/call",
                                   {{"name", "x"}, {"arguments", boost::json::object{}}}, id++);
  const Observation called = session.Send(call, Owed::kNothing);
  EXPECT_EQ(called.outcome, Outcome::kOk) << called.detail;
  EXPECT_FALSE(called.messages.empty()) << called.detail;
  EXPECT_EQ(orders.order("tools/call"), ReplyOrders::Order::kReorders);
  ASSERT_EQ(orders.reorders().size(), 1U);
  EXPECT_NE(orders.reorders()[0].find("tools/call: a reply to id " + std::to_string(id - 1)),
            std::string::npos)
      << orders.reorders()[0];
  // The other kind keeps its order, and its grace is spared still.
  const std::size_t spared = orders.graces_spared();
  const Observation dropped = session.Send(Unknown(id++), Owed::kNothing);
  EXPECT_EQ(dropped.outcome, Outcome::kDropped) << dropped.detail;
  EXPECT_EQ(orders.graces_spared(), spared + 1);
  EXPECT_FALSE(session.out_of_order());
}

TEST(TargetSession, ALateReplyToADropWhoseGraceWasSparedUnlearnsItsKindNotTheSentinels) {
  TargetLink link(SessionServer("late-after-learning"));
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  const ReplyOrders& orders = link.reply_orders();
  int id = 100;
  LearnUnknownInOrder(session, id);
  ASSERT_EQ(orders.order(kUnknownKind), ReplyOrders::Order::kInOrder);
  // Concluded at the sentinel's reply, its grace spared: its error comes with the next request.
  const Observation first = session.Send(Unknown(id++), Owed::kNothing);
  EXPECT_EQ(first.outcome, Outcome::kDropped) << first.detail;
  EXPECT_NE(first.detail.find("no grace"), std::string::npos) << first.detail;
  // That late reply disproves the order learnt for the kind: this pipeline waits its grace,
  // and from now on the kind keeps it. The sentinels keep their trust: a grace is all the
  // kind was denied.
  const Observation second = session.Send(Unknown(id++), Owed::kNothing);
  EXPECT_EQ(second.detail.find("no grace"), std::string::npos) << second.detail;
  EXPECT_EQ(orders.order(kUnknownKind), ReplyOrders::Order::kReorders);
  ASSERT_EQ(orders.reorders().size(), 1U);
  EXPECT_NE(orders.reorders()[0].find("late after its grace was spared"), std::string::npos)
      << orders.reorders()[0];
  EXPECT_FALSE(session.out_of_order());
}

TEST(TargetSession, ATargetThatAnswersAfterTheSentinelKeepsTheGraceForTheRun) {
  TargetLink link(SessionServer("swaps-errors"));
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  // The error comes after the sentinel's reply, in the same write: taken in the grace, so it
  // is the request's answer, and the kind reorders.
  const Observation first = session.Send(Unknown(100), Owed::kNothing);
  EXPECT_EQ(first.outcome, Outcome::kOk) << first.detail;
  EXPECT_TRUE(IsErrorWithCode(first, -32601)) << first.detail;
  ReplyOrders& orders = link.reply_orders();
  EXPECT_EQ(orders.order(kUnknownKind), ReplyOrders::Order::kReorders);
  ASSERT_EQ(orders.reorders().size(), 1U);
  EXPECT_NE(orders.reorders()[0].find("100"), std::string::npos) << orders.reorders()[0];
  for (int pipeline = 0; pipeline < 2 * ReplyOrders::kRecheckOrderEvery; ++pipeline) {
    EXPECT_EQ(orders.InOrderNext({kUnknownKind}), std::vector<bool>{false});
  }
}

TEST(ReplyOrders, AKindInOrderKeepsTheGraceInOnePipelineOfSixteenAndLosesItsOrderOnAReorder) {
  ReplyOrders orders;
  const std::vector<std::string> kinds = {"notifications", "tools/list"};
  EXPECT_EQ(orders.InOrderNext(kinds), (std::vector<bool>{false, false}));  // learning
  for (int grace = 0; grace < ReplyOrders::kGracesToLearnOrder; ++grace) {
    orders.NoteSilentGrace("notifications");
  }
  ASSERT_EQ(orders.order("notifications"), ReplyOrders::Order::kInOrder);
  int kept = 0;
  for (int pipeline = 0; pipeline < 4 * ReplyOrders::kRecheckOrderEvery; ++pipeline) {
    const std::vector<bool> in_order = orders.InOrderNext(kinds);
    EXPECT_FALSE(in_order[1]) << "tools/list was never learnt";
    kept += in_order[0] ? 0 : 1;
  }
  EXPECT_EQ(kept, 4);
  orders.NoteReorder("notifications", "output without an id");
  EXPECT_EQ(orders.order("notifications"), ReplyOrders::Order::kReorders);
  EXPECT_EQ(orders.reorders(), std::vector<std::string>{"notifications: output without an id"});
  EXPECT_EQ(orders.InOrderNext(kinds), (std::vector<bool>{false, false}));
}

TEST(ReplyOrders, KindsAreMethodsForRequestsAndOneEachForNotificationsAndRawBodies) {
  EXPECT_EQ(ReplyOrders::KindOf(Unknown(1)), kUnknownKind);
  Request notification = Unknown(1);
  std::get<boost::json::value>(notification.body).as_object().erase("id");
  EXPECT_EQ(ReplyOrders::KindOf(notification), "notifications");
  Request raw = Unknown(1);
  raw.body = RawBody{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"};
  EXPECT_EQ(ReplyOrders::KindOf(raw), "raw bodies");
  Request batch = Unknown(1);
  batch.body = boost::json::array{};
  EXPECT_EQ(ReplyOrders::KindOf(batch), "bodies without a method");
}

TEST(TargetSession, AReplyAfterTheTimeLimitIsTheRequestsAnswerNotADrop) {
  TargetLink link(SessionServer("slow-reply", milliseconds(300)));
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  const Request slow = MakeRequest(kRevision, TransportKind::kStdio, "tools/call",
                                   {{"name", "x"}, {"arguments", boost::json::object{}}}, 7);
  const Observation observation = session.Send(slow, Owed::kReply);
  // Its reply came while the sentinel sent after the silence was waited for.
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.messages.size(), 1U) << observation.detail;
  EXPECT_EQ(observation.messages[0].at("id"), 7);
}

TEST(TargetSession, EveryExchangeReachesTheObserverWithWhatItWasOwed) {
  Seen seen;
  TargetLink link(SessionServer("late-errors"), &seen);
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  ASSERT_GE(seen.methods.size(), 2U);
  EXPECT_EQ(seen.methods[0], "initialize");
  EXPECT_EQ(seen.methods[1], "notifications/initialized");
  const std::size_t before = seen.methods.size();
  session.Send(MakeRequest(kRevision, TransportKind::kStdio, "tools/list", {}, 50), Owed::kNothing);
  ASSERT_EQ(seen.methods.size(), before + 2);
  EXPECT_EQ(seen.methods[before], "tools/list");
  EXPECT_EQ(seen.owed[before], Owed::kNothing);
  // The sentinel behind it is owed the reply.
  EXPECT_EQ(seen.methods[before + 1], "ping");
  EXPECT_EQ(seen.owed[before + 1], Owed::kReply);
}

TEST(TargetSession, ADeathBetweenExchangesIsReportedAndTheServerReopened) {
  Seen seen;
  TargetLink link(SessionServer("dies-on-list"), &seen);
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  const Observation listed = session.Send(
      MakeRequest(kRevision, TransportKind::kStdio, "tools/list", {}, 60), Owed::kReply);
  ASSERT_EQ(listed.outcome, Outcome::kOk) << listed.detail;
  // The server answered, then exited: the next request finds it ended, by the process's exit,
  // whenever the scheduler let it go; the death is reported once, and a new server answers.
  Observation pinged;
  std::optional<ProcessExit> death;
  for (int attempt = 0; attempt < 2 && !death; ++attempt) {
    pinged = session.Send(MakeRequest(kRevision, TransportKind::kStdio, "ping", {}, 61 + attempt),
                          Owed::kReply);
    death = session.TakeDeathBetweenExchanges();
    if (!death && ProcessEnded(pinged)) break;  // the exit was the exchange's own
  }
  if (death) {
    EXPECT_EQ(death->exit_code, 7);
    ASSERT_EQ(seen.deaths.size(), 1U);
    EXPECT_EQ(seen.deaths[0].exit_code, 7);
    EXPECT_EQ(pinged.outcome, Outcome::kOk) << pinged.detail;
    EXPECT_EQ(session.counts().reopens, 1U);
  } else {
    EXPECT_TRUE(ProcessEnded(pinged)) << pinged.detail;
  }
}

TEST(TargetSession, AConnectionOfItsOwnIsNeverReopened) {
  TargetLink link(SessionServer("dies-on-list"));
  SessionPolicy own;
  own.reopen = false;
  TargetSession session(link, kRevision, own);
  ASSERT_TRUE(session.Open().ok()) << session.why();
  session.Send(MakeRequest(kRevision, TransportKind::kStdio, "tools/list", {}, 60), Owed::kReply);
  Observation after;
  for (int attempt = 0; attempt < 3 && !session.lost(); ++attempt) {
    after = session.Send(MakeRequest(kRevision, TransportKind::kStdio, "ping", {}, 70 + attempt),
                         Owed::kReply);
  }
  EXPECT_TRUE(session.lost());
  EXPECT_EQ(link.connections_made(), 1U);
}

TEST(TargetSession, TheLinkGivesUpAfterThreeHarmlessRequestsUnansweredInARow) {
  TargetLink link([]() -> Result<std::unique_ptr<Transport>> {
    StdioTarget target;
    target.argv = {"sh", "-c", "cat >/dev/null"};
    target.limits.timeout = milliseconds(100);
    target.limits.startup_timeout = milliseconds(100);
    target.shutdown_grace = milliseconds(100);
    auto spawned = SpawnStdio(std::move(target));
    if (!spawned) return spawned.error();
    return std::unique_ptr<Transport>(std::move(*spawned));
  });
  TargetSession session(link, kRevision);
  ASSERT_TRUE(session.Connect());
  // A request the server never answers is not what counts: it may hang on that one alone.
  EXPECT_EQ(session.SendExactly(test_support::Call(1)).outcome, Outcome::kAliveButDeaf);
  EXPECT_FALSE(link.gave_up());
  // The sentinel after a silence, and the handshake of each server started again, are questions
  // every server answers: three of them unanswered in a row, and nothing more is sent.
  for (int id = 2; id < 2 + TargetLink::kUnansweredBeforeGivingUp && !link.gave_up(); ++id) {
    session.Send(test_support::Call(id), Owed::kReply);
  }
  EXPECT_TRUE(link.gave_up());
  EXPECT_TRUE(session.lost());
  TargetSession later(link, kRevision);
  EXPECT_FALSE(later.Connect());
  EXPECT_NE(later.why().find("harmless requests"), std::string::npos) << later.why();
}

}  // namespace
}  // namespace mcpfuzz
