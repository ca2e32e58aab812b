// The fuzz loop against the reference server through the real transports: the conformant
// server yields no finding, each fault switch is found, shrunk and written as a case file that
// replay reproduces (and that the conformant server passes), and a seed fixes the sequence.

#include "campaign/campaign.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/json/value.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "campaign/finding_file.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "support/processes.h"
#include "support/reference_server.h"
#include "support/stdio_command.h"
#include "transport/server_process.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

using namespace std::chrono_literals;
using test_support::ScratchDirectory;

constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;

Limits TestLimits(std::chrono::milliseconds timeout = 3000ms) {
  return test_support::ReferenceServerLimits(timeout, 20ms);
}

// A reference server behind a TransportFactory: one HTTP server process for the target's
// lifetime, or a fresh stdio process per connection.
test_support::RefTarget StartRefServer(TransportKind kind,
                                       const std::vector<std::string>& faults = {},
                                       Limits limits = TestLimits()) {
  return test_support::StartRefServer(kind, faults, limits, 200ms);
}

std::string DescribeFindings(const CampaignResult& result) {
  std::string text;
  for (const CampaignFinding& finding : result.findings) {
    text += "  case " + std::to_string(finding.case_index) + ": " + Summarize(finding.verdict) +
            "\n    " + finding.minimal.WireBody().substr(0, 200) + "\n";
  }
  for (const std::string& note : result.notes) text += "  note: " + note + "\n";
  return text;
}

// --- the conformant server ----------------------------------------------------------------------

class ConformantServer : public ::testing::TestWithParam<TransportKind> {};

TEST_P(ConformantServer, YieldsNoFinding) {
  const test_support::RefTarget target = StartRefServer(GetParam());
  CampaignOptions options;
  options.max_cases = GetParam() == kHttp ? 600 : 400;
  const ScratchDirectory corpus("conformant");
  options.corpus_dir = corpus.path();
  std::size_t progress_calls = 0;
  CampaignProgress last;
  const CampaignResult result = RunCampaign(target.connect, options, [&](const auto& progress) {
    ++progress_calls;
    last = progress;
  });

  EXPECT_TRUE(result.findings.empty()) << DescribeFindings(result);
  EXPECT_TRUE(result.notes.empty()) << DescribeFindings(result);
  // Every case drawn is sent, or held back under a budget (a big input, a stdio sequence).
  EXPECT_EQ(result.cases + result.big_inputs_held_back + result.sequences_held_back,
            options.max_cases);
  EXPECT_EQ(result.generation_failures, 0U);
  EXPECT_EQ(result.revisions, (std::vector<Revision>{Revision::k2026_07_28, Revision::k2025_11_25,
                                                     Revision::k2025_03_26}));
  EXPECT_FALSE(std::filesystem::exists(options.corpus_dir)) << "nothing to write";
  // Every case sent is counted once by family and once by revision (the fuzz report's tables).
  auto sum = [](const std::map<std::string, std::size_t>& by) {
    std::size_t total = 0;
    for (const auto& [name, count] : by) total += count;
    return total;
  };
  EXPECT_EQ(sum(result.cases_per_family), result.cases);
  EXPECT_EQ(sum(result.cases_per_revision), result.cases);
  EXPECT_EQ(result.cases_per_revision.size(), result.revisions.size());
  EXPECT_GT(result.cases_per_family.count("malformed-json"), 0U);
  EXPECT_GE(progress_calls, 1U);
  EXPECT_EQ(last.cases, result.cases);
  EXPECT_EQ(last.planned_cases, options.max_cases);
  EXPECT_GT(last.cases_per_second, 0);
}

INSTANTIATE_TEST_SUITE_P(BothTransports, ConformantServer, ::testing::Values(kHttp, kStdio),
                         [](const auto& test) { return std::string(ToString(test.param)); });

// --- each fault ---------------------------------------------------------------------------------

struct FaultCase {
  std::string fault;
  TransportKind transport;
  /// The check the finding must name (a prefix ending in '.' matches a group of checks).
  std::string check;
  /// Findings to collect before looking: more than one where another check meets the same
  /// deviation first.
  std::size_t findings = 1;
};

// Names the parameter in test output instead of dumping its bytes.
void PrintTo(const FaultCase& param, std::ostream* out) {
  *out << param.fault << " over " << ToString(param.transport) << " → " << param.check;
}

class FaultyServer : public ::testing::TestWithParam<FaultCase> {};

bool Names(const std::string& check_id, const std::string& wanted) {
  return wanted.ends_with(".") ? check_id.starts_with(wanted) : check_id == wanted;
}

TEST_P(FaultyServer, IsFoundShrunkWrittenAndReplayed) {
  const FaultCase& param = GetParam();
  const test_support::RefTarget target = StartRefServer(param.transport, {param.fault});
  CampaignOptions options;  // the default seed
  options.max_cases = 2000;
  // The fault is the server's only deviation: its finding comes first (or among the first).
  options.max_findings = param.findings;
  const ScratchDirectory corpus(param.fault);
  options.corpus_dir = corpus.path();
  const CampaignResult result = RunCampaign(target.connect, options);

  const CampaignFinding* found = nullptr;
  for (const CampaignFinding& finding : result.findings) {
    if (Names(finding.check_id, param.check)) {
      found = &finding;
      break;
    }
  }
  ASSERT_NE(found, nullptr) << "no " << param.check << " finding in " << result.cases << " cases:\n"
                            << DescribeFindings(result);
  EXPECT_TRUE(found->verdict.kind == VerdictKind::kFail ||
              found->verdict.kind == VerdictKind::kWarn);
  EXPECT_TRUE(found->stable) << found->reproduced << " of " << found->resends;
  if (found->original) {
    EXPECT_LE(found->minimal.WireSize(), found->original->WireSize());
    EXPECT_NE(found->minimal, *found->original) << "kept only when shrinking changed it";
  }
  EXPECT_EQ(Summarize(found->verdict).substr(0, 4), std::string(ToString(found->verdict.kind)));

  // The case file: named by check id and signature, readable, holding the minimal request.
  ASSERT_FALSE(found->file.empty()) << found->file_error;
  EXPECT_EQ(found->file.filename().string(),
            FindingFileName(found->check_id, found->signature_hash));
  EXPECT_TRUE(found->file.filename().string().starts_with("fuzz-" + found->check_id + "-"));
  auto stored = ReadCaseFile(found->file);
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_EQ(stored->check_id, found->check_id);
  EXPECT_EQ(stored->request, found->minimal);
  EXPECT_EQ(stored->signature, found->signature);

  // Replay reproduces it against the faulty server and not against the conformant one.
  const ReplayResult replayed = Replay(target.connect, found->file);
  ASSERT_EQ(replayed.cases.size(), 1U);
  EXPECT_TRUE(replayed.cases[0].error.empty()) << replayed.cases[0].error;
  EXPECT_TRUE(replayed.cases[0].still_fails);
  EXPECT_TRUE(replayed.cases[0].same_signature)
      << (replayed.cases[0].verdict ? Summarize(*replayed.cases[0].verdict) : "no verdict");
  EXPECT_EQ(replayed.still_failing, 1U);

  const test_support::RefTarget conformant = StartRefServer(param.transport);
  const ReplayResult fixed = Replay(conformant.connect, options.corpus_dir);
  EXPECT_EQ(fixed.cases.size(), result.findings.size());
  EXPECT_EQ(fixed.still_failing, 0U);
  for (const ReplayedCase& replayed_case : fixed.cases) {
    EXPECT_TRUE(replayed_case.error.empty()) << replayed_case.error;
  }
}

INSTANTIATE_TEST_SUITE_P(
    EachFault, FaultyServer,
    ::testing::Values(FaultCase{"unknown-tool-is-error", kHttp, std::string(check::kUnknownTool)},
                      FaultCase{"unknown-tool-is-error", kStdio, std::string(check::kUnknownTool)},
                      // A removed method (methods.removed) is an unknown method of 2026-07-28 too.
                      FaultCase{"unknown-method-200", kHttp, "methods."},
                      FaultCase{"parse-error-wrong-id", kHttp, std::string(check::kParseError)},
                      FaultCase{"parse-error-wrong-id", kStdio, std::string(check::kParseError)},
                      FaultCase{"header-mismatch-served", kHttp, "headers."},
                      FaultCase{"missing-meta-served", kHttp, "meta."},
                      FaultCase{"crash-on-deep-nesting", kStdio, std::string(check::kNoEarlyExit)},
                      FaultCase{"crash-on-long-id", kStdio, std::string(check::kNoEarlyExit)},
                      // A batch holding a notification gets the answer too, and comes first.
                      FaultCase{"notification-answered", kHttp,
                                std::string(check::kNotificationNoReply), 2}),
    [](const auto& test) {
      std::string name = test.param.fault + "_" + std::string(ToString(test.param.transport));
      for (char& c : name) {
        if (c == '-') c = '_';
      }
      return name;
    });

TEST(Campaign, ShrinksADeepNestingCrashToTheShallowestDepthThatCrashes) {
  const test_support::RefTarget target = StartRefServer(kStdio, {"crash-on-deep-nesting"});
  CampaignOptions options;
  options.families = {"malformed-json"};
  options.max_cases = 2000;
  options.max_findings = 1;
  options.resends = 1;
  const CampaignResult result = RunCampaign(target.connect, options);
  ASSERT_EQ(result.findings.size(), 1U) << DescribeFindings(result);
  const CampaignFinding& finding = result.findings[0];
  EXPECT_EQ(finding.check_id, check::kNoEarlyExit);
  EXPECT_GT(finding.shrink_steps, 0U);
  // The server aborts on nesting deeper than 64 levels: the minimal case nests exactly 65.
  std::size_t depth = 0;
  std::size_t deepest = 0;
  for (char c : finding.minimal.WireBody()) {
    if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  EXPECT_EQ(deepest, 65U) << finding.minimal.WireBody();
}

TEST(Campaign, ShrinksALongIdCrashToTheShortestIdThatCrashes) {
  // The default seed and families, as `mcpfuzz fuzz` runs: the limits family's long ids find
  // the crash, and shrinking the id's length ends one byte past the server's 4,096.
  const test_support::RefTarget target = StartRefServer(kStdio, {"crash-on-long-id"});
  CampaignOptions options;
  options.max_cases = 2000;
  options.max_findings = 1;
  const CampaignResult result = RunCampaign(target.connect, options);
  ASSERT_EQ(result.findings.size(), 1U) << DescribeFindings(result);
  const CampaignFinding& finding = result.findings[0];
  EXPECT_EQ(finding.check_id, check::kNoEarlyExit);
  EXPECT_EQ(finding.family, "limits");
  EXPECT_GT(finding.shrink_steps, 0U);
  ASSERT_TRUE(finding.original) << "shrinking changed it";
  const std::optional<boost::json::value> original = finding.original->RpcId();
  const std::optional<boost::json::value> minimal = finding.minimal.RpcId();
  ASSERT_TRUE(original && original->is_string()) << finding.original->WireBody().substr(0, 200);
  ASSERT_TRUE(minimal && minimal->is_string()) << finding.minimal.WireBody().substr(0, 200);
  EXPECT_GT(original->as_string().size(), 4097U);
  EXPECT_EQ(minimal->as_string().size(), 4097U);
}

TEST(Campaign, ARequestLeftUnansweredIsAFindingLearntFromTheSentinel) {
  // The server never answers a call to an unknown tool but keeps answering everything else:
  // the silence is its answer to that call (the sentinel written behind it is answered). That
  // is known in one round trip, so such cases are not skipped as cases that cost a timeout are.
  const test_support::RefTarget target =
      StartRefServer(kStdio, {"hang-on-unknown-tool"}, TestLimits(300ms));
  CampaignOptions options;
  options.families = {"unknown-names"};
  options.max_cases = 100;
  options.resends = 1;
  options.max_shrink_sends = 3;
  const CampaignResult result = RunCampaign(target.connect, options);
  ASSERT_FALSE(result.findings.empty()) << DescribeFindings(result);
  const CampaignFinding& finding = result.findings[0];
  EXPECT_EQ(finding.check_id, check::kUnknownTool) << DescribeFindings(result);
  EXPECT_EQ(finding.verdict.kind, VerdictKind::kFail);
  EXPECT_EQ(finding.verdict.observed.channel, Channel::kNoReply);
  EXPECT_TRUE(finding.stable) << DescribeFindings(result);
  EXPECT_EQ(result.skipped, 0U) << DescribeFindings(result);
  EXPECT_EQ(result.cases, options.max_cases);
}

TEST(Campaign, AServerThatStopsAnsweringIsAFinding) {
  // Deaf from its first tools/call on: the ping after it goes unanswered too. The timeout
  // also bounds the python start-up before `initialize` is answered, which takes more than
  // 300 ms on a loaded machine.
  const Limits limits = TestLimits(1000ms);
  const TransportFactory connect = test_support::StdioCommand(
      test_support::FixtureArgv("deaf_after_tool_call.py"), limits, 200ms);
  CampaignOptions options;
  options.revision = Revision::k2025_11_25;
  options.families = {"unknown-names"};
  options.max_cases = 20;
  options.max_findings = 1;
  options.resends = 1;
  options.max_shrink_sends = 2;
  const CampaignResult result = RunCampaign(connect, options);
  ASSERT_EQ(result.findings.size(), 1U) << DescribeFindings(result);
  const CampaignFinding& finding = result.findings[0];
  EXPECT_EQ(finding.check_id, check::kKeepsAnswering);
  EXPECT_TRUE(finding.case_check_id.starts_with("tools.")) << finding.case_check_id;
  EXPECT_EQ(finding.verdict.kind, VerdictKind::kFail);
  EXPECT_TRUE(finding.stable) << "the server is restarted before the re-send";
  // Deafness shows in the request after the one that caused it: the reproducer sends one.
  EXPECT_NE(finding.reproducer.find("mcpfuzz-sentinel-"), std::string::npos) << finding.reproducer;
}

TEST(Campaign, SaysWhichFamiliesItLeftOutBecauseTheyCallRealTools) {
  const test_support::RefTarget target = StartRefServer(kHttp);
  CampaignOptions options;
  options.max_cases = 5;
  EXPECT_EQ(RunCampaign(target.connect, options).real_tool_families_left_out,
            std::set<std::string>{"tool-arguments"});
  options.call_real_tools = true;
  EXPECT_TRUE(RunCampaign(target.connect, options).real_tool_families_left_out.empty());
  options.call_real_tools = false;
  options.families = {"unknown-names"};  // named: nothing was left out by default
  EXPECT_TRUE(RunCampaign(target.connect, options).real_tool_families_left_out.empty());
}

// Forwards to a real transport; the first tools/call through it ends the run's time, as if
// the clock had run out while that case was in flight.
class EndsTimeOnFirstCall final : public TransportDecorator {
 public:
  EndsTimeOnFirstCall(std::unique_ptr<Transport> inner, std::shared_ptr<std::atomic<bool>> late)
      : TransportDecorator(std::move(inner)), late_(std::move(late)) {}
  Observation Send(const Request& request) override {
    if (request.RpcMethod() == "tools/call") late_->store(true);
    return inner().Send(request);
  }

 private:
  std::shared_ptr<std::atomic<bool>> late_;
};

TEST(Campaign, AFindingMadeAsTheTimeRunsOutIsNeitherResentNorShrunk) {
  const test_support::RefTarget target = StartRefServer(kHttp, {"unknown-tool-is-error"});
  auto late = std::make_shared<std::atomic<bool>>(false);
  const TransportFactory connect = [&target, late]() -> Result<std::unique_ptr<Transport>> {
    auto inner = target.connect();
    if (!inner) return inner.error();
    return std::unique_ptr<Transport>(
        std::make_unique<EndsTimeOnFirstCall>(std::move(*inner), late));
  };
  CampaignOptions options;
  options.families = {"unknown-names"};
  options.ask_random_names = false;  // its tools/call would end the time before any case
  options.max_cases = 50;
  options.duration = std::chrono::hours(1);
  options.clock = [late] {
    return std::chrono::steady_clock::now() + (late->load() ? std::chrono::hours(2) : 0h);
  };

  const CampaignResult result = RunCampaign(connect, options);
  ASSERT_EQ(result.findings.size(), 1U) << DescribeFindings(result);
  const CampaignFinding& finding = result.findings[0];
  EXPECT_EQ(finding.check_id, check::kUnknownTool);
  EXPECT_EQ(finding.resends, 0);
  EXPECT_EQ(finding.shrink_sends, 0U);
  EXPECT_FALSE(finding.original) << "nothing shrank: the minimal case is the original";
  EXPECT_EQ(result.cases, finding.case_index + 1) << "no case after the one in flight";
  ASSERT_EQ(result.notes.size(), 1U) << DescribeFindings(result);
  EXPECT_NE(result.notes[0].find("as the run's time ran out: re-sent 0 of 3 times, 0 shrink"),
            std::string::npos)
      << result.notes[0];

  // The same run with time to spare re-sends and shrinks the same finding.
  options.clock = nullptr;
  const CampaignResult unhurried = RunCampaign(connect, options);
  ASSERT_FALSE(unhurried.findings.empty());
  EXPECT_EQ(unhurried.findings[0].signature, finding.signature);
  EXPECT_EQ(unhurried.findings[0].resends, 3);
  EXPECT_GT(unhurried.findings[0].shrink_sends, 0U);
  EXPECT_TRUE(unhurried.notes.empty()) << DescribeFindings(unhurried);
}

// A server whose DELETE ends every session ends the run's own sessions whenever a sequence
// closes one of its own. The session is opened anew (a 404 to a case and to a ping after it)
// and the case sent again, so no case is judged on an end it did not cause: the only findings
// left are the sequences' own, which ask for the end on purpose.
TEST(Campaign, ASessionTheServerEndedIsOpenedAnewAndItsCaseSentAgain) {
  const test_support::RefTarget target = StartRefServer(kHttp, {"delete-ends-all-sessions"});
  CampaignOptions options;
  options.seed = 1;
  options.max_cases = 1000;
  const CampaignResult result = RunCampaign(target.connect, options);
  for (const CampaignFinding& finding : result.findings) {
    EXPECT_EQ(finding.family, "sequences") << DescribeFindings(result);
  }
  EXPECT_TRUE(std::any_of(result.notes.begin(), result.notes.end(), [](const std::string& note) {
    return note.find("ended mcpfuzz's session") != std::string::npos;
  })) << DescribeFindings(result);
}

// --- determinism and replay
// -----------------------------------------------------------------------

TEST(Campaign, TheSameSeedSendsTheSameCases) {
  const test_support::RefTarget target = StartRefServer(kHttp);
  CampaignOptions options;
  options.max_cases = 300;
  options.record_cases = true;
  options.seed = 77;
  const CampaignResult first = RunCampaign(target.connect, options);
  const CampaignResult second = RunCampaign(target.connect, options);
  ASSERT_EQ(first.case_log.size(), 300U);
  EXPECT_EQ(first.case_log, second.case_log);
  options.seed = 78;
  const CampaignResult other = RunCampaign(target.connect, options);
  EXPECT_NE(first.case_log, other.case_log);

  // Over stdio too, where every crash restarts the server.
  const test_support::RefTarget stdio = StartRefServer(kStdio, {"crash-on-deep-nesting"});
  options.seed = 77;
  options.max_cases = 150;
  options.resends = 0;
  options.max_shrink_sends = 0;
  const CampaignResult stdio_first = RunCampaign(stdio.connect, options);
  const CampaignResult stdio_second = RunCampaign(stdio.connect, options);
  EXPECT_EQ(stdio_first.case_log, stdio_second.case_log);
  EXPECT_EQ(stdio_first.case_log.size(), 150U);
}

TEST(Campaign, ReplayReportsWhatItCannotRead) {
  const ScratchDirectory scratch("unreadable");
  const std::filesystem::path& directory = scratch.path();
  std::filesystem::create_directories(directory);
  {
    std::ofstream(directory / "a-not-json.json") << "{";
    std::ofstream(directory / "b-other-format.json") << R"({"format":"something-else"})";
    std::ofstream(directory / "ignored.txt") << "not a case";
  }
  const test_support::RefTarget target = StartRefServer(kHttp);
  const ReplayResult result = Replay(target.connect, directory);
  ASSERT_EQ(result.cases.size(), 2U);
  for (const ReplayedCase& replayed : result.cases) {
    EXPECT_FALSE(replayed.error.empty());
    EXPECT_FALSE(replayed.still_fails);
  }
  EXPECT_FALSE(Replay(target.connect, directory / "missing.json").cases.at(0).error.empty());
}

// A server that dies a while after answering a request sent alone, without reading the next
// one: replaying a stdio.no-early-exit case learns the death from what the probe behind the
// reply gets (the end of the process), never from watching the process for a fixed time, so
// the verdict is the same however the scheduler orders the reply and the exit.
TEST(Campaign, ReplaySeesADeathRightAfterTheReplyWithoutTiming) {
  const ScratchDirectory scratch("exit-after-reply");
  FindingRecord record;
  record.check_id = std::string(check::kNoEarlyExit);
  record.request = MakeRequest(Revision::k2025_11_25, TransportKind::kStdio, "ping", {}, 1);
  record.origin = "test";
  auto written = WriteCaseFile(scratch.path(), "death.json", FindingToJson(record));
  ASSERT_TRUE(written.ok()) << written.error().message;
  const TransportFactory connect = test_support::StdioCommand(
      test_support::FixtureArgv("exit_after_reply.py"), TestLimits(3000ms), 200ms);
  const ReplayResult result = Replay(connect, *written);
  ASSERT_EQ(result.cases.size(), 1U);
  const ReplayedCase& replayed = result.cases[0];
  EXPECT_TRUE(replayed.error.empty()) << replayed.error;
  EXPECT_TRUE(replayed.still_fails) << "the death after the reply was not seen";
  ASSERT_TRUE(replayed.verdict.has_value());
  EXPECT_EQ(replayed.verdict->check_id, check::kNoEarlyExit);
  EXPECT_EQ(replayed.verdict->kind, VerdictKind::kFail) << "exit code 3 breaks a MUST";
}

TEST(Campaign, ReportsATargetThatCannotBeReached) {
  const TransportFactory nowhere = [] {
    return OpenHttp(HttpTarget{"http://127.0.0.1:9/mcp", {}, false, TestLimits(500ms)});
  };
  CampaignOptions options;
  options.max_cases = 10;
  const CampaignResult result = RunCampaign(nowhere, options);
  EXPECT_EQ(result.cases, 0U);
  EXPECT_FALSE(result.notes.empty());
}

}  // namespace
}  // namespace mcpfuzz
