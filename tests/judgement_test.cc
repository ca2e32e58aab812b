// The judgement of one exchange (oracles/judgement.h): which verdict wins, what is a finding
// under each rule, and what makes two findings the same.

#include "oracles/judgement.h"

#include <gtest/gtest.h>

#include <cctype>

#include "oracle_test_support.h"

namespace mcpfuzz {
namespace {

using namespace test_support;

constexpr Revision kRevision = Revision::k2025_11_25;

Case UnknownMethod(TransportKind transport) {
  return Case{MakeRequest(kRevision, transport, "mcpfuzz/no-such-method", {}, 1),
              std::string(check::kUnknownMethod),
              {}};
}

// The answer the table wants for an unknown method.
Observation MethodNotFound(const Case& sent) {
  return Replied(sent.request, ErrorReply(1, -32601, "Method not found"));
}

// An answer that breaks the unknown-method row: the method was served.
Observation Served(const Case& sent) { return Replied(sent.request, ResultReply(1, {})); }

Observation WithLogLine(Observation observation) {
  observation.stdout_lines.push_back("Server listening on stdio");
  observation.non_json.push_back("Server listening on stdio");
  return observation;
}

const ProcessHistory kNothingSeen{};

TEST(Judgement, WithoutAProcessHistoryTheCaseVerdictStands) {
  const Case sent = UnknownMethod(TransportKind::kStdio);
  Observation died = MethodNotFound(sent);
  died.exit_signal = 11;
  const Judgement judgement = JudgeCase(sent, died, std::nullopt);
  EXPECT_EQ(judgement.judged_by, JudgedBy::kCase);
  EXPECT_EQ(judgement.verdict.check_id, check::kUnknownMethod);
  EXPECT_EQ(judgement.verdict.kind, VerdictKind::kPass) << Show(judgement.verdict);
  EXPECT_FALSE(judgement.finding);
}

TEST(Judgement, AProcessDeathBeatsTheCaseVerdictWhateverItWas) {
  const Case sent = UnknownMethod(TransportKind::kStdio);
  for (Observation answered : {MethodNotFound(sent), Served(sent)}) {
    answered.exit_signal = 11;  // The reply came out, then the process died.
    const Judgement judgement = JudgeCase(sent, answered, kNothingSeen);
    EXPECT_EQ(judgement.judged_by, JudgedBy::kProcess);
    EXPECT_EQ(judgement.verdict.check_id, check::kNoEarlyExit);
    EXPECT_EQ(judgement.verdict.kind, VerdictKind::kFail) << Show(judgement.verdict);
    EXPECT_EQ(judgement.observation.outcome, Outcome::kExited);
    EXPECT_TRUE(judgement.finding);
  }
}

TEST(Judgement, ADeathSeenWhileWatchingAfterTheReplyIsJudgedOnThatEnd) {
  const Case sent = UnknownMethod(TransportKind::kStdio);
  ProcessHistory process;
  Observation end = Broken(Outcome::kExited, "the server ended right after answering");
  end.exit_code = 3;
  process.ended_after_reply = end;
  const Judgement judgement = JudgeCase(sent, MethodNotFound(sent), process);
  EXPECT_EQ(judgement.judged_by, JudgedBy::kProcess);
  EXPECT_EQ(judgement.verdict.kind, VerdictKind::kFail) << Show(judgement.verdict);
  EXPECT_EQ(judgement.observation.exit_code, 3);
  EXPECT_EQ(judgement.observation.detail, end.detail);
}

TEST(Judgement, AnEndMcpfuzzCausedIsNoDeathOfTheServer) {
  const Case sent = UnknownMethod(TransportKind::kStdio);
  Observation ended = MethodNotFound(sent);
  ended.exit_signal = 15;
  ended.killed_by_mcpfuzz = true;
  const Judgement judgement = JudgeCase(sent, ended, kNothingSeen);
  EXPECT_EQ(judgement.judged_by, JudgedBy::kCase);
  EXPECT_EQ(judgement.verdict.kind, VerdictKind::kPass) << Show(judgement.verdict);
}

TEST(Judgement, StdoutIsJudgedOnlyWhenTheCaseWasNotBad) {
  const Case sent = UnknownMethod(TransportKind::kStdio);
  const Judgement logged = JudgeCase(sent, WithLogLine(MethodNotFound(sent)), kNothingSeen);
  EXPECT_EQ(logged.judged_by, JudgedBy::kStdout);
  EXPECT_EQ(logged.verdict.check_id, check::kStdoutOnlyJsonRpc);
  EXPECT_EQ(logged.verdict.kind, VerdictKind::kFail) << Show(logged.verdict);

  const Judgement wrong_and_logged = JudgeCase(sent, WithLogLine(Served(sent)), kNothingSeen);
  EXPECT_EQ(wrong_and_logged.judged_by, JudgedBy::kCase);
  EXPECT_EQ(wrong_and_logged.verdict.check_id, check::kUnknownMethod);
  EXPECT_EQ(wrong_and_logged.verdict.kind, VerdictKind::kFail) << Show(wrong_and_logged.verdict);

  // Over HTTP there is no process and no stdout to judge.
  const Judgement http =
      JudgeCase(UnknownMethod(TransportKind::kHttp),
                WithLogLine(MethodNotFound(UnknownMethod(TransportKind::kHttp))), std::nullopt);
  EXPECT_EQ(http.judged_by, JudgedBy::kCase);
}

TEST(Judgement, TheSentinelTellsADropFromDeafness) {
  const Case sent = UnknownMethod(TransportKind::kStdio);
  const Request sentinel = MakeRequest(kRevision, TransportKind::kStdio, "ping", {}, "s");

  ProcessHistory answered;
  answered.sentinel = SentinelExchange{sentinel, Replied(sentinel, ResultReply("s", {}))};
  const Judgement dropped = JudgeCase(sent, Broken(Outcome::kAliveButDeaf), answered);
  EXPECT_EQ(dropped.judged_by, JudgedBy::kCase);
  EXPECT_TRUE(dropped.dropped);
  EXPECT_TRUE(dropped.timed_out);
  EXPECT_EQ(dropped.observation.outcome, Outcome::kDropped);
  EXPECT_EQ(dropped.verdict.observed.channel, Channel::kNoReply);

  ProcessHistory unanswered;
  unanswered.sentinel = SentinelExchange{sentinel, Broken(Outcome::kAliveButDeaf, "deaf")};
  const Judgement deaf = JudgeCase(sent, Broken(Outcome::kAliveButDeaf), unanswered);
  EXPECT_EQ(deaf.judged_by, JudgedBy::kKeepsAnswering);
  EXPECT_EQ(deaf.verdict.check_id, check::kKeepsAnswering);
  EXPECT_EQ(deaf.verdict.kind, VerdictKind::kFail) << Show(deaf.verdict);
  EXPECT_EQ(deaf.observation.detail, "deaf");
  EXPECT_FALSE(deaf.dropped);
  EXPECT_TRUE(deaf.finding);
}

bool FindingUnder(FindingRule rule, const Case& sent, const Observation& observation) {
  return JudgeCase(sent, observation, std::nullopt, rule).finding;
}

TEST(Judgement, TheTwoFindingRules) {
  const Case http = UnknownMethod(TransportKind::kHttp);
  // Both: a broken MUST, and a server that hung on a request the row wants answered.
  for (const FindingRule rule : {FindingRule::kCampaign, FindingRule::kHarness}) {
    EXPECT_TRUE(FindingUnder(rule, http, Served(http)));
    EXPECT_TRUE(FindingUnder(rule, http, Broken(Outcome::kTimeout)));
    EXPECT_TRUE(FindingUnder(rule, http, Broken(Outcome::kConnectionReset)));
    EXPECT_FALSE(FindingUnder(rule, http, MethodNotFound(http)));
    // A failure on mcpfuzz's side is nobody's finding.
    EXPECT_FALSE(FindingUnder(rule, http, Broken(Outcome::kTransportError)));
  }

  // A WARN: listed by a campaign, no reason to stop libFuzzer.
  const Case stdio{MakeRequest(kRevision, TransportKind::kStdio, "tools/list", {}, 1),
                   std::string(check::kStdoutOnlyJsonRpc),
                   {}};
  Observation blank = Replied(stdio.request, ResultReply(1, {{"tools", json::array{}}}));
  blank.non_json.push_back("");
  ASSERT_EQ(JudgeCase(stdio, blank, std::nullopt).verdict.kind, VerdictKind::kWarn);
  EXPECT_TRUE(FindingUnder(FindingRule::kCampaign, stdio, blank));
  EXPECT_FALSE(FindingUnder(FindingRule::kHarness, stdio, blank));

  // Silence where the row tolerates no reply: without a sentinel the harness cannot call it a
  // hang; the campaign (whose stdio silences the sentinel settled) counts an HTTP timeout.
  const Case notification{MakeNotification(kRevision, TransportKind::kHttp, "notifications/x"),
                          std::string(check::kNotificationNoReply),
                          {}};
  EXPECT_TRUE(FindingUnder(FindingRule::kCampaign, notification, Broken(Outcome::kTimeout)));
  EXPECT_FALSE(FindingUnder(FindingRule::kHarness, notification, Broken(Outcome::kTimeout)));

  // An exchange mcpfuzz itself ended is not the server's failure to the harness.
  Observation killed = Broken(Outcome::kExited);
  killed.killed_by_mcpfuzz = true;
  EXPECT_TRUE(FindingUnder(FindingRule::kCampaign, http, killed));
  EXPECT_FALSE(FindingUnder(FindingRule::kHarness, http, killed));
}

TEST(Judgement, UnlessPassLeavesAPassBareButAFindingComplete) {
  const Case http = UnknownMethod(TransportKind::kHttp);
  const Judgement pass = JudgeCase(http, MethodNotFound(http), std::nullopt, FindingRule::kHarness,
                                   VerdictText::kUnlessPass);
  EXPECT_EQ(pass.verdict.kind, VerdictKind::kPass);
  EXPECT_TRUE(pass.verdict.expected.text.empty());

  const Judgement fail =
      JudgeCase(http, Served(http), std::nullopt, FindingRule::kHarness, VerdictText::kUnlessPass);
  const Judgement full = JudgeCase(http, Served(http), std::nullopt, FindingRule::kHarness);
  EXPECT_TRUE(fail.finding);
  EXPECT_EQ(Summarize(fail.verdict), Summarize(full.verdict));
  EXPECT_FALSE(fail.verdict.expected.text.empty());
}

TEST(Judgement, ASignatureIsStableForTheSameAnswerAndDiffersForAnother) {
  const Case http = UnknownMethod(TransportKind::kHttp);
  const Judgement first = JudgeCase(http, Served(http), std::nullopt);
  const Judgement again = JudgeCase(http, Served(http), std::nullopt);
  ASSERT_TRUE(first.finding);
  EXPECT_FALSE(first.signature.empty());
  EXPECT_EQ(first.signature, again.signature);
  EXPECT_EQ(first.signature_hash, again.signature_hash);
  ASSERT_EQ(first.signature_hash.size(), 10U);
  for (char c : first.signature_hash) EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(c)));

  const Judgement other_code =
      JudgeCase(http, Replied(http.request, ErrorReply(1, -32603)), std::nullopt);
  const Judgement other_status =
      JudgeCase(http, Replied(http.request, ResultReply(1, {}), 201), std::nullopt);
  const Judgement timed_out = JudgeCase(http, Broken(Outcome::kTimeout), std::nullopt);
  for (const Judgement* other : {&other_code, &other_status, &timed_out}) {
    ASSERT_TRUE(other->finding) << Show(other->verdict);
    EXPECT_NE(other->signature, first.signature);
    EXPECT_NE(other->signature_hash, first.signature_hash);
  }
  EXPECT_NE(other_code.signature, other_status.signature);

  // No finding, no signature.
  EXPECT_TRUE(JudgeCase(http, MethodNotFound(http), std::nullopt).signature.empty());
}

TEST(Judgement, AProcessDeathIsTheSameDeathWhateverTheReply) {
  const Case sent = UnknownMethod(TransportKind::kStdio);
  Observation after_error = MethodNotFound(sent);
  after_error.exit_signal = 11;
  Observation after_result = Served(sent);
  after_result.exit_signal = 11;
  EXPECT_EQ(JudgeCase(sent, after_error, kNothingSeen).signature,
            JudgeCase(sent, after_result, kNothingSeen).signature);
}

TEST(NothingSent, NotApplicableCarriesTheRowAndTheReason) {
  const Verdict verdict = NotApplicableVerdict(check::kUnknownMethod, kRevision,
                                               TransportKind::kHttp, "no tools to call");
  EXPECT_EQ(verdict.kind, VerdictKind::kNotApplicable);
  EXPECT_EQ(verdict.check_id, check::kUnknownMethod);
  EXPECT_FALSE(verdict.expected.text.empty());
  EXPECT_FALSE(verdict.spec_reference.empty());
  ASSERT_EQ(verdict.notes.size(), 1U);
  EXPECT_EQ(verdict.notes.front(), "no tools to call");
  // Over stdio the row's HTTP statuses are not expected.
  EXPECT_TRUE(NotApplicableVerdict(check::kUnknownMethod, kRevision, TransportKind::kStdio, "x")
                  .expected.http_statuses.empty());
}

TEST(NothingSent, UnreachableSaysWhyNothingWasSent) {
  const Verdict reached = UnreachableVerdict(check::kUnknownMethod, kRevision,
                                             TransportKind::kStdio, true, "spawn failed");
  EXPECT_EQ(reached.kind, VerdictKind::kUnverified);
  EXPECT_EQ(reached.unverified_reason, UnverifiedReason::kTransportError);
  ASSERT_EQ(reached.notes.size(), 1U);
  EXPECT_EQ(reached.notes.front(), "nothing was sent: spawn failed");
  EXPECT_EQ(UnreachableVerdict(check::kUnknownMethod, kRevision, TransportKind::kStdio, false, "x")
                .unverified_reason,
            UnverifiedReason::kEraNotSpoken);
  // A check the revision does not have: no row to describe.
  const Verdict unknown =
      UnreachableVerdict("no.such-check", kRevision, TransportKind::kHttp, true, "x");
  EXPECT_TRUE(unknown.expected.text.empty());
  EXPECT_TRUE(unknown.spec_reference.empty());
}

TEST(DescribeObserved, ChannelCodeAndStatus) {
  EXPECT_EQ(DescribeObserved(Channel::kProtocolError, -32602, 400),
            "protocol_error -32602 (HTTP 400)");
  EXPECT_EQ(DescribeObserved(Channel::kSuccess, std::nullopt, 0), "success");
  ObservedAnswer observed;
  observed.channel = Channel::kNoReply;
  observed.http_status = 202;
  EXPECT_EQ(DescribeObserved(observed), "no_reply (HTTP 202)");
}

}  // namespace
}  // namespace mcpfuzz
