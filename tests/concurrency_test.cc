// `mcpfuzz fuzz --concurrency N`: cases sent over N HTTP sessions at once report exactly what
// one session reports — the same cases, the same findings in the same order — and the sends
// really overlap. Over HTTP at concurrency 1, cases drawn ahead on a thread of their own
// (CampaignOptions::pipeline) report what cases drawn by the sending thread report. Over stdio
// each worker is a server process of its own, and reports what one process reports.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "campaign/campaign.h"
#include "cli/options.h"
#include "cli/run.h"
#include "support/processes.h"
#include "support/reference_server.h"
#include "support/stdio_command.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

using namespace std::chrono_literals;

Limits TestLimits() { return test_support::ReferenceServerLimits(3000ms, 20ms); }

/// What every transport made by a CountingFactory saw.
struct SendLog {
  std::mutex mutex;
  std::set<const void*> transports_that_sent;
  std::atomic<int> transports_made{0};
  std::atomic<int> transports_ended{0};
  std::atomic<int> in_flight{0};
  std::atomic<int> peak_in_flight{0};
};

// Forwards to a real transport and counts.
class CountingTransport final : public TransportDecorator {
 public:
  CountingTransport(std::unique_ptr<Transport> inner, std::shared_ptr<SendLog> log)
      : TransportDecorator(std::move(inner)), log_(std::move(log)) {}
  ~CountingTransport() override { ++log_->transports_ended; }
  CountingTransport(const CountingTransport&) = delete;
  CountingTransport& operator=(const CountingTransport&) = delete;
  Observation Send(const Request& request) override {
    {
      const std::lock_guard lock(log_->mutex);
      log_->transports_that_sent.insert(this);
    }
    // The era probe opens its connections all at once: only what comes after an opening shows
    // that the sessions overlap.
    const std::optional<std::string> method = request.RpcMethod();
    if (!method || *method == "initialize" || *method == "server/discover" ||
        *method == "notifications/initialized") {
      return inner().Send(request);
    }
    const int now = ++log_->in_flight;
    int peak = log_->peak_in_flight.load();
    while (now > peak && !log_->peak_in_flight.compare_exchange_weak(peak, now)) {
    }
    Observation observation = inner().Send(request);
    --log_->in_flight;
    return observation;
  }

 private:
  std::shared_ptr<SendLog> log_;
};

TransportFactory Counting(TransportFactory connect, std::shared_ptr<SendLog> log) {
  return [connect = std::move(connect), log]() -> Result<std::unique_ptr<Transport>> {
    auto inner = connect();
    if (!inner) return inner.error();
    ++log->transports_made;
    return std::unique_ptr<Transport>(std::make_unique<CountingTransport>(std::move(*inner), log));
  };
}

std::string Describe(const CampaignResult& result) {
  std::ostringstream text;
  text << result.cases << " cases, " << result.skipped << " skipped, " << result.generation_failures
       << " generation failures\n";
  for (const CampaignFinding& finding : result.findings) {
    text << "  case " << finding.case_index << " +" << finding.repeats << ": " << finding.signature
         << "\n";
  }
  for (const std::string& note : result.notes) text << "  note: " << note << "\n";
  return text.str();
}

/// Expects `two` to report what `one` reported: the same cases, findings, order and repeats.
void ExpectSameRun(const CampaignResult& one, const CampaignResult& two) {
  EXPECT_EQ(two.case_log, one.case_log);
  EXPECT_EQ(two.cases, one.cases);
  EXPECT_EQ(two.skipped, one.skipped);
  EXPECT_EQ(two.big_inputs_held_back, one.big_inputs_held_back);
  EXPECT_EQ(two.sequences_held_back, one.sequences_held_back);
  EXPECT_EQ(two.generation_failures, one.generation_failures);
  ASSERT_EQ(two.findings.size(), one.findings.size()) << "one:\n"
                                                      << Describe(one) << "two:\n"
                                                      << Describe(two);
  for (std::size_t i = 0; i < one.findings.size(); ++i) {
    EXPECT_EQ(two.findings[i].signature, one.findings[i].signature);
    EXPECT_EQ(two.findings[i].case_index, one.findings[i].case_index);
    EXPECT_EQ(two.findings[i].repeats, one.findings[i].repeats) << one.findings[i].signature;
    EXPECT_EQ(two.findings[i].original, one.findings[i].original);
    EXPECT_EQ(two.findings[i].minimal, one.findings[i].minimal);
    EXPECT_EQ(two.findings[i].stable, one.findings[i].stable);
  }
}

TEST(Concurrency, ThePipelineReportsWhatTheSerialLoopReports) {
  const test_support::RefTarget target = test_support::StartRefServer(
      TransportKind::kHttp,
      {"unknown-method-200", "unknown-tool-is-error", "parse-error-wrong-id", "origin-not-checked"},
      TestLimits());
  CampaignOptions options;
  options.seed = 7;
  options.max_cases = 800;
  options.record_cases = true;
  options.resends = 1;
  options.pipeline = false;
  const CampaignResult serial = RunCampaign(target.connect, options);

  options.pipeline = true;
  const CampaignResult pipelined = RunCampaign(target.connect, options);

  ASSERT_GE(serial.findings.size(), 4U) << Describe(serial);
  EXPECT_TRUE(pipelined.notes.empty()) << Describe(pipelined);
  ExpectSameRun(serial, pipelined);
}

// A target that goes away after `sends` requests: every later request is refused, and so is
// every new connection. Unlike a real crash, the moment depends on nothing but the order of
// the exchanges.
class VanishingTransport final : public TransportDecorator {
 public:
  VanishingTransport(std::unique_ptr<Transport> inner, std::shared_ptr<std::atomic<int>> left)
      : TransportDecorator(std::move(inner)), left_(std::move(left)) {}
  Observation Send(const Request& request) override {
    if (--*left_ < 0) {
      Observation refused;
      refused.outcome = Outcome::kConnectionRefused;
      refused.detail = "gone";
      return refused;
    }
    return inner().Send(request);
  }

 private:
  std::shared_ptr<std::atomic<int>> left_;
};

TransportFactory VanishingAfter(TransportFactory connect, int sends) {
  auto left = std::make_shared<std::atomic<int>>(sends);
  return [connect = std::move(connect), left]() -> Result<std::unique_ptr<Transport>> {
    if (left->load() <= 0) return Error{"gone"};
    auto inner = connect();
    if (!inner) return inner.error();
    return std::unique_ptr<Transport>(
        std::make_unique<VanishingTransport>(std::move(*inner), left));
  };
}

// The target goes away half-way: with cases drawn ahead, the lanes are lost as without, and
// drawing starts again for the lanes left each time one is dropped.
TEST(Concurrency, ThePipelineLosesTheSessionsTheSerialLoopLoses) {
  const test_support::RefTarget target = test_support::StartRefServer(
      TransportKind::kHttp, {"unknown-method-200", "unknown-tool-is-error"}, TestLimits());
  CampaignOptions options;
  options.seed = 3;
  options.max_cases = 400;
  options.record_cases = true;
  options.resends = 1;
  options.pipeline = false;
  const CampaignResult serial = RunCampaign(VanishingAfter(target.connect, 150), options);
  options.pipeline = true;
  const CampaignResult pipelined = RunCampaign(VanishingAfter(target.connect, 150), options);
  EXPECT_LT(serial.cases, options.max_cases) << Describe(serial);
  EXPECT_GE(serial.notes.size(), 3U) << Describe(serial);
  ExpectSameRun(serial, pipelined);
  EXPECT_EQ(pipelined.notes, serial.notes);
}

TEST(Concurrency, ARunAgainstTheReferenceServerOpensAFewSessions) {
  const test_support::RefTarget target =
      test_support::StartRefServer(TransportKind::kHttp, {}, TestLimits());
  auto log = std::make_shared<SendLog>();
  CampaignOptions options;
  options.max_cases = 500;
  const CampaignResult result = RunCampaign(Counting(target.connect, log), options);
  EXPECT_EQ(result.cases + result.big_inputs_held_back, options.max_cases) << Describe(result);
  EXPECT_EQ(result.sessions_opened, static_cast<std::size_t>(log->transports_made.load()));
  // The era probe's, one per revision (2026-07-28, 2025-11-25, 2025-03-26), and one per
  // sequence (one case in 64 in a handshake-era revision opens a connection of its own).
  const auto sequences = result.cases_per_family.find("sequences");
  ASSERT_NE(sequences, result.cases_per_family.end()) << Describe(result);
  EXPECT_LE(result.sessions_opened, 10U + sequences->second);
  EXPECT_GE(result.sessions_opened, result.revisions.size());
}

// Sequences (and re-sends and shrinking) each start a stdio server of their own, one after
// the other: the next is started while the last is in use. One more is started than handed
// out, nothing is sent to it, and it ends with the run.
TEST(Concurrency, OverStdioTheNextServerIsStartedWhileTheLastIsInUse) {
  const test_support::RefTarget target =
      test_support::StartRefServer(TransportKind::kStdio, {}, TestLimits());
  auto log = std::make_shared<SendLog>();
  CampaignOptions options;
  options.max_cases = 6;
  options.families = {"sequences"};
  const CampaignResult result = RunCampaign(Counting(target.connect, log), options);
  EXPECT_EQ(result.cases, options.max_cases) << Describe(result);
  EXPECT_EQ(static_cast<std::size_t>(log->transports_made.load()), result.sessions_opened + 1);
  EXPECT_LE(log->transports_that_sent.size(), result.sessions_opened);
  EXPECT_EQ(log->transports_ended.load(), log->transports_made.load());
}

TEST(Concurrency, TwoSessionsReportWhatOneReports) {
  // Three faults: several distinct findings, each repeated by later cases.
  const test_support::RefTarget target = test_support::StartRefServer(
      TransportKind::kHttp, {"unknown-method-200", "unknown-tool-is-error", "parse-error-wrong-id"},
      TestLimits());
  CampaignOptions options;
  options.seed = 20261129;
  options.max_cases = 600;
  options.record_cases = true;
  options.resends = 1;
  options.pipeline = false;
  const CampaignResult serial = RunCampaign(target.connect, options);

  auto log = std::make_shared<SendLog>();
  options.concurrency = 2;
  const CampaignResult parallel = RunCampaign(Counting(target.connect, log), options);

  ASSERT_GE(serial.findings.size(), 3U) << Describe(serial);
  EXPECT_TRUE(parallel.notes.empty()) << Describe(parallel);
  EXPECT_EQ(parallel.case_log, serial.case_log);
  EXPECT_EQ(parallel.cases, serial.cases);
  EXPECT_EQ(parallel.cases_per_family, serial.cases_per_family);
  EXPECT_EQ(parallel.cases_per_revision, serial.cases_per_revision);
  EXPECT_EQ(parallel.skipped, serial.skipped);
  EXPECT_EQ(parallel.big_inputs_held_back, serial.big_inputs_held_back);
  ASSERT_EQ(parallel.findings.size(), serial.findings.size()) << "serial:\n"
                                                              << Describe(serial) << "parallel:\n"
                                                              << Describe(parallel);
  for (std::size_t i = 0; i < serial.findings.size(); ++i) {
    const CampaignFinding& one = serial.findings[i];
    const CampaignFinding& two = parallel.findings[i];
    EXPECT_EQ(two.signature, one.signature);
    EXPECT_EQ(two.case_index, one.case_index);
    EXPECT_EQ(two.repeats, one.repeats) << one.signature;
    EXPECT_EQ(two.original, one.original);
    EXPECT_EQ(two.minimal, one.minimal);
    EXPECT_EQ(two.stable, one.stable);
  }
  // Two revisions, two sessions each, besides the connections of the era probe.
  EXPECT_GE(log->transports_that_sent.size(), 4U);
  EXPECT_GE(log->peak_in_flight.load(), 2) << "the two sessions never sent at the same time";
}

// Big inputs are held back by case index and the cases before, never by what the clock or the
// workers did: the same cases are sent at every concurrency and, over stdio, pipeline depth.
TEST(Concurrency, BigInputsAreHeldBackAlikeAtEveryConcurrencyAndDepth) {
  CampaignOptions options;
  options.seed = 7;
  options.max_cases = 240;
  options.families = {"limits"};
  options.max_request_bytes = (std::size_t{1} << 20) + 1;  // 1 MiB and one byte more
  options.record_cases = true;
  options.resends = 1;
  const test_support::RefTarget http =
      test_support::StartRefServer(TransportKind::kHttp, {}, TestLimits());
  const CampaignResult one = RunCampaign(http.connect, options);
  EXPECT_GT(one.big_inputs_held_back, 100U) << Describe(one);
  EXPECT_EQ(one.cases + one.big_inputs_held_back + one.skipped + one.generation_failures, 240U);
  options.concurrency = 3;
  ExpectSameRun(one, RunCampaign(http.connect, options));

  // Every one sent when the budget is off: the same cases drawn, none held back.
  options.big_input_every = 1;
  const CampaignResult every = RunCampaign(http.connect, options);
  EXPECT_EQ(every.big_inputs_held_back, 0U);
  EXPECT_EQ(every.case_log, one.case_log);
  EXPECT_EQ(every.cases, one.cases + one.big_inputs_held_back);

  options.big_input_every = 16;
  options.concurrency = 1;
  options.max_cases = 120;
  const test_support::RefTarget stdio =
      test_support::StartRefServer(TransportKind::kStdio, {}, TestLimits());
  options.stdio_pipeline_depth = 1;
  const CampaignResult alone = RunCampaign(stdio.connect, options);
  EXPECT_GT(alone.big_inputs_held_back, 0U) << Describe(alone);
  options.stdio_pipeline_depth = 16;
  ExpectSameRun(alone, RunCampaign(stdio.connect, options));
}

// What a campaign sends of the limits family: the body sizes of its raw bodies.
class BodySizes final : public TransportDecorator {
 public:
  BodySizes(std::unique_ptr<Transport> inner, std::shared_ptr<std::vector<std::size_t>> sizes,
            std::shared_ptr<std::mutex> mutex)
      : TransportDecorator(std::move(inner)), sizes_(std::move(sizes)), mutex_(std::move(mutex)) {}
  Observation Send(const Request& request) override {
    if (std::holds_alternative<RawBody>(request.body)) {
      const std::lock_guard lock(*mutex_);
      sizes_->push_back(request.WireSize());
    }
    return inner().Send(request);
  }

 private:
  std::shared_ptr<std::vector<std::size_t>> sizes_;
  std::shared_ptr<std::mutex> mutex_;
};

// The cases are drawn with their megabyte bodies unwritten, and written only once sent: what
// reaches the transport is the whole body, at one of the sizes the family draws, serially and
// from the workers of --concurrency alike.
TEST(Concurrency, AMegabyteBodyIsWrittenWholeWhenItIsSent) {
  const test_support::RefTarget http =
      test_support::StartRefServer(TransportKind::kHttp, {}, TestLimits());
  CampaignOptions options;
  options.seed = 7;
  options.max_cases = 240;
  options.families = {"limits"};
  options.max_request_bytes = (std::size_t{1} << 20) + 1;
  options.resends = 1;
  for (std::size_t concurrency : {1U, 3U}) {
    auto sizes = std::make_shared<std::vector<std::size_t>>();
    auto mutex = std::make_shared<std::mutex>();
    const TransportFactory recording = [&]() -> Result<std::unique_ptr<Transport>> {
      auto inner = http.connect();
      if (!inner) return inner.error();
      return std::unique_ptr<Transport>(
          std::make_unique<BodySizes>(std::move(*inner), sizes, mutex));
    };
    options.concurrency = concurrency;
    const CampaignResult result = RunCampaign(recording, options);
    EXPECT_GT(result.big_inputs_held_back, 0U) << Describe(result);
    const auto megabyte = std::count_if(sizes->begin(), sizes->end(), [](std::size_t size) {
      return size == (std::size_t{1} << 20) || size == (std::size_t{1} << 20) + 1;
    });
    EXPECT_GT(megabyte, 0) << "no megabyte body sent at concurrency " << concurrency;
    EXPECT_EQ(std::count(sizes->begin(), sizes->end(), std::size_t{0}), 0)
        << "a body was sent unwritten at concurrency " << concurrency;
  }
}

// Over stdio a mixed-in sequence starts a server of its own: the first ending on each check is
// sent, then one in CampaignOptions::sequence_every, by case index and the cases before, so the
// same ones at every concurrency and pipeline depth; with the budget off, every one.
TEST(Concurrency, StdioSequencesAreHeldBackAlikeAtEveryConcurrencyAndDepth) {
  const test_support::RefTarget stdio =
      test_support::StartRefServer(TransportKind::kStdio, {}, TestLimits());
  CampaignOptions options;  // the default families: one case in 64 a sequence
  options.seed = 7;
  options.max_cases = 1280;
  options.record_cases = true;
  const CampaignResult one = RunCampaign(stdio.connect, options);
  const auto sent = [](const CampaignResult& result) {
    const auto sequences = result.cases_per_family.find("sequences");
    return sequences == result.cases_per_family.end() ? 0U : sequences->second;
  };
  EXPECT_GT(one.sequences_held_back, 0U) << Describe(one);
  EXPECT_GT(sent(one), 0U) << Describe(one);
  EXPECT_TRUE(one.findings.empty()) << Describe(one);
  EXPECT_EQ(one.cases + one.big_inputs_held_back + one.sequences_held_back + one.skipped +
                one.generation_failures,
            options.max_cases);
  options.stdio_pipeline_depth = 1;
  ExpectSameRun(one, RunCampaign(stdio.connect, options));
  options.stdio_pipeline_depth = 16;
  options.concurrency = 2;
  ExpectSameRun(one, RunCampaign(stdio.connect, options));

  options.concurrency = 1;
  options.sequence_every = 1;
  const CampaignResult every = RunCampaign(stdio.connect, options);
  EXPECT_EQ(every.sequences_held_back, 0U);
  EXPECT_EQ(every.case_log, one.case_log);
  EXPECT_EQ(sent(every), sent(one) + one.sequences_held_back);
}

TEST(Concurrency, AConformantServerYieldsNoFindingAtConcurrencyTwo) {
  const test_support::RefTarget target =
      test_support::StartRefServer(TransportKind::kHttp, {}, TestLimits());
  CampaignOptions options;
  options.max_cases = 800;
  options.concurrency = 2;
  const CampaignResult result = RunCampaign(target.connect, options);
  EXPECT_TRUE(result.findings.empty()) << Describe(result);
  EXPECT_TRUE(result.notes.empty()) << Describe(result);
  EXPECT_EQ(result.cases + result.big_inputs_held_back, options.max_cases);
}

TEST(Concurrency, AStopAfterTheFirstFindingStopsAtTheSameCase) {
  const test_support::RefTarget target =
      test_support::StartRefServer(TransportKind::kHttp, {"unknown-method-200"}, TestLimits());
  CampaignOptions options;
  options.max_cases = 2000;
  options.max_findings = 1;
  options.resends = 1;
  options.pipeline = false;
  const CampaignResult serial = RunCampaign(target.connect, options);
  options.concurrency = 3;
  const CampaignResult parallel = RunCampaign(target.connect, options);
  ASSERT_EQ(serial.findings.size(), 1U) << Describe(serial);
  ASSERT_EQ(parallel.findings.size(), 1U) << Describe(parallel);
  EXPECT_EQ(parallel.findings[0].case_index, serial.findings[0].case_index);
  EXPECT_EQ(parallel.cases, serial.cases) << "cases sent ahead are not counted";
}

// Over stdio each worker is a server process of its own: four of them report what one process
// reports, written to in windows (the default) or one case at a time, with the crashes that
// restart a process among the findings; and no process outlives the run.
TEST(Concurrency, FourStdioProcessesReportWhatOneReports) {
  ASSERT_EQ(test_support::ChildProcesses(), 0U);
  const test_support::RefTarget target = test_support::StartRefServer(
      TransportKind::kStdio,
      // No notification-answered: what a notification gets
      // is heard out for the quiet window, a clock's verdict,
      // which at load 9 came out otherwise in 1 run of 4.
      {"unknown-tool-is-error", "parse-error-wrong-id", "crash-on-deep-nesting"}, TestLimits());
  CampaignOptions options;
  options.seed = 20261206;
  options.max_cases = 500;
  options.record_cases = true;
  options.resends = 1;
  const CampaignResult serial = RunCampaign(target.connect, options);
  ASSERT_GE(serial.findings.size(), 3U) << Describe(serial);
  EXPECT_GT(serial.restarts, 0U) << Describe(serial);

  options.concurrency = 4;
  const CampaignResult parallel = RunCampaign(target.connect, options);
  EXPECT_TRUE(parallel.notes.empty()) << Describe(parallel);
  ExpectSameRun(serial, parallel);
  // Four processes per revision at least, besides the era probe's. (Not compared with the
  // serial run's count: its windows that go wrong restart the server, which one case at a time
  // on each process never needs.)
  EXPECT_GE(parallel.sessions_opened,
            parallel.eras.attempts.size() + 4 * parallel.revisions.size());
  EXPECT_EQ(test_support::ChildProcesses(), 0U) << "a server process outlived the run";
}

// A server that ends right after answering some calls: each worker learns it from the
// sentinel behind the case and the death is blamed on that case, the one the serial loop
// blames when its next case finds the server ended, in the same place among the findings.
TEST(Concurrency, AStdioDeathIsBlamedOnTheCaseItsProcessAnsweredLast) {
  ASSERT_EQ(test_support::ChildProcesses(), 0U);
  const TransportFactory connect = test_support::StdioCommand(
      test_support::FixtureArgv("dies_after_unknown_tool_reply.py"), TestLimits(), 200ms);
  CampaignOptions options;
  options.seed = 5;
  options.max_cases = 120;
  options.revision = Revision::k2025_11_25;
  options.families = {"unknown-names"};
  options.record_cases = true;
  options.resends = 1;
  const CampaignResult serial = RunCampaign(connect, options);
  options.concurrency = 3;
  const CampaignResult parallel = RunCampaign(connect, options);
  const auto deaths = [](const CampaignResult& result) {
    std::set<std::pair<std::size_t, std::string>> found;
    for (const CampaignFinding& finding : result.findings) {
      if (finding.check_id == "stdio.no-early-exit") {
        found.emplace(finding.case_index, finding.signature);
      }
    }
    return found;
  };
  ASSERT_FALSE(deaths(serial).empty()) << Describe(serial);
  EXPECT_EQ(deaths(parallel), deaths(serial));
  ExpectSameRun(serial, parallel);
  EXPECT_EQ(test_support::ChildProcesses(), 0U) << "a server process outlived the run";
}

TEST(Concurrency, TheCommandLineTakesItForHttpAndStdio) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"fuzz", "--builtin", "--concurrency", "2"},
        std::vector<std::string>{"fuzz", "--builtin-stdio", "--concurrency", "2"},
        std::vector<std::string>{"fuzz", "--concurrency", "2", "--", "node", "server.js"}}) {
    auto parsed = cli::ParseOptions(args);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->fuzz.concurrency, 2U);
  }
  EXPECT_FALSE(cli::ParseOptions({"fuzz", "--builtin", "--concurrency", "0"}).ok());
  EXPECT_FALSE(cli::ParseOptions({"fuzz", "--builtin", "--concurrency", "65"}).ok());
  EXPECT_NE(cli::HelpText("fuzz").find("--concurrency"), std::string::npos);
}

}  // namespace
}  // namespace mcpfuzz
