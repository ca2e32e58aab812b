// `mcpfuzz fuzz --concurrency N`: cases sent over N HTTP sessions at once report exactly what
// one session reports — the same cases, the same findings in the same order — and the sends
// really overlap. A stdio target with N > 1 is a usage error.

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
#include <vector>

#include "campaign/campaign.h"
#include "cli/options.h"
#include "cli/run.h"
#include "support/reference_server.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

using namespace std::chrono_literals;

Limits TestLimits() { return test_support::ReferenceServerLimits(3000ms, 20ms); }

/// What every transport made by a CountingFactory saw.
struct SendLog {
  std::mutex mutex;
  std::set<const void*> transports_that_sent;
  std::atomic<int> in_flight{0};
  std::atomic<int> peak_in_flight{0};
};

// Forwards to a real transport and counts; the session id is set on the wrapper by McpClient,
// so it is handed on before every send.
class CountingTransport final : public Transport {
 public:
  CountingTransport(std::unique_ptr<Transport> inner, std::shared_ptr<SendLog> log)
      : inner_(std::move(inner)), log_(std::move(log)) {}
  Observation Send(const Request& request) override {
    {
      const std::lock_guard lock(log_->mutex);
      log_->transports_that_sent.insert(this);
    }
    inner_->set_session_id(session_id());
    // The era probe opens its connections all at once: only what comes after an opening shows
    // that the sessions overlap.
    const std::optional<std::string> method = request.RpcMethod();
    if (!method || *method == "initialize" || *method == "server/discover" ||
        *method == "notifications/initialized") {
      return inner_->Send(request);
    }
    const int now = ++log_->in_flight;
    int peak = log_->peak_in_flight.load();
    while (now > peak && !log_->peak_in_flight.compare_exchange_weak(peak, now)) {
    }
    Observation observation = inner_->Send(request);
    --log_->in_flight;
    return observation;
  }
  TransportKind kind() const override { return inner_->kind(); }
  std::string Describe() const override { return inner_->Describe(); }

 private:
  std::unique_ptr<Transport> inner_;
  std::shared_ptr<SendLog> log_;
};

TransportFactory Counting(TransportFactory connect, std::shared_ptr<SendLog> log) {
  return [connect = std::move(connect), log]() -> Result<std::unique_ptr<Transport>> {
    auto inner = connect();
    if (!inner) return inner.error();
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
  const CampaignResult serial = RunCampaign(target.connect, options);

  auto log = std::make_shared<SendLog>();
  options.concurrency = 2;
  const CampaignResult parallel = RunCampaign(Counting(target.connect, log), options);

  ASSERT_GE(serial.findings.size(), 3U) << Describe(serial);
  EXPECT_TRUE(parallel.notes.empty()) << Describe(parallel);
  EXPECT_EQ(parallel.case_log, serial.case_log);
  EXPECT_EQ(parallel.cases, serial.cases);
  EXPECT_EQ(parallel.skipped, serial.skipped);
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

TEST(Concurrency, AConformantServerYieldsNoFindingAtConcurrencyTwo) {
  const test_support::RefTarget target =
      test_support::StartRefServer(TransportKind::kHttp, {}, TestLimits());
  CampaignOptions options;
  options.max_cases = 800;
  options.concurrency = 2;
  const CampaignResult result = RunCampaign(target.connect, options);
  EXPECT_TRUE(result.findings.empty()) << Describe(result);
  EXPECT_TRUE(result.notes.empty()) << Describe(result);
  EXPECT_EQ(result.cases, options.max_cases);
}

TEST(Concurrency, AStopAfterTheFirstFindingStopsAtTheSameCase) {
  const test_support::RefTarget target =
      test_support::StartRefServer(TransportKind::kHttp, {"unknown-method-200"}, TestLimits());
  CampaignOptions options;
  options.max_cases = 2000;
  options.max_findings = 1;
  options.resends = 1;
  const CampaignResult serial = RunCampaign(target.connect, options);
  options.concurrency = 3;
  const CampaignResult parallel = RunCampaign(target.connect, options);
  ASSERT_EQ(serial.findings.size(), 1U) << Describe(serial);
  ASSERT_EQ(parallel.findings.size(), 1U) << Describe(parallel);
  EXPECT_EQ(parallel.findings[0].case_index, serial.findings[0].case_index);
  EXPECT_EQ(parallel.cases, serial.cases) << "cases sent ahead are not counted";
}

TEST(Concurrency, AStdioTargetRunsWithOneSession) {
  const test_support::RefTarget target =
      test_support::StartRefServer(TransportKind::kStdio, {}, TestLimits());
  CampaignOptions options;
  options.max_cases = 50;
  options.concurrency = 2;
  const CampaignResult result = RunCampaign(target.connect, options);
  EXPECT_EQ(result.cases, 50U);
  ASSERT_EQ(result.notes.size(), 1U) << Describe(result);
  EXPECT_NE(result.notes[0].find("HTTP targets only"), std::string::npos) << result.notes[0];
}

TEST(Concurrency, TheCommandLineTakesItForHttpAndRefusesItForStdio) {
  auto http = cli::ParseOptions({"fuzz", "--builtin", "--concurrency", "2"});
  ASSERT_TRUE(http.ok()) << http.error().message;
  EXPECT_EQ(http->fuzz.concurrency, 2U);

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"fuzz", "--builtin-stdio", "--concurrency", "2"},
        std::vector<std::string>{"fuzz", "--concurrency", "2", "--", "node", "server.js"}}) {
    auto stdio = cli::ParseOptions(args);
    ASSERT_FALSE(stdio.ok());
    EXPECT_NE(stdio.error().message.find("HTTP target"), std::string::npos)
        << stdio.error().message;
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(cli::Run(args, "mcpfuzz", out, err), 2);
  }
  EXPECT_TRUE(cli::ParseOptions({"fuzz", "--builtin-stdio", "--concurrency", "1"}).ok());
  EXPECT_FALSE(cli::ParseOptions({"fuzz", "--builtin", "--concurrency", "0"}).ok());
  EXPECT_FALSE(cli::ParseOptions({"fuzz", "--builtin", "--concurrency", "65"}).ok());
  EXPECT_NE(cli::HelpText("fuzz").find("--concurrency"), std::string::npos);
}

}  // namespace
}  // namespace mcpfuzz
