// DetectEras asks every revision at once, one connection each; the report must read as if it
// had asked them one after the other: the same attempts, in the same order, newest first. The
// revisions a run covers follow from the report (PlanRevisions), and a session opened in one of
// them stays in it (McpClient::OpenAsAsked).

#include "transport/era_probe.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/reference_server.h"
#include "support/stdio_command.h"
#include "transport/client.h"

namespace mcpfuzz {
namespace {

using namespace std::chrono_literals;

const std::vector<Revision> kNewestFirst = {Revision::k2026_07_28, Revision::k2025_11_25,
                                            Revision::k2025_06_18, Revision::k2025_03_26,
                                            Revision::k2024_11_05};

// Counts the connections opened, and how many were being opened at once at most.
struct ConnectLog {
  std::atomic<int> calls{0};
  std::atomic<int> in_progress{0};
  std::atomic<int> peak{0};
};

TransportFactory Logged(TransportFactory connect, std::shared_ptr<ConnectLog> log) {
  return [connect = std::move(connect), log]() -> Result<std::unique_ptr<Transport>> {
    ++log->calls;
    const int now = ++log->in_progress;
    int peak = log->peak.load();
    while (now > peak && !log->peak.compare_exchange_weak(peak, now)) {
    }
    auto transport = connect();
    --log->in_progress;
    return transport;
  };
}

void ExpectAttemptsInOrder(const EraReport& report) {
  ASSERT_EQ(report.attempts.size(), kNewestFirst.size());
  for (std::size_t i = 0; i < kNewestFirst.size(); ++i) {
    EXPECT_EQ(report.attempts[i].asked, kNewestFirst[i]) << i;
    EXPECT_EQ(report.attempts[i].method, i == 0 ? "server/discover" : "initialize") << i;
  }
}

void ExpectSpeaksEverything(TransportKind kind) {
  const test_support::RefTarget target =
      test_support::StartRefServer(kind, {}, test_support::ReferenceServerLimits(5000ms, 50ms));
  auto log = std::make_shared<ConnectLog>();
  const EraReport report = DetectEras(Logged(target.connect, log));
  EXPECT_EQ(report.speaks, kNewestFirst);
  ExpectAttemptsInOrder(report);
  for (const EraAttempt& attempt : report.attempts) {
    EXPECT_EQ(attempt.channel, Channel::kSuccess) << ToString(attempt.asked) << attempt.note;
    EXPECT_EQ(attempt.answered, attempt.asked) << ToString(attempt.asked);
    EXPECT_TRUE(attempt.note.empty()) << attempt.note;
  }
  EXPECT_FALSE(report.attempts[0].supported_versions.empty());
  EXPECT_EQ(report.Newest(Era::kStateless), Revision::k2026_07_28);
  EXPECT_EQ(report.Newest(Era::kHandshake), Revision::k2025_11_25);
  // One connection per question, never more at once than there are questions.
  EXPECT_EQ(log->calls.load(), static_cast<int>(kNewestFirst.size()));
  EXPECT_LE(log->peak.load(), static_cast<int>(kNewestFirst.size()));
}

TEST(EraProbe, TheReferenceServerOverStdioSpeaksEveryRevisionInOrder) {
  ExpectSpeaksEverything(TransportKind::kStdio);
}

TEST(EraProbe, TheReferenceServerOverHttpSpeaksEveryRevisionInOrder) {
  ExpectSpeaksEverything(TransportKind::kHttp);
}

// tests/fixtures/era_server.py, with `flags`.
TransportFactory EraServer(const std::vector<std::string>& flags = {}) {
  Limits limits;
  limits.timeout = 5000ms;
  limits.quiet_window = 50ms;
  return test_support::StdioCommand(test_support::FixtureArgv("era_server.py", flags), limits,
                                    300ms);
}

TEST(EraProbe, EachAnswerStaysWithTheRevisionAsked) {
  const EraReport report = DetectEras(EraServer());
  EXPECT_EQ(report.speaks, (std::vector<Revision>{Revision::k2025_03_26, Revision::k2024_11_05}));
  ExpectAttemptsInOrder(report);
  EXPECT_EQ(report.attempts[0].channel, Channel::kProtocolError);
  EXPECT_EQ(report.attempts[0].error_code, -32601);
  for (std::size_t i = 1; i < report.attempts.size(); ++i) {
    const EraAttempt& attempt = report.attempts[i];
    EXPECT_EQ(attempt.channel, Channel::kSuccess) << ToString(attempt.asked);
    const bool spoken =
        attempt.asked == Revision::k2025_03_26 || attempt.asked == Revision::k2024_11_05;
    EXPECT_EQ(attempt.answered, spoken ? attempt.asked : Revision::k2025_03_26)
        << ToString(attempt.asked);
    EXPECT_EQ(attempt.note.empty(), spoken) << ToString(attempt.asked) << ": " << attempt.note;
  }
}

// A discover that succeeds but leaves 2026-07-28 out of supportedVersions: the server says it
// does not speak it, so it is not judged in it (issue #26: 7-9 consequential FAILs otherwise).
TEST(EraProbe, ADiscoverThatDoesNotListTheRevisionDoesNotMakeItSpoken) {
  const EraReport report = DetectEras(EraServer({"--discover-lists-2025"}));
  EXPECT_EQ(report.speaks, (std::vector<Revision>{Revision::k2025_03_26, Revision::k2024_11_05}));
  const EraAttempt& discover = report.attempts.front();
  EXPECT_EQ(discover.channel, Channel::kSuccess);
  EXPECT_EQ(discover.supported_versions, (std::vector<std::string>{"2025-03-26", "2024-11-05"}));
  EXPECT_NE(discover.note.find("does not list 2026-07-28"), std::string::npos) << discover.note;
  EXPECT_FALSE(report.Newest(Era::kStateless).has_value());
  // Kept for `check`, which reports the discover itself.
  ASSERT_TRUE(discover.unlisted_discover);
  EXPECT_EQ(discover.unlisted_discover->request.RpcMethod(), "server/discover");
}

TEST(EraProbe, AnUnreachableTargetSpeaksNothing) {
  const TransportFactory nowhere = []() -> Result<std::unique_ptr<Transport>> {
    return Error{"nothing there"};
  };
  const EraReport report = DetectEras(nowhere);
  EXPECT_TRUE(report.speaks.empty());
  ExpectAttemptsInOrder(report);
  for (const EraAttempt& attempt : report.attempts) {
    EXPECT_EQ(attempt.channel, Channel::kTransportFailure);
    EXPECT_EQ(attempt.note, "nothing there");
  }
}

// Each attempt keeps what its own server wrote to stderr: why it exited, for the terminal.
TEST(EraProbe, AServerThatExitsLeavesItsStderrWithEachAttempt) {
  const TransportFactory connect = []() -> Result<std::unique_ptr<Transport>> {
    StdioTarget stdio;
    stdio.argv = {"sh", "-c", "echo 'cannot open config' >&2; exit 3"};
    stdio.limits.timeout = 5000ms;
    stdio.shutdown_grace = 300ms;
    auto spawned = SpawnStdio(std::move(stdio));
    if (!spawned) return spawned.error();
    return std::unique_ptr<Transport>(std::move(*spawned));
  };
  const EraReport report = DetectEras(connect);
  EXPECT_TRUE(report.speaks.empty());
  for (const EraAttempt& attempt : report.attempts) {
    EXPECT_EQ(attempt.channel, Channel::kTransportFailure) << ToString(attempt.asked);
    EXPECT_NE(attempt.note.find("exited with code 3"), std::string::npos) << attempt.note;
    EXPECT_EQ(attempt.stderr_tail, "cannot open config\n") << ToString(attempt.asked);
  }
}

// Answers every initialize with the revision asked; server/discover is answered with
// 2026-07-28 except the first `silent_discovers` times, and while `crowded`, which end on the
// time limit with nothing received, or, `reply_began`, after the reply's HTTP status came.
struct DiscoverScript {
  int silent_discovers = 0;
  bool reply_began = false;
  std::atomic<bool> crowded{false};
  std::atomic<int> discovers{0};
};

class ScriptedEras final : public Transport {
 public:
  explicit ScriptedEras(std::shared_ptr<DiscoverScript> script) : script_(std::move(script)) {}
  Observation Send(const Request& request) override {
    Observation observation;
    if (request.RpcMethod() == "server/discover" &&
        (script_->discovers++ < script_->silent_discovers || script_->crowded)) {
      observation.outcome = Outcome::kTimeout;
      observation.http_status = script_->reply_began ? 200 : 0;
      return observation;
    }
    observation.outcome = Outcome::kOk;
    observation.http_status = 200;
    boost::json::object reply = {{"jsonrpc", "2.0"}, {"result", boost::json::object{}}};
    if (auto id = request.RpcId()) reply["id"] = *id;
    if (request.RpcMethod() == "initialize") {
      const boost::json::value body = *request.BodyJson();
      reply["result"] = {{"protocolVersion", body.at("params").at("protocolVersion")},
                         {"capabilities", boost::json::object{}},
                         {"serverInfo", {{"name", "scripted"}, {"version", "0"}}}};
    } else if (request.RpcMethod() == "server/discover") {
      reply["result"] = {{"supportedVersions", {"2026-07-28"}},
                         {"capabilities", boost::json::object{}},
                         {"serverInfo", {{"name", "scripted"}, {"version", "0"}}}};
    }
    observation.messages.emplace_back(std::move(reply));
    return observation;
  }
  TransportKind kind() const override { return TransportKind::kHttp; }
  std::string Describe() const override { return "scripted"; }

 private:
  std::shared_ptr<DiscoverScript> script_;
};

EraReport DetectScripted(const std::shared_ptr<DiscoverScript>& script,
                         const std::function<void()>& before_alone = {}) {
  return DetectEras(
      [script]() -> Result<std::unique_ptr<Transport>> {
        return std::unique_ptr<Transport>(std::make_unique<ScriptedEras>(script));
      },
      nullptr, before_alone);
}

const std::vector<Revision> kHandshakeRevisions(kNewestFirst.begin() + 1, kNewestFirst.end());

// Issue #24: a revision whose question timed out was once dropped from "speaks" without a
// word. A time limit says nothing of the revision: the question is asked again, alone.
TEST(EraProbe, AQuestionATimeLimitEndedIsAskedAgainAlone) {
  auto script = std::make_shared<DiscoverScript>();
  script->silent_discovers = 1;
  const EraReport report = DetectScripted(script);
  EXPECT_EQ(report.speaks, kNewestFirst);
  EXPECT_TRUE(report.undetermined.empty());
  const EraAttempt& discover = report.attempts.front();
  EXPECT_EQ(discover.asked_times, 2);
  EXPECT_FALSE(discover.timed_out.has_value());
  EXPECT_EQ(discover.note, "answered when asked again alone, after a time limit");
  for (std::size_t i = 1; i < report.attempts.size(); ++i) {
    EXPECT_EQ(report.attempts[i].asked_times, 1) << ToString(report.attempts[i].asked);
  }
}

// check opens sessions of its own beside the probe; a server serving a few connections at a
// time may leave a question unanswered for them. Asked again, the question finds them ended.
TEST(EraProbe, WhatTheCallerHasInFlightEndsBeforeAQuestionIsAskedAgain) {
  auto script = std::make_shared<DiscoverScript>();
  script->crowded = true;
  int ended = 0;
  const EraReport report = DetectScripted(script, [&] {
    ++ended;
    EXPECT_EQ(script->discovers.load(), 1) << "ended before the question is asked again";
    script->crowded = false;
  });
  EXPECT_EQ(ended, 1);
  EXPECT_EQ(report.speaks, kNewestFirst);
  EXPECT_EQ(report.attempts.front().asked_times, 2);

  // Still crowded when asked again, the question is undetermined.
  auto still = std::make_shared<DiscoverScript>();
  still->crowded = true;
  EXPECT_EQ(DetectScripted(still).undetermined, std::vector<Revision>{Revision::k2026_07_28});

  // Nothing asked again, nothing ended.
  auto answered = std::make_shared<DiscoverScript>();
  ended = 0;
  EXPECT_EQ(DetectScripted(answered, [&] { ++ended; }).speaks, kNewestFirst);
  EXPECT_EQ(ended, 0);
}

// Unanswered twice: "not determined (timed out)", never "not spoken".
TEST(EraProbe, AQuestionUnansweredTwiceIsUndeterminedNotDropped) {
  auto script = std::make_shared<DiscoverScript>();
  script->silent_discovers = 2;
  const EraReport report = DetectScripted(script);
  EXPECT_EQ(report.speaks, kHandshakeRevisions);
  EXPECT_EQ(report.undetermined, std::vector<Revision>{Revision::k2026_07_28});
  EXPECT_EQ(report.attempts.front().asked_times, 2);
  EXPECT_EQ(report.attempts.front().timed_out, TimeLimit::kReply);
  EXPECT_EQ(script->discovers.load(), 2);
}

// A reply that began (its HTTP status came) and did not finish in time is the reply's
// slowness, not a start's: asking again would cost another whole limit to learn the same.
TEST(EraProbe, AQuestionWhoseReplyBeganIsNotAskedAgain) {
  auto script = std::make_shared<DiscoverScript>();
  script->silent_discovers = 1;
  script->reply_began = true;
  const EraReport report = DetectScripted(script);
  EXPECT_EQ(report.speaks, kHandshakeRevisions);
  EXPECT_EQ(report.undetermined, std::vector<Revision>{Revision::k2026_07_28});
  EXPECT_EQ(report.attempts.front().asked_times, 1);
  EXPECT_EQ(script->discovers.load(), 1);
}

// check and fuzz cover the same revisions: the newest of each era, plus 2025-03-26 for the
// batches only it processes, unless it is the newest handshake revision anyway.
std::vector<std::pair<Revision, bool>> Planned(std::vector<Revision> speaks,
                                               std::optional<Revision> forced = std::nullopt) {
  EraReport eras;
  eras.speaks = std::move(speaks);
  std::vector<std::pair<Revision, bool>> plans;
  for (const PlannedRevision& planned : PlanRevisions(eras, forced)) {
    plans.emplace_back(planned.revision, planned.batches_only);
  }
  return plans;
}

TEST(PlanRevisions, TheNewestOfEachEraAndTheBatchRevision) {
  using Plans = std::vector<std::pair<Revision, bool>>;
  EXPECT_EQ(Planned({Revision::k2026_07_28, Revision::k2025_11_25, Revision::k2025_06_18,
                     Revision::k2025_03_26}),
            (Plans{{Revision::k2026_07_28, false},
                   {Revision::k2025_11_25, false},
                   {Revision::k2025_03_26, true}}));
  EXPECT_EQ(Planned({Revision::k2025_03_26, Revision::k2024_11_05}),
            (Plans{{Revision::k2025_03_26, false}}));
  EXPECT_EQ(Planned({Revision::k2026_07_28}), (Plans{{Revision::k2026_07_28, false}}));
  EXPECT_TRUE(Planned({}).empty());
  EXPECT_EQ(Planned({Revision::k2026_07_28, Revision::k2025_03_26}, Revision::k2025_06_18),
            (Plans{{Revision::k2025_06_18, false}}));
}

// Answers every initialize with 2025-06-18, whatever was asked, and everything else with {}.
class FallingBack final : public Transport {
 public:
  Observation Send(const Request& request) override {
    Observation observation;
    observation.outcome = Outcome::kOk;
    observation.http_status = 200;
    boost::json::object reply = {{"jsonrpc", "2.0"}, {"result", boost::json::object{}}};
    if (auto id = request.RpcId()) reply["id"] = *id;
    if (request.RpcMethod() == "initialize") {
      reply["result"] = {{"protocolVersion", "2025-06-18"}, {"capabilities", {{"tools", {}}}}};
    }
    observation.messages.emplace_back(std::move(reply));
    return observation;
  }
  TransportKind kind() const override { return TransportKind::kStdio; }
  std::string Describe() const override { return "falling back"; }
};

TEST(OpenAsAsked, RefusesTheRevisionAServerFellBackTo) {
  FallingBack transport;
  McpClient fell_back(transport, Revision::k2025_11_25);
  const Result<OpenOutcome> refused = fell_back.OpenAsAsked();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "initialize answered 2025-06-18 instead of 2025-11-25");
  // Open alone follows the server where it went.
  McpClient follows(transport, Revision::k2025_11_25);
  ASSERT_TRUE(follows.Open().ok());
  EXPECT_EQ(follows.revision(), Revision::k2025_06_18);
  McpClient as_asked(transport, Revision::k2025_06_18);
  EXPECT_TRUE(as_asked.OpenAsAsked().ok());
  EXPECT_TRUE(as_asked.Declares("tools"));
}

}  // namespace
}  // namespace mcpfuzz
