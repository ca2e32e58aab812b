// The fuzz loop over stdio, where silence is learnt from a sentinel and cases are pipelined:
// the same seed gives the same cases, verdicts and findings written back to back as one at a
// time; a dropped case costs no timeout; a signature already confirmed is counted, never sent
// again; restarts take a spare server started ahead of time, and no server outlives the run.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/json/parse.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "campaign/campaign.h"
#include "model/reproducer.h"
#include "oracles/check_ids.h"
#include "support/dropping_stdio.h"
#include "support/processes.h"
#include "support/reference_server.h"
#include "support/stdio_command.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

using namespace std::chrono_literals;

constexpr TransportKind kStdio = TransportKind::kStdio;

Limits TestLimits() { return test_support::ReferenceServerLimits(3000ms, 20ms); }

std::string Describe(const CampaignResult& result) {
  std::string text =
      std::to_string(result.cases) + " cases, " + std::to_string(result.pipelined) + " pipelined\n";
  for (const CampaignFinding& finding : result.findings) {
    text += "  case " + std::to_string(finding.case_index) + ": " + finding.signature + " (" +
            std::to_string(finding.reproduced) + "/" + std::to_string(finding.resends) + ", +" +
            std::to_string(finding.repeats) + ")\n    " +
            finding.minimal.WireBody().substr(0, 160) + "\n";
  }
  for (const std::string& note : result.notes) text += "  note: " + note + "\n";
  return text;
}

// Everything about a finding that sending cases back to back must not change.
std::vector<std::string> FindingsOf(const CampaignResult& result) {
  std::vector<std::string> findings;
  for (const CampaignFinding& finding : result.findings) {
    findings.push_back(std::to_string(finding.case_index) + " " + finding.signature + " " +
                       finding.case_check_id + " " + std::to_string(finding.reproduced) + "/" +
                       std::to_string(finding.resends) + " shrunk " +
                       std::to_string(finding.shrink_steps) + " +" +
                       std::to_string(finding.repeats) + " " + finding.minimal.WireBody());
  }
  return findings;
}

void ExpectSameOutcome(const CampaignResult& serial, const CampaignResult& pipelined,
                       bool some_pipelined = true) {
  EXPECT_EQ(serial.pipelined, 0U);
  if (some_pipelined) {
    EXPECT_GT(pipelined.pipelined, 0U) << "nothing was pipelined:\n" << Describe(pipelined);
  }
  EXPECT_EQ(serial.cases, pipelined.cases);
  EXPECT_EQ(serial.skipped, pipelined.skipped);
  EXPECT_EQ(serial.generation_failures, pipelined.generation_failures);
  EXPECT_EQ(serial.case_log, pipelined.case_log);
  EXPECT_EQ(FindingsOf(serial), FindingsOf(pipelined)) << "one at a time:\n"
                                                       << Describe(serial) << "pipelined:\n"
                                                       << Describe(pipelined);
}

// --- pipelined and one at a time ----------------------------------------------------------------

struct FaultMix {
  std::string name;
  std::vector<std::string> faults;
  std::set<std::string> families;
  /// False where every window must be sent again one at a time.
  bool some_pipelined = true;
};

void PrintTo(const FaultMix& mix, std::ostream* out) { *out << mix.name; }

class PipelinedStdio : public ::testing::TestWithParam<FaultMix> {};

TEST_P(PipelinedStdio, GivesTheCasesVerdictsAndFindingsOfOneAtATime) {
  const test_support::RefTarget target =
      test_support::StartRefServer(kStdio, GetParam().faults, TestLimits(), 200ms);
  CampaignOptions options;
  options.seed = 5;
  options.max_cases = 500;
  options.families = GetParam().families;
  options.record_cases = true;
  options.resends = 2;
  options.max_shrink_sends = 40;
  options.stdio_pipeline_depth = 1;
  const CampaignResult serial = RunCampaign(target.connect, options);
  options.stdio_pipeline_depth = CampaignOptions{}.stdio_pipeline_depth;
  const CampaignResult pipelined = RunCampaign(target.connect, options);
  ASSERT_EQ(serial.case_log.size(), options.max_cases) << Describe(serial);
  ExpectSameOutcome(serial, pipelined, GetParam().some_pipelined);
}

INSTANTIATE_TEST_SUITE_P(
    ReferenceServer, PipelinedStdio,
    ::testing::Values(
        FaultMix{"conformant", {}, {}},
        // Findings among pipelined cases, dropped cases, and crashes that restart the server.
        FaultMix{"several_faults",
                 {"unknown-tool-is-error", "hang-on-unknown-tool", "crash-on-deep-nesting",
                  "unknown-method-200", "parse-error-wrong-id"},
                 {}},
        // Log lines on stdout belong to no reply: every window is sent again one at a time.
        FaultMix{"logs_on_stdout", {"logs-on-stdout"}, {"unknown-names"}, false}),
    [](const auto& test) { return test.param.name; });

TEST(PipelinedStdio, ADroppingServerGivesTheSameOutcomeAndCostsNoTimeout) {
  // Deterministic: the reference server's logic in process, dropping what real stdio stacks
  // drop (every error reply it cannot address to an id).
  for (const refserver::FaultSet& faults :
       {refserver::FaultSet{}, refserver::FaultSet{refserver::Fault::kUnknownToolIsError,
                                                   refserver::Fault::kHangOnUnknownTool}}) {
    auto counts = std::make_shared<test_support::DroppingStdioCounts>();
    const TransportFactory connect = test_support::DroppingStdioFactory(faults, counts);
    CampaignOptions options;
    options.seed = 11;
    options.max_cases = 800;
    options.record_cases = true;
    options.stdio_pipeline_depth = 1;
    const CampaignResult serial = RunCampaign(connect, options);
    options.stdio_pipeline_depth = 8;
    const CampaignResult pipelined = RunCampaign(connect, options);
    ExpectSameOutcome(serial, pipelined);
    EXPECT_EQ(counts->timeouts.load(), 0U) << "every drop was learnt from a sentinel";
    EXPECT_EQ(serial.skipped, 0U);
  }
}

TEST(OutOfOrderStdio, StopsTrustingTheSentinelAndNamesTheFindingsThatRestOnADrop) {
  // Conformant, but its replies to tools/call come after the sentinel's: the first calls look
  // dropped. The late reply that follows shows the server answers out of order.
  auto counts = std::make_shared<test_support::DroppingStdioCounts>();
  const TransportFactory connect =
      test_support::DroppingStdioFactory({}, counts, /*late_method=*/"tools/call");
  CampaignOptions options;
  options.revision = Revision::k2025_11_25;
  options.families = {"unknown-names"};
  options.max_cases = 200;
  // The random-name calls at the start would show the disorder before any case.
  options.ask_random_names = false;
  const CampaignResult result = RunCampaign(connect, options);
  const auto note = std::find_if(result.notes.begin(), result.notes.end(), [](const auto& text) {
    return text.find("answered a request after the sentinel") != std::string::npos;
  });
  ASSERT_NE(note, result.notes.end()) << Describe(result);
  // Every finding that rests on a silence is named in the note; none is stable, because the
  // re-sends after the late reply waited for the reply and got it.
  for (const CampaignFinding& finding : result.findings) {
    if (finding.verdict.observed.channel != Channel::kNoReply) continue;
    EXPECT_NE(note->find("the finding of case " + std::to_string(finding.case_index)),
              std::string::npos)
        << *note;
  }
  EXPECT_TRUE(std::any_of(
      result.findings.begin(), result.findings.end(),
      [](const auto& finding) { return finding.verdict.observed.channel == Channel::kNoReply; }))
      << "the first calls looked dropped:\n"
      << Describe(result);
  // From the late reply on, cases wait for their replies, without a sentinel.
  EXPECT_GT(counts->late_method_sent_alone.load(), 0U) << Describe(result);
}

TEST(OutOfOrderStdio, OneKindAnsweredLateKeepsItsGraceAndTheRunItsSentinels) {
  // The fixture answers its first 1,000 messages in order (its notifications and drops teach
  // that), then writes each plain listing after the reply to the sentinel behind it, as SDK v1
  // answers a read of a resource it listed. Learnt per server, that order spared the listing
  // its grace, its reply came as a late one, and from then on every case waited for its reply.
  CampaignOptions options;
  options.seed = 1;
  options.max_cases = 3000;
  const auto run = [&options](const std::vector<std::string>& flags, const std::string& file) {
    return RunCampaign(
        test_support::StdioCommand(test_support::FixtureArgv(file, flags), TestLimits(), 200ms),
        options);
  };
  const CampaignResult late = run({"1000"}, "late_listing.py");
  for (const std::string& note : late.notes) {
    EXPECT_EQ(note.find("every case waited"), std::string::npos) << Describe(late);
  }
  EXPECT_TRUE(std::any_of(late.notes.begin(), late.notes.end(),
                          [](const std::string& note) {
                            return note.find("does not answer these in the order") !=
                                   std::string::npos;
                          }))
      << "the late listing was not seen:\n"
      << Describe(late);
  // What is judged is what the conformant server it is made of gets.
  const CampaignResult conformant = run({}, "conformant_stdio.py");
  std::set<std::string> late_signatures;
  std::set<std::string> conformant_signatures;
  for (const CampaignFinding& finding : late.findings) late_signatures.insert(finding.signature);
  for (const CampaignFinding& finding : conformant.findings) {
    conformant_signatures.insert(finding.signature);
  }
  EXPECT_EQ(late_signatures, conformant_signatures) << "late listing:\n"
                                                    << Describe(late) << "conformant:\n"
                                                    << Describe(conformant);
}

// --- a signature investigated once ------------------------------------------------------------

// Counts the requests of generated cases sent to the real server (not its handshakes, not
// sentinels), whichever thread sends them.
class CountingStdio final : public StdioTransport {
 public:
  CountingStdio(std::unique_ptr<StdioTransport> inner, std::shared_ptr<std::atomic<int>> count)
      : inner_(std::move(inner)), count_(std::move(count)) {}

  Observation Send(const Request& request) override {
    Count(request);
    return inner_->Send(request);
  }
  PipelineResult SendPipelined(const Pipeline& pipeline) override {
    for (const Request& request : pipeline.requests) Count(request);
    return inner_->SendPipelined(pipeline);
  }
  TransportKind kind() const override { return inner_->kind(); }
  std::string Describe() const override { return inner_->Describe(); }
  ReproducerTarget ReproduceAt() const override { return inner_->ReproduceAt(); }
  bool Alive() override { return inner_->Alive(); }
  ProcessExit Shutdown() override { return inner_->Shutdown(); }
  void LimitPatience(std::optional<std::chrono::milliseconds> patience) override {
    inner_->LimitPatience(patience);
  }
  Observation AwaitReply(const Request& request) override { return inner_->AwaitReply(request); }

 private:
  void Count(const Request& request) {
    const std::string method = request.RpcMethod().value_or("");
    if (method == "initialize" || method == "notifications/initialized") return;
    const auto id = request.RpcId();
    if (id && IsSentinelId(*id)) return;
    ++*count_;
  }

  std::unique_ptr<StdioTransport> inner_;
  std::shared_ptr<std::atomic<int>> count_;
};

struct Repeating {
  std::string fault;
  std::string family;
  std::string check;
};

void PrintTo(const Repeating& param, std::ostream* out) { *out << param.fault; }

class ConfirmedSignature : public ::testing::TestWithParam<Repeating> {};

TEST_P(ConfirmedSignature, IsCountedAndNeverSentAgain) {
  auto count = std::make_shared<std::atomic<int>>(0);
  const TransportFactory connect = [count, fault = GetParam().fault]() {
    StdioTarget stdio;
    stdio.argv = test_support::RefServerArgv(kStdio, {fault});
    stdio.limits = TestLimits();
    stdio.shutdown_grace = 200ms;
    auto spawned = SpawnStdio(std::move(stdio));
    if (!spawned) return Result<std::unique_ptr<Transport>>(spawned.error());
    return Result<std::unique_ptr<Transport>>(
        std::make_unique<CountingStdio>(std::move(*spawned), count));
  };
  CampaignOptions options;
  options.revision = Revision::k2025_11_25;
  options.families = {GetParam().family};
  options.stdio_pipeline_depth = 1;
  options.record_cases = true;
  options.max_cases = 120;
  const CampaignResult all = RunCampaign(connect, options);
  ASSERT_FALSE(all.findings.empty()) << Describe(all);
  EXPECT_TRUE(std::any_of(all.findings.begin(), all.findings.end(), [&](const auto& finding) {
    return finding.check_id == GetParam().check;
  })) << Describe(all);
  std::size_t repeats = 0;
  for (const CampaignFinding& finding : all.findings) repeats += finding.repeats;
  ASSERT_GT(repeats, 0U) << Describe(all);
  const int sent_by_all = count->exchange(0);

  // The same run stopped right after its last new finding: every case after it is a repeat
  // or passes, and each must cost exactly its one exchange.
  options.max_cases = all.findings.back().case_index + 1;
  const CampaignResult until_last = RunCampaign(connect, options);
  ASSERT_EQ(FindingsOf(until_last).size(), all.findings.size()) << Describe(until_last);
  const int sent_until_last = count->load();
  EXPECT_EQ(sent_by_all - sent_until_last, static_cast<int>(all.cases - until_last.cases))
      << Describe(all);
}

INSTANTIATE_TEST_SUITE_P(
    ReferenceServer, ConfirmedSignature,
    ::testing::Values(
        Repeating{"unknown-tool-is-error", "unknown-names", std::string(check::kUnknownTool)},
        // A death, judged on the process: each later crash restarts the server but is a repeat.
        Repeating{"crash-on-deep-nesting", "malformed-json", std::string(check::kNoEarlyExit)},
        // Ends after every handshake: each case finds the server gone, a death between
        // exchanges blamed on the case before, a repeat from the second on.
        Repeating{"exit-after-initialize", "unknown-names", std::string(check::kNoEarlyExit)}),
    [](const auto& test) {
      std::string name = test.param.fault;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

// A finding's reproducer runs the server's command as it was spawned, word for word: a word
// holding spaces (a shell script here) stays one word, as no description string could keep it.
TEST(StdioReproducer, RunsTheCommandAsSpawned) {
  const std::string script = "exec \"$0\" --stdio --fault unknown-tool-is-error";
  const std::vector<std::string> argv = {"/bin/sh", "-c", script, test_support::RefServerPath()};
  const TransportFactory connect = test_support::StdioCommand(argv, TestLimits(), 200ms);
  const std::filesystem::path corpus =
      std::filesystem::temp_directory_path() / ("mcpfuzz-reproducer-" + std::to_string(::getpid()));
  std::filesystem::remove_all(corpus);
  CampaignOptions options;
  options.revision = Revision::k2025_11_25;
  options.families = {"unknown-names"};
  options.max_cases = 40;
  options.corpus_dir = corpus;
  const CampaignResult result = RunCampaign(connect, options);
  ASSERT_FALSE(result.findings.empty()) << Describe(result);
  const CampaignFinding& finding = result.findings.front();
  ASSERT_FALSE(finding.file.empty()) << finding.file_error;
  std::ifstream file(finding.file);
  std::stringstream text;
  text << file.rdbuf();
  const boost::json::value record = boost::json::parse(text.str());
  const std::string reproducer(record.at("reproducer").as_string());
  std::string command;
  for (const std::string& word : argv) command += (command.empty() ? "" : " ") + ShellQuote(word);
  EXPECT_NE(reproducer.find(command), std::string::npos) << reproducer;
  std::filesystem::remove_all(corpus);
}

// A second response written just before the next reply: the campaign writes a sentinel behind
// a case, so the repeat comes within the case's window, where the one-response rule judges it,
// and the finding is stable (re-sent, it repeats again). The plain fixture gives no finding.
TEST(StdioRepeats, AResponseRepeatedBeforeTheNextReplyIsAStableFinding) {
  CampaignOptions options;
  options.revision = Revision::k2025_11_25;
  options.families = {"unknown-method"};
  options.max_cases = 40;
  const CampaignResult repeated =
      RunCampaign(test_support::StdioCommand(
                      test_support::FixtureArgv("conformant_stdio.py", {"--repeats-errors-late"}),
                      TestLimits(), 200ms),
                  options);
  const bool found = std::any_of(
      repeated.findings.begin(), repeated.findings.end(), [](const CampaignFinding& finding) {
        return finding.stable &&
               std::any_of(finding.verdict.findings.begin(), finding.verdict.findings.end(),
                           [](const Finding& one) {
                             return one.text.find("got 2 responses") != std::string::npos;
                           });
      });
  EXPECT_TRUE(found) << Describe(repeated);
  const CampaignResult conformant =
      RunCampaign(test_support::StdioCommand(test_support::FixtureArgv("conformant_stdio.py"),
                                             TestLimits(), 200ms),
                  options);
  EXPECT_TRUE(conformant.findings.empty()) << Describe(conformant);
}

// --- warm restarts, and no server left behind ---------------------------------------------------

TEST(StdioRestarts, TakeTheSpareServerAndNoServerOutlivesTheRun) {
  ASSERT_EQ(test_support::ChildProcesses(), 0U);
  const test_support::RefTarget target =
      test_support::StartRefServer(kStdio, {"crash-on-deep-nesting"}, TestLimits(), 200ms);
  CampaignOptions options;
  options.families = {"malformed-json"};
  options.max_cases = 300;
  options.resends = 2;
  const CampaignResult result = RunCampaign(target.connect, options);
  ASSERT_FALSE(result.findings.empty()) << Describe(result);
  EXPECT_GT(result.restarts, 0U);
  EXPECT_GT(result.warm_restarts, 0U) << result.restarts << " restarts";
  EXPECT_LE(result.warm_restarts, result.restarts);
  EXPECT_EQ(test_support::ChildProcesses(), 0U) << "a server (or a spare) outlived the run";
}

// A server that goes deaf again after every restart: its deafness is one finding (the later
// cases are repeats), each later deafness is learnt within the session's patience instead of a
// timeout, and the run stops within its restart budget, long before its cases are spent.
TEST(StdioRestarts, AServerDeafAfterEveryRestartIsOneFindingWithinTheRestartBudget) {
  ASSERT_EQ(test_support::ChildProcesses(), 0U);
  // The limit is long enough for python to start on a loaded machine: it also bounds initialize.
  const TransportFactory connect =
      test_support::StdioCommand(test_support::FixtureArgv("deaf_after_initialize.py"),
                                 test_support::ReferenceServerLimits(3000ms, 20ms), 200ms);
  CampaignOptions options;
  options.revision = Revision::k2025_11_25;
  options.max_cases = 2000;
  const CampaignResult result = RunCampaign(connect, options);
  // Silence is a tolerated answer to some cases (a notification, a batch): those are findings
  // of their own checks. Deafness is one finding, however many cases met it.
  std::vector<const CampaignFinding*> deafness;
  for (const CampaignFinding& finding : result.findings) {
    if (finding.check_id == check::kKeepsAnswering) deafness.push_back(&finding);
  }
  ASSERT_EQ(deafness.size(), 1U) << Describe(result);
  EXPECT_TRUE(deafness[0]->stable) << Describe(result);
  EXPECT_GT(deafness[0]->repeats, 0U) << Describe(result);
  // One timeout teaches the session that this server goes deaf; every later deafness costs
  // the patience only, but for one: the finding resting on a deafness learnt within that
  // patience is first sent again alone under the full limit, before it is believed.
  EXPECT_EQ(result.deaf_timeouts, 2U) << Describe(result);
  EXPECT_GT(result.deaf_within_patience, 0U) << Describe(result);
  // The restart budget, not the cases, ended the run.
  EXPECT_LT(result.cases, 50U) << Describe(result);
  EXPECT_LE(result.restarts, 16U) << Describe(result);
  EXPECT_TRUE(std::any_of(result.notes.begin(), result.notes.end(), [](const std::string& note) {
    return note.find("restart budget") != std::string::npos;
  })) << Describe(result);
  EXPECT_EQ(test_support::ChildProcesses(), 0U) << "a server (or a spare) outlived the run";
}

}  // namespace
}  // namespace mcpfuzz
