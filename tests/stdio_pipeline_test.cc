// SendPipelined over stdio against scripted servers (tests/fixtures/pipeline_server.py): each
// reply attributed to its request by id, silence learnt from the sentinel's reply, deafness
// still told from dropping, and servers that answer out of order not misjudged for good.
// Every scripted behaviour here is ordered by events (what the server has read), never by a
// clock, except `delay`, whose verdict is the same whichever side of the sentinel it lands.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "model/model.h"
#include "support/stdio_requests.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;
using test_support::Call;
using test_support::Notification;
using test_support::Raw;

const std::string kPipelineServer =
    std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/pipeline_server.py";

StdioTarget PipelineTarget(std::vector<std::string> options = {}) {
  StdioTarget target;
  target.argv = {"python3", kPipelineServer};
  target.argv.insert(target.argv.end(), options.begin(), options.end());
  target.limits.timeout = milliseconds(3000);
  target.limits.quiet_window = milliseconds(100);
  target.shutdown_grace = milliseconds(1000);
  return target;
}

std::unique_ptr<StdioTransport> Spawn(StdioTarget target) {
  auto transport = SpawnStdio(std::move(target));
  EXPECT_TRUE(transport.ok()) << transport.error().message;
  return transport.ok() ? std::move(*transport) : nullptr;
}

Pipeline WithSentinel(std::vector<Request> requests, std::string sentinel_id) {
  Pipeline pipeline;
  pipeline.requests = std::move(requests);
  pipeline.sentinel = Call(json::value(sentinel_id), "ping");
  return pipeline;
}

// The id of the only response in `observation`.
json::value OnlyReplyId(const Observation& observation) {
  EXPECT_EQ(observation.messages.size(), 1U);
  if (observation.messages.empty()) return nullptr;
  return observation.messages[0].at("id");
}

void ExpectSentinelAnswered(const PipelineResult& result, const std::string& id) {
  EXPECT_EQ(result.sentinel.outcome, Outcome::kOk) << result.sentinel.detail;
  EXPECT_EQ(OnlyReplyId(result.sentinel), json::value(id));
}

TEST(StdioPipeline, LinesTheServerDropsAreDroppedOnceTheSentinelIsAnswered) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  const Request unparseable = Raw("{\"jsonrpc\":\"2.0\",\"id\":");
  PipelineResult result = transport->SendPipelined(WithSentinel({unparseable}, "s1"));
  ASSERT_EQ(result.observations.size(), 1U);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;
  EXPECT_TRUE(result.observations[0].messages.empty());
  EXPECT_EQ(ClassifyReply(unparseable, result.observations[0]).channel, Channel::kNoReply);
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s1");

  // An id the server could echo, on an object it drops as no request.
  Request no_method = Raw(R"({"jsonrpc":"2.0","id":7})");
  result = transport->SendPipelined(WithSentinel({no_method}, "s2"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s2");

  // And what it can parse it answers, in the same kind of pipeline.
  result = transport->SendPipelined(WithSentinel({Call(1, "tools/list")}, "s3"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(1));
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s3");
  EXPECT_TRUE(transport->Alive());
}

TEST(StdioPipeline, ARepeatedReplyIsNotTheAnswerOfARawBodyThatDoesNotSpellItsId) {
  // A raw body takes a response of any id, but one carrying an id its bytes never spell, and
  // answered before, is a repeat: taken for the raw body's answer, it was judged as one ("the
  // reply's id 5 was not in the request").
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  PipelineResult result = transport->SendPipelined(WithSentinel({Call(5, "twice")}, "s1"));
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(5));
  // The server drops the raw line; the repeat comes while it is open.
  const Request unparseable = Raw(R"({"jsonrpc":"2.0","id":)");
  result = transport->SendPipelined(WithSentinel({unparseable}, "s2"));
  ASSERT_EQ(result.observations.size(), 1U);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;
  EXPECT_TRUE(result.observations[0].messages.empty());
  ASSERT_EQ(result.sentinel.repeated_replies.size(), 1U);
  EXPECT_EQ(result.sentinel.repeated_replies[0].at("id"), json::value(5));
  ExpectSentinelAnswered(result, "s2");

  // A raw body that spells the id may be what the response answers: it is given it.
  result = transport->SendPipelined(WithSentinel({Call(6, "twice")}, "s3"));
  result = transport->SendPipelined(WithSentinel({Raw(R"({"id": 6, "method")")}, "s4"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(6));
  EXPECT_TRUE(result.sentinel.repeated_replies.empty());
}

TEST(StdioPipeline, ARawBodyThatSpellsTheIdOfADroppedRequestIsGivenTheReplyCarryingIt) {
  // The server drops a request it cannot take for one (no method), so a reply carrying its id
  // would be that request's late reply. A raw body mcpfuzz cannot parse (NaN) but the server
  // can, spelling the id, is read by the server as a request with it: the reply is the raw
  // body's, not a late reply that leaves it unanswered (which made the session send it again
  // on a fresh server: SDK v1 reads invalid UTF-8 so).
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  const auto no_method = [](int id) {
    Request request = Call(id);
    std::get<json::value>(request.body).as_object().erase("method");
    return request;
  };
  PipelineResult result = transport->SendPipelined(WithSentinel({no_method(7)}, "s1"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;
  result = transport->SendPipelined(WithSentinel(
      {Raw(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"n":NaN}})")}, "s2"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(7));
  EXPECT_TRUE(result.sentinel.late_replies.empty());
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s2");

  // So too one at a time.
  result = transport->SendPipelined(WithSentinel({no_method(8)}, "s3"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;
  const Observation alone =
      transport->Send(Raw(R"({"jsonrpc":"2.0","id":8,"method":"ping","params":{"n":NaN}})"));
  EXPECT_EQ(alone.outcome, Outcome::kOk) << alone.detail;
  EXPECT_EQ(OnlyReplyId(alone), json::value(8));
  EXPECT_TRUE(alone.late_replies.empty());
}

TEST(StdioPipeline, SlowRepliesInOrderAreAttributedNotDropped) {
  auto transport = Spawn(PipelineTarget({"--slow=150"}));
  ASSERT_TRUE(transport);
  PipelineResult result =
      transport->SendPipelined(WithSentinel({Call(1, "tools/list"), Call("two", "ping")}, "s"));
  ASSERT_EQ(result.observations.size(), 2U);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(1));
  EXPECT_TRUE(result.observations[0].messages[0].at("result").as_object().contains("tools"));
  EXPECT_EQ(result.observations[1].outcome, Outcome::kOk) << result.observations[1].detail;
  EXPECT_EQ(OnlyReplyId(result.observations[1]), json::value("two"));
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s");
}

TEST(StdioPipeline, ADeafServerIsDeafNotDropping) {
  StdioTarget target = PipelineTarget({"--deaf"});
  target.limits.timeout = milliseconds(600);
  // Deaf from the start, it never writes a line: only the start-up limit ends the wait. Deaf it
  // is whatever that limit, so it need not be longer than the timeout here.
  target.limits.startup_timeout = milliseconds(600);
  auto transport = Spawn(target);
  ASSERT_TRUE(transport);
  PipelineResult result =
      transport->SendPipelined(WithSentinel({Call(1, "tools/list"), Call(2, "ping")}, "s"));
  for (const Observation& observation : result.observations) {
    EXPECT_EQ(observation.outcome, Outcome::kAliveButDeaf) << observation.detail;
  }
  EXPECT_EQ(result.sentinel.outcome, Outcome::kAliveButDeaf) << result.sentinel.detail;
  EXPECT_FALSE(result.ambiguous);

  // A notification to a deaf server: nothing was owed, as Send says after its quiet window.
  result = transport->SendPipelined(WithSentinel({Notification()}, "s2"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(result.sentinel.outcome, Outcome::kAliveButDeaf) << result.sentinel.detail;
}

TEST(StdioPipeline, AReplyAfterTheSentinelIsExposedLateAndTheServerIsThenWaitedFor) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  // `hold` is answered only after two more lines: after the sentinel, by construction.
  PipelineResult result = transport->SendPipelined(WithSentinel({Call(1, "hold")}, "s1"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;
  ExpectSentinelAnswered(result, "s1");

  // The next exchange reads the late reply: it is exposed, and is not this request's.
  const Request ping = Call(2, "ping");
  Observation observation = transport->Send(ping);
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.late_replies.size(), 1U);
  EXPECT_EQ(observation.late_replies[0].at("id"), 1);
  EXPECT_EQ(observation.late_replies[0].at("result").at("echo"), "hold");
  EXPECT_EQ(ClassifyReply(ping, observation).channel, Channel::kSuccess);

  // From now on the sentinel proves nothing: a reply after it is waited for...
  result = transport->SendPipelined(WithSentinel({Call(3, "delay")}, "s2"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(3));
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s2");
  // ...and a dropped line gets what Send gives it: the quiet window, then nothing.
  result = transport->SendPipelined(WithSentinel({Raw("not json")}, "s3"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_TRUE(result.observations[0].messages.empty());
  EXPECT_EQ(ClassifyReply(Raw("not json"), result.observations[0]).channel, Channel::kNoReply);
}

TEST(StdioPipeline, ALateReplyReadInAPipelineIsReportedOnItsSentinel) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  PipelineResult result = transport->SendPipelined(WithSentinel({Call("h", "hold")}, "s1"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;

  result = transport->SendPipelined(WithSentinel({Call(2, "tools/list")}, "s2"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(2));
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s2");
  ASSERT_EQ(result.sentinel.late_replies.size(), 1U);
  EXPECT_EQ(result.sentinel.late_replies[0].at("id"), "h");
}

TEST(StdioPipeline, AWindowGetsTheRepliesSendGivesOneAtATime) {
  const std::vector<Request> window = {Call(1, "tools/list"), Call("b", "ping"),
                                       Call(3, "unknown/method"), Call(4, "tools/call"),
                                       Call(5, "log")};
  auto pipelined = Spawn(PipelineTarget());
  auto one_by_one = Spawn(PipelineTarget());
  ASSERT_TRUE(pipelined && one_by_one);
  PipelineResult result = pipelined->SendPipelined(WithSentinel(window, "s"));
  ASSERT_EQ(result.observations.size(), window.size());
  // The log line comes when only the last request is open: Send would give it to it too.
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s");
  for (std::size_t i = 0; i < window.size(); ++i) {
    const Observation& together = result.observations[i];
    const Observation alone = one_by_one->Send(window[i]);
    EXPECT_EQ(together.outcome, alone.outcome) << i << ": " << together.detail;
    const Reply reply = ClassifyReply(window[i], together);
    const Reply expected = ClassifyReply(window[i], alone);
    EXPECT_EQ(reply.channel, expected.channel) << i;
    EXPECT_EQ(reply.error_code, expected.error_code) << i;
    EXPECT_EQ(together.messages, alone.messages) << i;
    EXPECT_EQ(together.non_json, alone.non_json) << i;
    EXPECT_EQ(together.stdout_lines, alone.stdout_lines) << i;
  }
}

TEST(StdioPipeline, AWindowLongerThanThePipeBufferIsWrittenWhileRepliesAreRead) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  std::vector<Request> window;
  for (int id = 1; id <= 3000; ++id) window.push_back(Call(id, "tools/list"));
  PipelineResult result = transport->SendPipelined(WithSentinel(window, "s"));
  ASSERT_EQ(result.observations.size(), window.size());
  for (std::size_t i = 0; i < window.size(); ++i) {
    ASSERT_EQ(result.observations[i].outcome, Outcome::kOk) << i;
    ASSERT_EQ(OnlyReplyId(result.observations[i]), json::value(i + 1)) << i;
  }
  EXPECT_FALSE(result.ambiguous);
  ExpectSentinelAnswered(result, "s");
}

// Output that may belong to either of two open requests.
TEST(StdioPipeline, OutputWithoutAnIdForOneOfSeveralOpenRequestsIsAmbiguous) {
  for (const char* method : {"log", "notify", "nullid", "wrongid"}) {
    auto transport = Spawn(PipelineTarget());
    ASSERT_TRUE(transport);
    PipelineResult result =
        transport->SendPipelined(WithSentinel({Call(1, method), Call(2, "ping")}, "s"));
    EXPECT_TRUE(result.ambiguous) << method;
    // Replies that carry their id are still where they belong.
    EXPECT_EQ(result.observations[1].outcome, Outcome::kOk) << method;
    ASSERT_FALSE(result.observations[1].messages.empty()) << method;
    EXPECT_EQ(result.observations[1].messages.back().at("id"), 2) << method;
    ExpectSentinelAnswered(result, "s");
  }
}

// A subscription's notifications carry the listen request's id (tables §10 X22), so they are
// that request's even with others open; and an acknowledged subscription is heard out, not
// dropped: its reply comes only when the server ends it.
TEST(StdioPipeline, AListensAcknowledgementIsItsOwnAndTheListenIsNotDropped) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  PipelineResult result = transport->SendPipelined(
      WithSentinel({Call(1, "subscriptions/listen"), Call(2, "ping")}, "s"));
  EXPECT_FALSE(result.ambiguous);
  ASSERT_EQ(result.observations.size(), 2U);
  const Observation& listen = result.observations[0];
  EXPECT_EQ(listen.outcome, Outcome::kOk) << listen.detail;
  EXPECT_NE(listen.detail.find("acknowledged"), std::string::npos) << listen.detail;
  ASSERT_EQ(listen.messages.size(), 1U);
  EXPECT_EQ(listen.messages[0].at("method"), "notifications/subscriptions/acknowledged");
  EXPECT_EQ(OnlyReplyId(result.observations[1]), json::value(2));
  ExpectSentinelAnswered(result, "s");
}

// Send alone: once acknowledged, the quiet window ends the wait, not the timeout.
TEST(StdioPipeline, SendHearsAnAcknowledgedListenOutInsteadOfTimingOut) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  const Observation listen = transport->Send(Call(1, "subscriptions/listen"));
  EXPECT_EQ(listen.outcome, Outcome::kOk) << listen.detail;
  EXPECT_EQ(ClassifyReply(Call(1, "subscriptions/listen"), listen).channel, Channel::kNoReply);
  ASSERT_EQ(listen.messages.size(), 1U);
  // The next exchange starts in sync.
  EXPECT_EQ(OnlyReplyId(transport->Send(Call(2, "ping"))), json::value(2));
}

TEST(StdioPipeline, AnOverlongLineWithSeveralRequestsOpenIsAmbiguous) {
  StdioTarget target = PipelineTarget();
  target.limits.max_response_bytes = 1024;
  auto transport = Spawn(target);
  ASSERT_TRUE(transport);
  PipelineResult result =
      transport->SendPipelined(WithSentinel({Call(1, "big"), Call(2, "ping")}, "s"));
  EXPECT_TRUE(result.ambiguous);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kTooLarge);
  ExpectSentinelAnswered(result, "s");

  // One request alone: its over-long reply is its own, as Send says.
  result = transport->SendPipelined(WithSentinel({Call(3, "big")}, "s2"));
  EXPECT_FALSE(result.ambiguous);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kTooLarge);
  ExpectSentinelAnswered(result, "s2");
}

TEST(StdioPipeline, APipelineAmbiguousByConstructionIsNotSent) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  const std::vector<Pipeline> pipelines = {
      WithSentinel({Call(1, "ping"), Call(1, "tools/list")}, "s"),
      WithSentinel({Call("s", "ping")}, "s"),
      WithSentinel({Call(1, "ping"), Raw("not json")}, "s"),
  };
  for (const Pipeline& pipeline : pipelines) {
    PipelineResult result = transport->SendPipelined(pipeline);
    EXPECT_TRUE(result.ambiguous);
    ASSERT_EQ(result.observations.size(), pipeline.requests.size());
    for (const Observation& observation : result.observations) {
      EXPECT_EQ(observation.outcome, Outcome::kTransportError);
      EXPECT_NE(observation.detail.find("not sent"), std::string::npos) << observation.detail;
    }
  }
  // Nothing reached the server: the next reply is the only one.
  Observation observation = transport->Send(Call(9, "ping"));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_EQ(OnlyReplyId(observation), json::value(9));
}

// A notification owes nothing, so it takes no reply away from a request beside it: a request
// and the notification written right behind it (a cancellation, say) are sent together.
TEST(StdioPipeline, ARequestAndANotificationBehindItAreSent) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  const PipelineResult result =
      transport->SendPipelined(WithSentinel({Call(1, "ping"), Notification()}, "s"));
  EXPECT_FALSE(result.ambiguous);
  ASSERT_EQ(result.observations.size(), 2U);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(1));
  EXPECT_EQ(result.observations[1].outcome, Outcome::kOk) << result.observations[1].detail;
  EXPECT_TRUE(result.observations[1].messages.empty());
  ExpectSentinelAnswered(result, "s");
  // Answered in order: nothing came after the sentinel's reply.
  EXPECT_EQ(result.answered_after_sentinel, (std::vector<bool>{false, false}));
}

TEST(StdioPipeline, OneRequestTakesWhatSendWouldGiveIt) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  PipelineResult result = transport->SendPipelined(WithSentinel({Call(1, "log")}, "s1"));
  EXPECT_FALSE(result.ambiguous);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk);
  EXPECT_EQ(result.observations[0].non_json.size(), 1U);
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(1));

  result = transport->SendPipelined(WithSentinel({Call(2, "notify")}, "s2"));
  EXPECT_FALSE(result.ambiguous);
  ASSERT_EQ(result.observations[0].messages.size(), 2U);
  EXPECT_EQ(result.observations[0].messages[0].at("method"), "notifications/message");

  // An error with id null answers the request whose id the server could not read.
  result = transport->SendPipelined(WithSentinel({Call(3, "nullid")}, "s3"));
  EXPECT_FALSE(result.ambiguous);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk);
  EXPECT_TRUE(OnlyReplyId(result.observations[0]).is_null());
  ExpectSentinelAnswered(result, "s3");
}

TEST(StdioPipeline, WhatTheServerSaysToANotificationBeforeTheSentinelIsItsAnswer) {
  auto transport = Spawn(PipelineTarget({"--answer-notifications"}));
  ASSERT_TRUE(transport);
  PipelineResult result = transport->SendPipelined(WithSentinel({Notification()}, "s"));
  EXPECT_FALSE(result.ambiguous);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  ASSERT_EQ(result.observations[0].messages.size(), 1U);
  EXPECT_EQ(result.observations[0].messages[0].at("result").at("echo"),
            "notifications/initialized");
  ExpectSentinelAnswered(result, "s");

  auto quiet = Spawn(PipelineTarget());
  ASSERT_TRUE(quiet);
  result = quiet->SendPipelined(WithSentinel({Notification()}, "s"));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_TRUE(result.observations[0].messages.empty());
  ExpectSentinelAnswered(result, "s");
}

TEST(StdioPipeline, AnExitMidPipelineIsAmbiguousAndEveryOpenRequestExited) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  PipelineResult result = transport->SendPipelined(
      WithSentinel({Call(1, "ping"), Call(2, "exit"), Call(3, "ping")}, "s"));
  EXPECT_TRUE(result.ambiguous);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk);
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(1));
  EXPECT_EQ(result.observations[1].outcome, Outcome::kExited);
  EXPECT_EQ(result.observations[1].exit_code, 3);
  EXPECT_EQ(result.observations[2].outcome, Outcome::kExited);
  EXPECT_EQ(result.sentinel.outcome, Outcome::kExited);
}

TEST(StdioPipeline, AnExitWithOneRequestIsThatRequestsAsInSend) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  PipelineResult result = transport->SendPipelined(WithSentinel({Call(1, "exit")}, "s"));
  EXPECT_FALSE(result.ambiguous);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kExited) << result.observations[0].detail;
  EXPECT_EQ(result.observations[0].exit_code, 3);
  EXPECT_EQ(result.sentinel.outcome, Outcome::kExited);
  EXPECT_FALSE(transport->Alive());
}

TEST(StdioPipeline, WithoutASentinelEachRequestWaitsAsSendDoes) {
  auto transport = Spawn(PipelineTarget());
  ASSERT_TRUE(transport);
  Pipeline pipeline;
  pipeline.requests = {Call(1, "ping"), Call(2, "tools/list")};
  PipelineResult result = transport->SendPipelined(pipeline);
  ASSERT_EQ(result.observations.size(), 2U);
  EXPECT_EQ(OnlyReplyId(result.observations[0]), json::value(1));
  EXPECT_EQ(OnlyReplyId(result.observations[1]), json::value(2));
  EXPECT_FALSE(result.ambiguous);
}

}  // namespace
}  // namespace mcpfuzz
