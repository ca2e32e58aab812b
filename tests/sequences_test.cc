// Issue #14 part 1: sequence fuzzing. For every reference-server fault only a sequence on one
// connection can show, `fuzz --families sequences` at the default seed finds it within 2,000
// cases, shrinks it to its minimal number of steps, writes a case file whose steps replay it
// (failing with the fault, passing without), and the conformant server gives no finding.
// Also the pure parts: the model's rule per state, the case-file codec and the reproducer.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "campaign/campaign.h"
#include "model/request_builder.h"
#include "model/sequence.h"
#include "oracles/check_ids.h"
#include "oracles/sequence.h"
#include "reports/finding_file.h"
#include "support/processes.h"
#include "support/reference_server.h"

namespace mcpfuzz::test_support {
namespace {

// A sequence is what its case file reads back as.
void ExpectCaseFileRoundTrip(const Sequence& sequence) {
  auto decoded = SequenceFromJson(SequenceToJson(sequence));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(*decoded, sequence);
}

// The reproducer of `steps` against a server on the usual port.
template <class Steps>
std::string HttpReproducer(const Steps& steps) {
  ReproducerTarget target;
  target.url = "http://127.0.0.1:8931/mcp";
  return SequenceReproducer(steps, target);
}

// A stdio target whose command line is `server --stdio`.
ReproducerTarget StdioServer() {
  ReproducerTarget target;
  target.kind = TransportKind::kStdio;
  target.argv = {"server", "--stdio"};
  return target;
}

using namespace std::chrono_literals;

constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;
constexpr Revision kR4 = Revision::k2025_11_25;

Limits SequenceLimits() { return ReferenceServerLimits(3000ms, 20ms); }

CampaignOptions SequenceOptions() {
  CampaignOptions options;  // the default seed
  options.max_cases = 2000;
  options.families = {"sequences"};
  options.revision = kR4;
  return options;
}

std::string Describe(const CampaignResult& result) {
  std::string text = std::to_string(result.cases) + " cases\n";
  for (const CampaignFinding& finding : result.findings) {
    text += "  case " + std::to_string(finding.case_index) + " (" +
            std::to_string(finding.steps.size()) + " steps: " + finding.variant +
            "): " + Summarize(finding.verdict) + "\n";
  }
  for (const std::string& note : result.notes) text += "  note: " + note + "\n";
  return text;
}

struct FaultRow {
  std::string_view fault;
  TransportKind transport;
  std::string_view check;
  /// The fewest steps that show it: the failing step and what it needs before it.
  std::size_t minimal_steps;
  /// The revision the run is forced to; nothing lets the era probe run (so the campaign knows
  /// whether the target speaks both eras).
  std::optional<Revision> revision = kR4;
  /// Within how many cases the default seed finds it: 2,000, as the issue asks of the faults it
  /// names, or more for one that needs a rarer draw.
  std::size_t cases = 2000;
};

// ping-method-not-found over stdio: a ping to a fresh process. Over HTTP a ping needs the
// session initialize opens. A DELETEd session: initialize, DELETE, a request in it. A cursor across
// lists: the handshake, a list that hands out a cursor, another list carrying it (over HTTP only:
// over stdio the default seed needs some hundreds of processes to reach it, most of a minute). A
// cancelled request: it and its cancellation.
constexpr FaultRow kFaults[] = {
    {"ping-method-not-found", kStdio, check::kPingBeforeInit, 1},
    {"ping-method-not-found", kHttp, check::kPingBeforeInit, 2},
    {"deleted-session-served", kHttp, check::kSessionUnknown, 3},
    {"cursor-across-lists", kHttp, check::kInvalidCursor, 4},
    // A request and its cancellation written together (only over stdio: over HTTP the request's
    // POST holds its connection), on a fresh process: the handshake plays no part.
    {"cancelled-request-answered", kStdio, check::kCancelledNoReply, 2},
    // The era of a stdio connection (tables §4b V16a): an enveloped list that locks it, then
    // initialize. era-lock-ignored serves every envelope-less request after the lock, so the
    // sequence shows it too.
    {"initialize-relocks-era", kStdio, check::kInitializeAfterEraLock, 2, Revision::k2026_07_28},
    {"era-lock-ignored", kStdio, check::kInitializeAfterEraLock, 2, Revision::k2026_07_28},
    // V16b: initialize, then an enveloped request (notifications/initialized plays no part).
    // Sent only where the era probe saw both eras spoken, so no revision is forced.
    {"era-switch-after-initialize", kStdio, check::kEnvelopeAfterInitialize, 2, std::nullopt},
    // Sessions are isolated: initialize, a second initialize without a session (a session of
    // its own), its DELETE, then a request in the first session must still be answered (here a
    // tools/list before notifications/initialized, L4: the 404 is not its answer).
    {"delete-ends-all-sessions", kHttp, check::kRequestBeforeInit, 4},
    // A session's log level (tables §7 G4): initialize, notifications/initialized,
    // logging/setLevel above info, and a ping whose reply carries an info log message.
    {"set-level-ignored", kStdio, check::kSessionLogLevel, 4},
    {"set-level-ignored", kHttp, check::kSessionLogLevel, 4},
    // A resource's subscription (tables §7 R4s): initialize, notifications/initialized,
    // resources/subscribe, resources/unsubscribe, and a ping whose reply still carries an update.
    {"unsubscribe-ignored", kStdio, check::kUnsubscribe, 5},
    {"unsubscribe-ignored", kHttp, check::kUnsubscribe, 5},
    // Progress after the response (tables §4a L10a), over stdio: initialize,
    // notifications/initialized, a ping with a progressToken, and a ping after its answer.
    {"progress-after-response", kStdio, check::kProgressAfterResponse, 4},
    // A cursor sent twice (tables §7 C2): initialize, notifications/initialized, the paginated
    // resources/templates/list, then its next page asked for twice with its nextCursor.
    // The handshake, the one list the reference server pages and its page twice come in about
    // one case in 7,000 (3 in 20,000 at the default seed): 20,000 cases take 10 s over HTTP.
    {"cursor-single-use", kHttp, check::kCursorReused, 5, kR4, 20000},
};

// Names the parameter in test output instead of dumping its bytes.
void PrintTo(const FaultRow& row, std::ostream* out) {
  *out << row.fault << " over " << ToString(row.transport);
}

class SequenceFault : public ::testing::TestWithParam<FaultRow> {};

TEST_P(SequenceFault, FoundShrunkToItsMinimalLengthAndReplayed) {
  const FaultRow& row = GetParam();
  const RefTarget target =
      StartRefServer(row.transport, {std::string(row.fault)}, SequenceLimits(), 200ms);
  CampaignOptions options = SequenceOptions();
  options.revision = row.revision;
  options.max_cases = row.cases;
  const ScratchDirectory corpus(std::string(row.fault) + "-seq");
  options.corpus_dir = corpus.path();
  // The run stops at its first finding, which must be the fault's: every case is a new
  // connection (over stdio a process), so 2,000 of them would take most of a minute.
  options.max_findings = 1;
  const CampaignResult result = RunCampaign(target.connect, options);
  ASSERT_EQ(result.findings.size(), 1U) << Describe(result);
  const auto found = result.findings.begin();
  EXPECT_EQ(found->check_id, row.check) << Describe(result);
  EXPECT_LT(found->case_index, row.cases);
  EXPECT_TRUE(found->stable) << found->reproduced << " of " << found->resends;
  EXPECT_EQ(found->steps.size(), row.minimal_steps) << Describe(result);
  ASSERT_FALSE(found->steps.empty());
  EXPECT_EQ(found->minimal, found->steps.back().request);
  EXPECT_NE(found->reproducer.find(row.transport == kHttp ? "curl" : "printf"), std::string::npos);
  ASSERT_FALSE(found->file.empty()) << found->file_error;

  auto stored = ReadCaseFile(found->file);
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_EQ(stored->steps, found->steps);

  const ReplayResult replayed = Replay(target.connect, found->file);
  ASSERT_EQ(replayed.cases.size(), 1U);
  EXPECT_TRUE(replayed.cases[0].error.empty()) << replayed.cases[0].error;
  EXPECT_TRUE(replayed.cases[0].still_fails);
  EXPECT_TRUE(replayed.cases[0].same_signature);

  const RefTarget conformant = StartRefServer(row.transport, {}, SequenceLimits(), 200ms);
  const ReplayResult fixed = Replay(conformant.connect, found->file);
  ASSERT_EQ(fixed.cases.size(), 1U);
  EXPECT_TRUE(fixed.cases[0].error.empty()) << fixed.cases[0].error;
  EXPECT_FALSE(fixed.cases[0].still_fails)
      << (fixed.cases[0].verdict ? Summarize(*fixed.cases[0].verdict) : "no verdict");
}

INSTANTIATE_TEST_SUITE_P(Faults, SequenceFault, ::testing::ValuesIn(kFaults), [](const auto& test) {
  std::string name(test.param.fault);
  std::replace(name.begin(), name.end(), '-', '_');
  return name + "_" + std::string(ToString(test.param.transport));
});

class ConformantSequences : public ::testing::TestWithParam<TransportKind> {};

TEST_P(ConformantSequences, NoFinding) {
  const RefTarget target = StartRefServer(GetParam(), {}, SequenceLimits(), 200ms);
  CampaignOptions options = SequenceOptions();
  // Every sequence is a fresh connection (over stdio a process): 200 cover every kind of step.
  options.max_cases = GetParam() == kHttp ? 2000 : 200;
  const CampaignResult result = RunCampaign(target.connect, options);
  EXPECT_EQ(result.cases, options.max_cases) << Describe(result);
  EXPECT_TRUE(result.findings.empty()) << Describe(result);
  EXPECT_TRUE(result.notes.empty()) << Describe(result);
}

INSTANTIATE_TEST_SUITE_P(Transports, ConformantSequences, ::testing::Values(kHttp, kStdio),
                         [](const auto& test) { return std::string(ToString(test.param)); });

// No family named: one case in 64 is a sequence, in every handshake-era revision and only
// there, and the default seed finds a fault that only a sequence reveals among them within the
// 2,000 cases the issue asks (case 1,087: a DELETE, then a request in the session it ended).
TEST(DefaultFamilies, MixInASequenceEverySixtyFourthCase) {
  const RefTarget target =
      StartRefServer(kHttp, {"deleted-session-served"}, SequenceLimits(), 200ms);
  CampaignOptions options;  // the default seed and families, every revision spoken
  options.max_cases = 2000;
  const CampaignResult result = RunCampaign(target.connect, options);
  ASSERT_EQ(result.cases + result.big_inputs_held_back, options.max_cases) << Describe(result);
  EXPECT_EQ(result.sequences_held_back, 0U);  // over HTTP a sequence costs only a session
  // Case i goes to revision i % (revisions); sequences apply in all but 2026-07-28.
  const std::size_t lanes = result.revisions.size();
  ASSERT_GT(lanes, 1U);
  std::size_t expected = 0;
  for (std::size_t index = 63; index < options.max_cases; index += 64) {
    if (result.revisions[index % lanes] != Revision::k2026_07_28) ++expected;
  }
  const auto sequences = result.cases_per_family.find("sequences");
  ASSERT_NE(sequences, result.cases_per_family.end()) << Describe(result);
  EXPECT_EQ(sequences->second, expected);
  EXPECT_GT(expected, 0U);
  bool found = false;
  for (const CampaignFinding& finding : result.findings) {
    found = found || (finding.family == "sequences" && finding.check_id == check::kSessionUnknown);
  }
  EXPECT_TRUE(found) << Describe(result);
}

// Both conformant stdio fronts (the default one, which locks a connection's era once a request of
// either era was served, and --dual-era) pass the era-lock sequences of every lane: no revision
// is forced, so the 2026-07-28 lane locks and sends initialize and the handshake lanes send an
// enveloped request after initialize.
TEST(EraLockSequences, NoFindingAtEitherConformantStdioFront) {
  for (bool dual : {false, true}) {
    SCOPED_TRACE(dual ? "--dual-era" : "default front");
    const RefTarget target =
        StartRefServer(kStdio, {}, SequenceLimits(), 200ms,
                       dual ? std::vector<std::string>{"--dual-era"} : std::vector<std::string>{});
    CampaignOptions options = SequenceOptions();
    options.revision.reset();
    options.max_cases = 150;
    const CampaignResult result = RunCampaign(target.connect, options);
    EXPECT_EQ(result.cases, options.max_cases) << Describe(result);
    EXPECT_TRUE(result.findings.empty()) << Describe(result);
    EXPECT_TRUE(result.notes.empty()) << Describe(result);
    EXPECT_EQ(result.revisions.front(), Revision::k2026_07_28) << Describe(result);
  }
}

// --- the pure parts ---

Observation Answered(std::string_view reply) {
  Observation observation;
  observation.messages = {boost::json::parse(reply)};
  return observation;
}

// The state after initialize and notifications/initialized (the first session over HTTP).
SequenceState Initialized(TransportKind kind) {
  Request initialize = MakeInitialize(kR4, kind, 1);
  initialize.session = SessionBinding::kOmit;
  SequenceState state = PlanSequence(SequenceState{}, initialize);
  return PlanSequence(state, MakeNotification(kR4, kind, "notifications/initialized"));
}

// `notification`, then an empty result for `id`: over HTTP as an SSE stream.
Observation NotifiedThenAnswered(TransportKind kind, boost::json::object notification, int id) {
  Observation observation;
  notification["jsonrpc"] = "2.0";
  observation.messages = {notification,
                          boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", {}}}};
  if (kind == kHttp) {
    observation.http_status = 200;
    observation.content_type = "text/event-stream";
  }
  return observation;
}

// Two sessions in one sequence (HTTP): the second one's DELETE and what names it afterwards are
// judged; the first session's steps keep their own rules.
TEST(SequenceModel, ASecondSessionIsJudgedApartFromTheFirst) {
  SequenceState state;
  Request first = MakeInitialize(kR4, kHttp, 1);
  first.session = SessionBinding::kOmit;
  state = PlanSequence(state, first);
  state = PlanSequence(state, MakeNotification(kR4, kHttp, "notifications/initialized"));
  Request second = MakeInitialize(kR4, kHttp, 2);
  second.session = SessionBinding::kOmit;
  EXPECT_EQ(RuleForStep(state, second)->check_id, check::kInitialize);
  state = PlanSequence(state, second);
  EXPECT_EQ(state.second, SequenceState::Session::kLive);
  // The first session's handshake stays where it was.
  EXPECT_EQ(state.handshake, SequenceState::Handshake::kInitialized);
  Request end = MakeBodyless(kR4, "DELETE");
  end.session = SessionBinding::kSecond;
  EXPECT_EQ(RuleForStep(state, end)->check_id, check::kSessionDelete);
  state = PlanSequence(state, end);
  EXPECT_EQ(state.second, SequenceState::Session::kEnded);
  EXPECT_EQ(state.session, SequenceState::Session::kLive);
  const Request ping = MakeRequest(kR4, kHttp, "ping", {}, 3);
  EXPECT_EQ(RuleForStep(state, ping)->check_id, check::kPing);
  Request in_second = ping;
  in_second.session = SessionBinding::kSecond;
  EXPECT_EQ(RuleForStep(state, in_second)->check_id, check::kSessionUnknown);

  // The case file keeps the binding; the reproducer captures both ids and sends each where it
  // belongs.
  Sequence sequence;
  for (const Request& request : {first, second, end, ping}) {
    sequence.push_back({request, "", "", std::nullopt});
  }
  ExpectCaseFileRoundTrip(sequence);
  const std::string line = HttpReproducer(sequence);
  EXPECT_NE(line.find("[ -n \"$sid2\" ] || sid2=$(printf"), std::string::npos) << line;
  const auto delete_at = line.find("-X DELETE");
  ASSERT_NE(delete_at, std::string::npos) << line;
  EXPECT_NE(line.rfind("${sid2:+-H \"Mcp-Session-Id: $sid2\"}", delete_at), std::string::npos)
      << line;
  EXPECT_NE(line.find("${sid:+-H \"Mcp-Session-Id: $sid\"}", delete_at), std::string::npos) << line;
}

// Tables §7 G4: a served logging/setLevel sets the session's level, and a ping after it is judged
// with that level; a refused one, or one naming no level, sets nothing.
TEST(SequenceModel, AServedSetLevelJudgesThePingAfterItByThatLevel) {
  for (TransportKind kind : {kStdio, kHttp}) {
    SCOPED_TRACE(std::string(ToString(kind)));
    SequenceState state = Initialized(kind);
    const Request set = MakeRequest(kR4, kind, "logging/setLevel", {{"level", "error"}}, 2);
    const Request ping = MakeRequest(kR4, kind, "ping", {}, 3);
    EXPECT_FALSE(RuleForStep(state, set).has_value());
    EXPECT_EQ(AdvanceSequence(state, set,
                              Answered(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,)"
                                       R"("message":"no"}})"))
                  .log_level,
              std::nullopt);
    const Request no_level = MakeRequest(kR4, kind, "logging/setLevel", {{"level", "Error"}}, 2);
    EXPECT_EQ(AdvanceSequence(state, no_level, Answered(R"({"jsonrpc":"2.0","id":2,"result":{}})"))
                  .log_level,
              std::nullopt);
    EXPECT_EQ(RuleForStep(state, ping)->check_id, check::kPing);
    state = AdvanceSequence(state, set, Answered(R"({"jsonrpc":"2.0","id":2,"result":{}})"));
    EXPECT_EQ(state.log_level, "error");
    const auto rule = RuleForStep(state, ping);
    ASSERT_TRUE(rule.has_value());
    EXPECT_EQ(rule->check_id, check::kSessionLogLevel);
    EXPECT_EQ(rule->row, "G4");
    EXPECT_EQ(rule->context.session_log_level, "error");

    // The level at work: an info message in the ping's reply is below "error" (a WARN, the text
    // says "should"), a critical one is not.
    auto judged = [&](std::string_view level) {
      const boost::json::object message{{"method", "notifications/message"},
                                        {"params", {{"level", level}, {"data", "x"}}}};
      return JudgeStep(state, ping, NotifiedThenAnswered(kind, message, 3)).verdict;
    };
    const Verdict below = judged("info");
    EXPECT_EQ(below.kind, VerdictKind::kWarn) << Summarize(below);
    EXPECT_EQ(judged("critical").kind, VerdictKind::kPass) << Summarize(judged("critical"));
  }
}

// Tables §7 R4s: an unsubscribe of a URI the session subscribed to is judged, and so is a ping
// after it, with the URI in its context; an unsubscribe of a URI never subscribed is not.
TEST(SequenceModel, AnUnsubscribeEndsTheUpdatesOfItsResource) {
  for (TransportKind kind : {kStdio, kHttp}) {
    SCOPED_TRACE(std::string(ToString(kind)));
    SequenceState state = Initialized(kind);
    const Request subscribe = MakeRequest(kR4, kind, "resources/subscribe", {{"uri", "a://x"}}, 2);
    const Request unsubscribe =
        MakeRequest(kR4, kind, "resources/unsubscribe", {{"uri", "a://x"}}, 3);
    const Request ping = MakeRequest(kR4, kind, "ping", {}, 4);
    EXPECT_FALSE(RuleForStep(state, unsubscribe).has_value()) << "it follows no subscribe";
    EXPECT_TRUE(AdvanceSequence(state, subscribe,
                                Answered(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,)"
                                         R"("message":"no"}})"))
                    .subscribed.empty());
    state = AdvanceSequence(state, subscribe, Answered(R"({"jsonrpc":"2.0","id":2,"result":{}})"));
    ASSERT_EQ(state.subscribed, std::vector<std::string>{"a://x"});
    auto rule = RuleForStep(state, unsubscribe);
    ASSERT_TRUE(rule.has_value());
    EXPECT_EQ(rule->check_id, check::kUnsubscribe);
    EXPECT_EQ(RuleForStep(state, ping)->check_id, check::kPing);
    // A refused unsubscribe ends nothing.
    EXPECT_TRUE(AdvanceSequence(state, unsubscribe,
                                Answered(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,)"
                                         R"("message":"no"}})"))
                    .unsubscribed.empty());
    state =
        AdvanceSequence(state, unsubscribe, Answered(R"({"jsonrpc":"2.0","id":3,"result":{}})"));
    EXPECT_TRUE(state.subscribed.empty());
    rule = RuleForStep(state, ping);
    ASSERT_TRUE(rule.has_value());
    EXPECT_EQ(rule->check_id, check::kUnsubscribe);
    EXPECT_EQ(rule->context.unsubscribed_uris, std::vector<std::string>{"a://x"});

    auto judged = [&](std::string_view uri) {
      const boost::json::object update{{"method", "notifications/resources/updated"},
                                       {"params", {{"uri", uri}}}};
      return JudgeStep(state, ping, NotifiedThenAnswered(kind, update, 4)).verdict;
    };
    const Verdict after = judged("a://x");
    EXPECT_EQ(after.kind, VerdictKind::kWarn) << Summarize(after);
    EXPECT_EQ(judged("a://other").kind, VerdictKind::kPass) << Summarize(judged("a://other"));
    // Subscribing again ends what the unsubscribe ended.
    state = PlanSequence(state, subscribe);
    EXPECT_TRUE(state.unsubscribed.empty());
    EXPECT_EQ(judged("a://x").kind, VerdictKind::kPass);
  }
}

// Tables §4a L10a: over stdio, once a request with a progressToken was answered (a result or an
// error), a ping is judged with the token in its context; over HTTP L10 judges later streams.
TEST(SequenceModel, ProgressForAnAnsweredRequestIsJudgedOverStdio) {
  for (TransportKind kind : {kStdio, kHttp}) {
    SCOPED_TRACE(std::string(ToString(kind)));
    SequenceState state = Initialized(kind);
    const Request tokened =
        MakeRequest(kR4, kind, "ping", {{"_meta", {{"progressToken", "t-7"}}}}, 2);
    const Request ping = MakeRequest(kR4, kind, "ping", {}, 3);
    EXPECT_TRUE(AdvanceSequence(state, tokened, Observation{}).finished_progress_tokens.empty())
        << "no answer: the request may still be active";
    state = AdvanceSequence(state, tokened,
                            Answered(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,)"
                                     R"("message":"no"}})"));
    ASSERT_EQ(state.finished_progress_tokens.size(), 1U);
    const auto rule = RuleForStep(state, ping);
    ASSERT_TRUE(rule.has_value());
    if (kind == kHttp) {
      EXPECT_EQ(rule->check_id, check::kPing);
      continue;
    }
    EXPECT_EQ(rule->check_id, check::kProgressAfterResponse);
    EXPECT_EQ(rule->row, "L10a");
    auto judged = [&](std::string_view token) {
      const boost::json::object progress{{"method", "notifications/progress"},
                                         {"params", {{"progressToken", token}, {"progress", 2}}}};
      return JudgeStep(state, ping, NotifiedThenAnswered(kind, progress, 3)).verdict;
    };
    const Verdict after = judged("t-7");
    EXPECT_EQ(after.kind, VerdictKind::kFail) << Summarize(after);
    EXPECT_EQ(judged("t-8").kind, VerdictKind::kPass) << Summarize(judged("t-8"));
  }
}

// Tables §4b V16a: initialize on a connection a served enveloped request locked to 2026-07-28.
TEST(SequenceModel, InitializeAfterTheEraLockMustBeRefused) {
  constexpr Revision kR5 = Revision::k2026_07_28;
  SequenceState state;
  const Request discover = MakeRequest(kR5, kStdio, "server/discover", {}, 1);
  EXPECT_EQ(RuleForStep(state, discover)->check_id, check::kDiscoverResult);
  Request initialize = MakeInitialize(kR4, kStdio, 3);
  initialize.revision = kR5;
  // server/discover locks nothing: initialize may open a legacy connection, and is not judged.
  state = PlanSequence(state, discover);
  EXPECT_EQ(state.era, SequenceState::EraLock::kUnlocked);
  EXPECT_FALSE(RuleForStep(state, initialize).has_value());
  const Request list = MakeRequest(kR5, kStdio, "tools/list", {}, 2);
  // A refused list locks nothing either.
  EXPECT_EQ(AdvanceSequence(state, list,
                            Answered(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,)"
                                     R"("message":"no"}})"))
                .era,
            SequenceState::EraLock::kUnlocked);
  state = AdvanceSequence(state, list,
                          Answered(R"({"jsonrpc":"2.0","id":2,"result":{"tools":[],)"
                                   R"("resultType":"complete","ttlMs":0,"cacheScope":"public"}})"));
  ASSERT_EQ(state.era, SequenceState::EraLock::kStateless);
  const auto rule = RuleForStep(state, initialize);
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(rule->check_id, check::kInitializeAfterEraLock);
  EXPECT_EQ(rule->row, "V16a");
  for (std::int64_t code : {-32601, -32602, -32600, -32022}) {
    const Judgement refused = JudgeStep(state, initialize,
                                        Answered(R"({"jsonrpc":"2.0","id":3,"error":{"code":)" +
                                                 std::to_string(code) + R"(,"message":"no"}})"));
    EXPECT_EQ(refused.verdict.kind, VerdictKind::kPass) << Summarize(refused.verdict);
  }
  const Judgement other =
      JudgeStep(state, initialize,
                Answered(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"no"}})"));
  EXPECT_EQ(other.verdict.kind, VerdictKind::kWarn) << Summarize(other.verdict);
  const Judgement served =
      JudgeStep(state, initialize,
                Answered(R"({"jsonrpc":"2.0","id":3,"result":{"protocolVersion":"2025-11-25",)"
                         R"("capabilities":{},"serverInfo":{"name":"s","version":"1"}}})"));
  EXPECT_EQ(served.verdict.kind, VerdictKind::kFail) << Summarize(served.verdict);
}

// Tables §4b V16b: an enveloped request once initialize locked the connection to the handshake
// era. Never a FAIL: a result of the other era warns.
TEST(SequenceModel, AnEnvelopedRequestAfterInitializeOnlyWarnsWhenTheEraSwitches) {
  SequenceState state;
  state = PlanSequence(state, MakeInitialize(kR4, kStdio, 1));
  EXPECT_EQ(state.era, SequenceState::EraLock::kHandshake);
  state = PlanSequence(state, MakeNotification(kR4, kStdio, "notifications/initialized"));
  const Request enveloped = MakeRequest(Revision::k2026_07_28, kStdio, "tools/list", {}, 2);
  const auto rule = RuleForStep(state, enveloped);
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(rule->check_id, check::kEnvelopeAfterInitialize);
  EXPECT_EQ(rule->row, "V16b");
  const Judgement refused = JudgeStep(
      state, enveloped,
      Answered(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"other era"}})"));
  EXPECT_EQ(refused.verdict.kind, VerdictKind::kPass) << Summarize(refused.verdict);
  const Judgement handshake_shaped =
      JudgeStep(state, enveloped, Answered(R"({"jsonrpc":"2.0","id":2,"result":{"tools":[]}})"));
  EXPECT_EQ(handshake_shaped.verdict.kind, VerdictKind::kPass)
      << Summarize(handshake_shaped.verdict);
  const Judgement switched =
      JudgeStep(state, enveloped,
                Answered(R"({"jsonrpc":"2.0","id":2,"result":{"tools":[],"resultType":"complete",)"
                         R"("ttlMs":0,"cacheScope":"public"}})"));
  EXPECT_EQ(switched.verdict.kind, VerdictKind::kWarn) << Summarize(switched.verdict);
  EXPECT_TRUE(switched.finding);
  // Over a connection nothing locked (initialize refused), the step is not judged.
  EXPECT_FALSE(RuleForStep(SequenceState{}, enveloped).has_value());
}

TEST(SequenceModel, EachStepIsJudgedByTheRuleOfItsState) {
  SequenceState state;
  Request initialize = MakeInitialize(kR4, kHttp, 1);
  initialize.session = SessionBinding::kOmit;
  EXPECT_EQ(RuleForStep(state, initialize)->check_id, check::kInitialize);
  state = PlanSequence(state, initialize);
  EXPECT_EQ(state.session, SequenceState::Session::kLive);
  const Request ping = MakeRequest(kR4, kHttp, "ping", {}, 2);
  EXPECT_EQ(RuleForStep(state, ping)->check_id, check::kPingBeforeInit);
  const Request initialized = MakeNotification(kR4, kHttp, "notifications/initialized");
  state = PlanSequence(state, initialized);
  EXPECT_EQ(RuleForStep(state, ping)->check_id, check::kPing);
  Request again = MakeInitialize(kR4, kHttp, 3);
  EXPECT_EQ(RuleForStep(state, again)->check_id, check::kReinitialize);
  const Request del = MakeBodyless(kR4, "DELETE");
  EXPECT_EQ(RuleForStep(state, del)->check_id, check::kSessionDelete);
  state = PlanSequence(state, del);
  EXPECT_EQ(RuleForStep(state, ping)->check_id, check::kSessionUnknown);
  EXPECT_EQ(RuleForStep(state, del)->check_id, check::kSessionUnknown);
  // A DELETE refused with 405 leaves the session live.
  SequenceState live;
  live = PlanSequence(live, initialize);
  Observation refused;
  refused.http_status = 405;
  EXPECT_EQ(AdvanceSequence(live, del, refused).session, SequenceState::Session::kLive);
  // L4 once initialized is open: recorded, not judged.
  EXPECT_FALSE(
      RuleForStep(PlanSequence(live, initialized), MakeRequest(kR4, kHttp, "tools/list", {}, 4))
          .has_value());
}

TEST(SequenceCodec, RoundTripsAndTheReproducerCapturesTheSession) {
  Sequence sequence;
  Request initialize = MakeInitialize(kR4, kHttp, 1);
  initialize.session = SessionBinding::kOmit;
  sequence.push_back({initialize, std::string(check::kInitialize), "L1", std::nullopt});
  sequence.push_back(
      {MakeBodyless(kR4, "DELETE"), std::string(check::kSessionDelete), "H14", std::nullopt});
  sequence.push_back({MakeRequest(kR4, kHttp, "ping", {}, 2), std::string(check::kSessionUnknown),
                      "H13", std::nullopt});
  ExpectCaseFileRoundTrip(sequence);

  const std::string line = HttpReproducer(StepRequests(sequence));
  // The first step goes without a session; later ones attach the one captured.
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 0) << line;
  EXPECT_NE(line.find("sid=$(printf"), std::string::npos) << line;
  EXPECT_NE(line.find("-X DELETE"), std::string::npos) << line;
  const auto first_curl = line.find("curl");
  EXPECT_EQ(line.substr(first_curl, 60).find("Mcp-Session-Id"), std::string::npos) << line;

  const std::string stdio = SequenceReproducer(StepRequests(sequence), StdioServer());
  EXPECT_EQ(stdio.rfind("printf ", 0), 0U) << stdio;
  EXPECT_NE(stdio.find("| server --stdio"), std::string::npos) << stdio;
}

TEST(SequenceModel, AForeignCursorIsJudgedByC1AndItsOwnIsNot) {
  SequenceState state;
  for (const Request& request : {MakeInitialize(kR4, kStdio, 1),
                                 MakeNotification(kR4, kStdio, "notifications/initialized")}) {
    state = PlanSequence(state, request);
  }
  const Request templates = MakeRequest(kR4, kStdio, "resources/templates/list", {}, 2);
  Observation listed;
  listed.messages = {boost::json::parse(R"({"jsonrpc":"2.0","id":2,"result":{)"
                                        R"("resourceTemplates":[],"nextCursor":"opaque-7"}})")};
  state = AdvanceSequence(state, templates, listed);
  EXPECT_EQ(CapturedCursor(state, 2), "opaque-7");
  EXPECT_FALSE(CapturedCursor(state, 1).has_value());
  const Request foreign = WithCursor(MakeRequest(kR4, kStdio, "tools/list", {}, 3), "opaque-7");
  const auto rule = RuleForStep(state, foreign);
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(rule->check_id, check::kInvalidCursor);
  EXPECT_EQ(rule->row, "C1");
  EXPECT_FALSE(RuleForStep(state, WithCursor(templates, "opaque-7")).has_value());
  EXPECT_FALSE(RuleForStep(state, WithCursor(foreign, "never-handed-out")).has_value());

  // Tables §7 C2: its own cursor, once it got a result, is judged when it is sent again; a
  // refused first use does not count.
  const Request next_page =
      WithCursor(MakeRequest(kR4, kStdio, "resources/templates/list", {}, 4), "opaque-7");
  EXPECT_EQ(AdvanceSequence(state, next_page,
                            Answered(R"({"jsonrpc":"2.0","id":4,"error":{"code":-32602,)"
                                     R"("message":"Invalid cursor"}})"))
                .cursors.front()
                .uses,
            0U);
  state = AdvanceSequence(
      state, next_page, Answered(R"({"jsonrpc":"2.0","id":4,"result":{"resourceTemplates":[]}})"));
  const auto reused = RuleForStep(state, next_page);
  ASSERT_TRUE(reused.has_value());
  EXPECT_EQ(reused->check_id, check::kCursorReused);
  EXPECT_EQ(reused->row, "C2");
  EXPECT_EQ(RuleForStep(state, foreign)->check_id, check::kInvalidCursor);
}

TEST(SequenceCodec, TheReproducerCarriesTheCapturedCursor) {
  Sequence sequence;
  Request initialize = MakeInitialize(kR4, kHttp, 1);
  initialize.session = SessionBinding::kOmit;
  sequence.push_back({initialize, std::string(check::kInitialize), "L1", std::nullopt});
  sequence.push_back(
      {MakeNotification(kR4, kHttp, "notifications/initialized"), "", "", std::nullopt});
  sequence.push_back(
      {MakeRequest(kR4, kHttp, "resources/templates/list", {}, 2), "", "", std::nullopt});
  sequence.push_back({WithCursor(MakeRequest(kR4, kHttp, "tools/list", {}, 3), kCursorPlaceholder),
                      std::string(check::kInvalidCursor), "C1", 2});
  ExpectCaseFileRoundTrip(sequence);

  const std::string line = HttpReproducer(sequence);
  EXPECT_NE(line.find("; c3=$(printf '%s' \"$r\" | sed -n"), std::string::npos) << line;
  EXPECT_NE(line.find(R"("cursor":"'"$c3"'")"), std::string::npos) << line;
  EXPECT_EQ(line.find(kCursorPlaceholder), std::string::npos) << line;

  const std::string stdio = SequenceReproducer(sequence, StdioServer());
  EXPECT_NE(stdio.find("mkfifo"), std::string::npos) << stdio;
  EXPECT_NE(stdio.find("server --stdio <\"$d/in\""), std::string::npos) << stdio;
  EXPECT_NE(stdio.find(R"("cursor":"'"$c3"'")"), std::string::npos) << stdio;
  // One reply read per request: initialize, the list, the other list (not the notification).
  std::size_t reads = 0;
  for (auto at = stdio.find("read -r r"); at != std::string::npos;
       at = stdio.find("read -r r", at + 1)) {
    ++reads;
  }
  EXPECT_EQ(reads, 3U) << stdio;
}

// Tables §4a L9, §8 S5: only a reply that came after the ping written behind the cancellation
// is judged; one before it may have been finished first.
TEST(SequenceModel, ACancelledRequestIsJudgedOnlyByAReplyAfterTheCancellation) {
  for (Revision revision : {kR4, Revision::k2026_07_28}) {
    SCOPED_TRACE(std::string(ToString(revision)));
    const Request ping = MakeRequest(revision, kStdio, "ping", {}, 5);
    Observation answered;
    answered.messages = {boost::json::parse(R"({"jsonrpc":"2.0","id":5,"result":{}})")};
    Observation dropped;
    dropped.outcome = Outcome::kDropped;
    const Judgement before = JudgeCancelled(ping, answered, /*answered_after_ping=*/false);
    EXPECT_EQ(before.verdict.kind, VerdictKind::kNotApplicable) << Summarize(before.verdict);
    EXPECT_FALSE(before.finding);
    const Judgement after = JudgeCancelled(ping, answered, /*answered_after_ping=*/true);
    // SHOULD NOT in the handshake era (L9); MUST NOT over 2026-07-28 stdio (S5).
    EXPECT_EQ(after.verdict.kind, revision == kR4 ? VerdictKind::kWarn : VerdictKind::kFail)
        << Summarize(after.verdict);
    EXPECT_TRUE(after.finding);
    EXPECT_EQ(after.verdict.check_id, check::kCancelledNoReply);
    const Judgement silent = JudgeCancelled(ping, dropped, false);
    EXPECT_EQ(silent.verdict.kind, VerdictKind::kPass) << Summarize(silent.verdict);
  }
}

TEST(SequenceCodec, APipelinedStepRoundTripsAndNamesItsCancellation) {
  const Request ping = MakeRequest(kR4, kStdio, "ping", {}, 3);
  const Request cancellation = CancellationOf(ping);
  EXPECT_TRUE(Cancels(cancellation, ping));
  EXPECT_FALSE(Cancels(cancellation, MakeRequest(kR4, kStdio, "ping", {}, 4)));
  EXPECT_FALSE(Cancels(ping, ping));
  Sequence sequence;
  sequence.push_back({ping, "", "", std::nullopt, true});
  sequence.push_back({cancellation, std::string(check::kCancelledNoReply), "L9", std::nullopt});
  ExpectCaseFileRoundTrip(sequence);  // `pipelined` included
  boost::json::value bad = SequenceToJson(sequence);
  bad.as_array()[0].as_object()["pipelined"] = 1;
  EXPECT_FALSE(SequenceFromJson(bad).ok());
}

// A coverage mutant's step breaks no rule on purpose: it is judged by its own check (the
// process rules), not by the rule its state would apply to the step before the edit. A ping
// once initialized must get a result (L6a), so the conformant server's refusal of a ping whose
// params are not an object fails that rule; marked mutated, the same step passes, and the step
// after it is still judged by the rule of its state.
TEST(SequenceModel, AMutatedStepIsJudgedByItsOwnCheckAndTheStepsAfterItByTheirState) {
  Sequence sequence;
  auto add = [&sequence](Request request, std::string_view check_id, std::string row) {
    SequenceStep step;
    step.request = std::move(request);
    step.check_id = std::string(check_id);
    step.row = std::move(row);
    sequence.push_back(std::move(step));
  };
  add(MakeInitialize(kR4, kStdio, 1), check::kInitialize, "L1");
  add(MakeNotification(kR4, kStdio, "notifications/initialized"), "", "");
  Request odd = MakeRequest(kR4, kStdio, "ping", {}, 2);
  std::get<boost::json::value>(odd.body).as_object()["params"] = "not an object";
  add(odd, check::kPing, "L6a");
  add(MakeRequest(kR4, kStdio, "ping", {}, 3), check::kPing, "L6a");
  const RefTarget target = StartRefServer(kStdio, {}, SequenceLimits(), 200ms);
  const ScratchDirectory files("mutated-step");
  auto replay = [&](const Sequence& steps, const std::string& name) {
    FindingRecord record;
    static_cast<Case&>(record) = Case{steps.back().request, steps.back().check_id, {}};
    record.steps = steps;
    auto written = WriteCaseFile(files.path(), name, FindingToJson(record));
    EXPECT_TRUE(written.ok()) << written.error().message;
    const ReplayResult replayed = Replay(target.connect, files.path() / name);
    EXPECT_EQ(replayed.cases.size(), 1U);
    EXPECT_TRUE(replayed.cases.at(0).error.empty()) << replayed.cases.at(0).error;
    return replayed.cases.at(0);
  };
  const ReplayedCase planned = replay(sequence, "planned.json");
  EXPECT_TRUE(planned.still_fails) << "the refusal fails L6a";
  ASSERT_TRUE(planned.verdict.has_value());
  EXPECT_EQ(planned.verdict->check_id, check::kPing) << Summarize(*planned.verdict);

  sequence[2].mutated = true;
  sequence[2].check_id = std::string(check::kNoEarlyExit);
  ExpectCaseFileRoundTrip(sequence);  // `mutated` included
  const ReplayedCase mutated = replay(sequence, "mutated.json");
  EXPECT_FALSE(mutated.still_fails)
      << (mutated.verdict ? Summarize(*mutated.verdict) : "no verdict");
  ASSERT_TRUE(mutated.verdict.has_value());
  EXPECT_EQ(mutated.verdict->check_id, check::kPing) << "the last step keeps its state's rule";
  EXPECT_EQ(mutated.verdict->kind, VerdictKind::kPass) << Summarize(*mutated.verdict);

  boost::json::value bad = SequenceToJson(sequence);
  bad.as_array()[2].as_object()["mutated"] = "yes";
  EXPECT_FALSE(SequenceFromJson(bad).ok());
}

}  // namespace
}  // namespace mcpfuzz::test_support
