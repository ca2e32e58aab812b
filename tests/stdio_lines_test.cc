// What a stdio server writes on stdout when its lines are not one JSON-RPC message per line
// (tables §8 S1): judged even when no revision is spoken (issue #12), and replies
// pretty-printed across several lines still read as replies (issue #13).

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <string>

#include "checks/checks.h"
#include "model/channel.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "oracles/oracle.h"
#include "support/files.h"
#include "support/processes.h"
#include "support/reference_server.h"
#include "transport/client.h"
#include "transport/era_probe.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::Mcpfuzz;
using test_support::ProcessRun;
using test_support::ReadJson;
using test_support::ScratchDirectory;

// --- the oracle: S1 binds every revision ------------------------------------------------------

Request StdioDiscover() {
  return MakeRequest(Revision::k2026_07_28, TransportKind::kStdio, "server/discover", {}, 1);
}

Observation StdoutOf(std::vector<std::string> non_json) {
  Observation observation;
  observation.stdout_lines = non_json;
  observation.non_json = std::move(non_json);
  return observation;
}

TEST(StdoutWithoutRevision, ALineThatIsNotJsonFailsEvenWhenNoRevisionIsSpoken) {
  JudgeContext unspoken;
  unspoken.era_spoken = false;
  const Verdict verdict =
      Judge(check::kStdoutOnlyJsonRpc, StdioDiscover(), StdoutOf({"y", "y"}), unspoken);
  EXPECT_EQ(verdict.kind, VerdictKind::kFail);
  EXPECT_EQ(verdict.unverified_reason, UnverifiedReason::kNone);
}

TEST(StdoutWithoutRevision, CleanOrBlankStdoutStaysUnverifiedWithoutARevision) {
  JudgeContext unspoken;
  unspoken.era_spoken = false;
  // Nothing at all, and a blank line (a SHOULD): neither says the target is a server that
  // breaks S1, so without a revision neither is judged.
  for (const Observation& observation : {StdoutOf({}), StdoutOf({""})}) {
    const Verdict verdict =
        Judge(check::kStdoutOnlyJsonRpc, StdioDiscover(), observation, unspoken);
    EXPECT_EQ(verdict.kind, VerdictKind::kUnverified);
    EXPECT_EQ(verdict.unverified_reason, UnverifiedReason::kEraNotSpoken);
  }
  // Any other check stays UNVERIFIED however stdout looked.
  const Verdict other = Judge(check::kUnknownMethod, StdioDiscover(), StdoutOf({"y"}), unspoken);
  EXPECT_EQ(other.unverified_reason, UnverifiedReason::kEraNotSpoken);
}

TEST(StdoutWithoutRevision, AFloodIsQuotedAFewTimesAndCountedNotListedLineByLine) {
  const Verdict verdict = Judge(check::kStdoutOnlyJsonRpc, StdioDiscover(),
                                StdoutOf(std::vector<std::string>(1000, "y")));
  EXPECT_EQ(verdict.kind, VerdictKind::kFail);
  EXPECT_LE(verdict.findings.size(), 4U);
  bool counted = false;
  for (const Finding& finding : verdict.findings) {
    counted = counted || finding.text.find("1000 lines") != std::string::npos;
  }
  EXPECT_TRUE(counted);
}

// --- the CLI: a flood of "y" is a FAIL and exit 1; silence is exit 2 ----------------------------

TEST(StdoutWithoutRevision, CheckAgainstYesFailsStdoutOnlyJsonRpcWithExitOne) {
  ScratchDirectory scratch("stdio-lines-yes");
  std::filesystem::create_directories(scratch.path());
  const std::filesystem::path report = scratch.path() / "report.json";
  const ProcessRun run =
      Mcpfuzz("check --report json=" + ShellQuote(report.string()) + " -- yes </dev/null");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL  stdio.stdout-only-jsonrpc"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("a line that is not JSON: y"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("speaks no revision"), std::string::npos) << run.output;

  const json::value parsed = ReadJson(report);
  const json::array& checks = parsed.at("checks").as_array();
  ASSERT_EQ(checks.size(), 1U) << json::serialize(parsed.at("checks")).substr(0, 2000);
  EXPECT_EQ(checks[0].at("id"), "stdio.stdout-only-jsonrpc");
  EXPECT_EQ(checks[0].at("verdict"), "FAIL");
  EXPECT_EQ(parsed.at("summary").at("fail").as_int64(), 1);
}

TEST(StdoutWithoutRevision, AForcedRevisionFailsStdoutAndLeavesTheRestUnverified) {
  const ProcessRun run = Mcpfuzz("check --revision 2025-06-18 -- yes </dev/null");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL  stdio.stdout-only-jsonrpc"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("tools.unknown-name  2025-06-18/stdio  (the revision is not spoken)"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("\n0 pass"), std::string::npos) << run.output;
}

TEST(StdoutWithoutRevision, AServerThatWritesNothingStillExitsTwoWithItsReason) {
  // Reads everything and says nothing: no stdout at all, so nothing to judge. It never started
  // as far as anyone can tell: the start-up limit ends the wait, and the reason names the
  // option that raises it.
  const ProcessRun silent = Mcpfuzz(
      "check --timeout-ms 1000 --startup-timeout-ms 1500 -- sh -c 'cat >/dev/null' </dev/null");
  EXPECT_EQ(silent.exit_code, 2) << silent.output;
  EXPECT_EQ(silent.output.find("FAIL"), std::string::npos) << silent.output;
  EXPECT_NE(silent.output.find("could not be reached"), std::string::npos) << silent.output;
  EXPECT_NE(silent.output.find("no reply within 1500 ms (the start-up limit)"), std::string::npos)
      << silent.output;
  EXPECT_NE(silent.output.find("asked 2 times; --startup-timeout-ms raises it"), std::string::npos)
      << silent.output;

  // Only a blank line (a SHOULD, never a MUST): still nothing judged.
  const ProcessRun blank =
      Mcpfuzz("check --timeout-ms 1000 -- sh -c 'echo; cat >/dev/null' </dev/null");
  EXPECT_EQ(blank.exit_code, 2) << blank.output;
  EXPECT_EQ(blank.output.find("FAIL"), std::string::npos) << blank.output;
  EXPECT_EQ(blank.output.find("WARN "), std::string::npos) << blank.output;
}

// --- the JSON report: each era attempt carries its server's stderr tail (issue #12) ------------

TEST(EraAttemptsInJson, EachAttemptCarriesTheLastFiveStderrLinesEscaped) {
  ScratchDirectory scratch("stdio-lines-stderr");
  std::filesystem::create_directories(scratch.path());
  const std::filesystem::path report = scratch.path() / "report.json";
  // Seven lines (one with a control byte, one blank) and an exit: the last five non-blank
  // lines are kept, the control byte written visibly.
  const ProcessRun run = Mcpfuzz(
      "check --report json=" + ShellQuote(report.string()) +
      " -- sh -c 'for i in 1 2 3; do echo line$i >&2; done; echo >&2; printf "
      "\"bad\\001byte\\n\" >&2; echo no config >&2; echo giving up >&2; exit 3' </dev/null");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  const json::value parsed = ReadJson(report);
  const json::array& attempts = parsed.at("eras").at("attempts").as_array();
  ASSERT_FALSE(attempts.empty());
  for (const json::value& attempt : attempts) {
    const json::array expected{"line2", "line3", "bad\\x01byte", "no config", "giving up"};
    EXPECT_EQ(attempt.at("stderr_tail"), json::value(expected)) << json::serialize(attempt);
  }
}

TEST(EraAttemptsInJson, AQuietServerHasAnEmptyStderrTail) {
  ScratchDirectory scratch("stdio-lines-quiet");
  std::filesystem::create_directories(scratch.path());
  const std::filesystem::path report = scratch.path() / "report.json";
  const ProcessRun run =
      Mcpfuzz("check --report json=" + ShellQuote(report.string()) + " -- false </dev/null");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  const json::value parsed = ReadJson(report);
  for (const json::value& attempt : parsed.at("eras").at("attempts").as_array()) {
    ASSERT_TRUE(attempt.as_object().contains("stderr_tail")) << json::serialize(attempt);
    EXPECT_TRUE(attempt.at("stderr_tail").as_array().empty()) << json::serialize(attempt);
  }
}

// --- the transport: a reply pretty-printed across lines is still the reply (issue #13) ----------

std::unique_ptr<StdioTransport> SpawnShell(const std::string& script) {
  StdioTarget target;
  target.argv = {"sh", "-c", script};
  target.limits.timeout = std::chrono::milliseconds(5000);
  target.shutdown_grace = std::chrono::milliseconds(200);
  auto spawned = SpawnStdio(std::move(target));
  EXPECT_TRUE(spawned.ok()) << spawned.error().message;
  return spawned.ok() ? std::move(*spawned) : nullptr;
}

TEST(PrettyPrintedReplies, TheLinesOfOneJsonTextAreOneReplyMarkedMultiLine) {
  auto transport = SpawnShell(
      "read line; printf '{\\n  \"jsonrpc\": \"2.0\",\\n  \"id\": 1,\\n  "
      "\"result\": {}\\n}\\n'; cat >/dev/null");
  ASSERT_NE(transport, nullptr);
  const Request request = StdioDiscover();
  const Observation observation = transport->Send(request);
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.stdout_lines.size(), 5U);
  EXPECT_TRUE(observation.non_json.empty());
  ASSERT_EQ(observation.multi_line_messages.size(), 1U);
  EXPECT_EQ(observation.multi_line_messages[0].substr(0, 4), "{\n  ");
  EXPECT_EQ(ClassifyReply(request, observation).channel, Channel::kSuccess);
  // The answer is judged as an answer, and its framing fails S1.
  EXPECT_EQ(Judge(check::kStdoutOnlyJsonRpc, request, observation).kind, VerdictKind::kFail);
}

TEST(PrettyPrintedReplies, LinesThatStopBeingJsonAreNotJsonAndTheNextLineStandsAlone) {
  // "{ starting" is no JSON prefix at all; "{" then "  oops" starts one and breaks it; the
  // one-line reply after them is read as always.
  auto transport = SpawnShell(
      "read line; printf '{ starting\\n{\\n  oops\\n"
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\\n'; cat >/dev/null");
  ASSERT_NE(transport, nullptr);
  const Observation observation = transport->Send(StdioDiscover());
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_EQ(observation.non_json, (std::vector<std::string>{"{ starting", "{", "  oops"}));
  EXPECT_EQ(observation.messages.size(), 1U);
  EXPECT_TRUE(observation.multi_line_messages.empty());
  EXPECT_EQ(observation.stdout_lines.size(), 4U);
}

TEST(PrettyPrintedReplies, AnUnfinishedTextEndsAsLinesThatAreNotJson) {
  // The server exits in the middle of its pretty-printed reply.
  auto transport = SpawnShell("read line; printf '{\\n  \"jsonrpc\": \"2.0\",\\n'");
  ASSERT_NE(transport, nullptr);
  const Observation observation = transport->Send(StdioDiscover());
  EXPECT_EQ(observation.outcome, Outcome::kExited) << observation.detail;
  EXPECT_TRUE(observation.messages.empty());
  EXPECT_EQ(observation.non_json, (std::vector<std::string>{"{", "  \"jsonrpc\": \"2.0\","}));
}

std::unique_ptr<Transport> PrettyRefServer() {
  StdioTarget target;
  target.argv = test_support::RefServerArgv(TransportKind::kStdio, {"pretty-printed-stdio"});
  target.limits = test_support::ReferenceServerLimits(std::chrono::milliseconds(5000),
                                                      std::chrono::milliseconds(50));
  target.shutdown_grace = std::chrono::milliseconds(200);
  auto spawned = SpawnStdio(std::move(target));
  EXPECT_TRUE(spawned.ok()) << spawned.error().message;
  return spawned.ok() ? std::unique_ptr<Transport>(std::move(*spawned)) : nullptr;
}

TEST(PrettyPrintedReplies, APipelineAttributesEachPrettyReplyToItsRequest) {
  auto transport = PrettyRefServer();
  ASSERT_NE(transport, nullptr);
  McpClient client(*transport, Revision::k2026_07_28);
  Pipeline pipeline;
  pipeline.requests = {client.Make("server/discover"), client.Make("tools/list")};
  pipeline.sentinel = client.Make("server/discover");
  const PipelineResult result = transport->SendPipelined(pipeline);
  EXPECT_FALSE(result.ambiguous);
  ASSERT_EQ(result.observations.size(), 2U);
  for (std::size_t i = 0; i < 2; ++i) {
    const Observation& observation = result.observations[i];
    EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
    EXPECT_EQ(ClassifyReply(pipeline.requests[i], observation).channel, Channel::kSuccess);
    EXPECT_EQ(observation.multi_line_messages.size(), 1U);
    EXPECT_TRUE(observation.non_json.empty());
  }
  EXPECT_EQ(result.sentinel.outcome, Outcome::kOk) << result.sentinel.detail;
}

TEST(PrettyPrintedReplies, DetectionStillSeesEveryRevisionTheServerSpeaks) {
  const EraReport eras =
      DetectEras([] { return Result<std::unique_ptr<Transport>>(PrettyRefServer()); });
  EXPECT_TRUE(eras.Speaks(Revision::k2026_07_28));
  EXPECT_TRUE(eras.Speaks(Revision::k2025_11_25));
  EXPECT_TRUE(eras.Speaks(Revision::k2024_11_05));
}

// --- check: the fault fails S1 only, the conformant server passes it ---------------------------

TEST(PrettyPrintedReplies, CheckFailsStdoutFramingAndJudgesTheAnswersOtherwise) {
  const ProcessRun faulty = Mcpfuzz(
      "check --builtin-stdio --fault pretty-printed-stdio --only "
      "stdio,tools.unknown-name,methods.unknown,lifecycle.initialize </dev/null");
  EXPECT_EQ(faulty.exit_code, 1) << faulty.output;
  EXPECT_NE(faulty.output.find("FAIL  stdio.stdout-only-jsonrpc"), std::string::npos)
      << faulty.output;
  EXPECT_NE(faulty.output.find("a message spread over several lines"), std::string::npos)
      << faulty.output;
  // The other checks judged the server's answers: nothing else failed or went unverified.
  EXPECT_EQ(faulty.output.find("FAIL  tools."), std::string::npos) << faulty.output;
  EXPECT_EQ(faulty.output.find("FAIL  methods."), std::string::npos) << faulty.output;
  EXPECT_EQ(faulty.output.find("FAIL  lifecycle."), std::string::npos) << faulty.output;
  EXPECT_NE(faulty.output.find(" 0 unverified"), std::string::npos) << faulty.output;

  const ProcessRun conformant = Mcpfuzz(
      "check --builtin-stdio --only stdio,tools.unknown-name,methods.unknown,lifecycle.initialize "
      "</dev/null");
  EXPECT_EQ(conformant.exit_code, 0) << conformant.output;
  EXPECT_EQ(conformant.output.find("FAIL"), std::string::npos) << conformant.output;
}

}  // namespace
}  // namespace mcpfuzz
