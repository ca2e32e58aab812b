// Issue #4's done-criterion for the reference server: with the default seed, the fuzz campaign
// finds every fault switch within 2,000 cases (one sequence that needs a rarer draw: 20,000),
// names the check the fault deviates from, and writes a case file that replay reproduces with the
// fault and passes without it. A fault that no single generated request can show is listed below
// with the reason, and the checklist (`mcpfuzz check`) must find it instead.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <ostream>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "campaign/campaign.h"
#include "checks/checks.h"
#include "model/reproducer.h"
#include "oracles/check_ids.h"
#include "refserver/faults.h"
#include "support/processes.h"
#include "support/reference_server.h"

namespace mcpfuzz::test_support {
namespace {

using namespace std::chrono_literals;

constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;
constexpr std::size_t kMaxCases = 2000;

// How each fault is expected to show. `check` is a check id, or a dotted prefix naming a
// group ("headers."), or empty for "any check" (a fault that spoils every error reply, judged
// by `aspect` instead).
struct SweepRow {
  std::string_view fault;
  TransportKind transport = kHttp;
  std::string_view check = {};
  std::optional<Aspect> aspect = std::nullopt;
  /// The one fault that needs a real tool called: tool arguments that break the schema.
  bool call_real_tools = false;
  /// A fault whose finding is a request never answered: a short timeout keeps it cheap.
  std::chrono::milliseconds timeout = 3000ms;
  /// Non-empty: the campaign cannot show this fault, for this reason; the checklist must.
  std::string_view unreachable_by_fuzzing = {};
  /// Non-empty: the one family that shows it (sequences are not among the default families).
  std::string_view family = {};
  /// Within how many cases: kMaxCases, or more for a sequence that needs a rarer draw.
  std::size_t cases = kMaxCases;
};

// The stdio-only faults run over stdio; so do the faults that end the process, since over
// HTTP the one server process would be gone for the replay.
constexpr SweepRow kRows[] = {
    {.fault = "unknown-tool-is-error", .check = check::kUnknownTool},
    {.fault = "unknown-tool-plain-success", .check = check::kUnknownTool},
    {.fault = "unknown-tool-html", .check = check::kUnknownTool},
    {.fault = "unknown-tool-wrong-code", .check = check::kUnknownTool},
    {.fault = "hang-on-unknown-tool", .check = check::kUnknownTool, .timeout = 400ms},
    {.fault = "input-validation-as-protocol-error",
     .check = check::kToolBadArguments,
     .call_real_tools = true},
    {.fault = "parse-error-wrong-id", .check = check::kParseError},
    {.fault = "invalid-request-accepted", .check = "jsonrpc.invalid-request."},
    {.fault = "notification-answered", .check = check::kNotificationNoReply},
    {.fault = "error-leaks-internals", .aspect = Aspect::kLeak},
    {.fault = "crash-on-deep-nesting", .transport = kStdio, .check = check::kNoEarlyExit},
    {.fault = "exit-after-initialize", .transport = kStdio, .check = check::kNoEarlyExit},
    {.fault = "logs-on-stdout", .transport = kStdio, .check = check::kStdoutOnlyJsonRpc},
    {.fault = "unsupported-version-echoed", .check = check::kInitializeUnsupportedVersion},
    // Ping's rules are about the handshake's order: several requests on a fresh connection.
    {.fault = "ping-method-not-found", .check = "lifecycle.", .family = "sequences"},
    {.fault = "session-not-enforced", .check = check::kSessionMissing},
    {.fault = "stale-session-served", .check = check::kSessionUnknown},
    {.fault = "batch-rejected-in-2025-03-26", .check = check::kBatchAccepted},
    {.fault = "origin-not-checked", .check = check::kOriginInvalid},
    {.fault = "missing-meta-served", .check = "meta."},
    {.fault = "header-mismatch-served", .check = "headers."},
    {.fault = "method-header-case-insensitive", .check = check::kMethodHeaderCase},
    {.fault = "unsupported-version-no-data", .check = check::kVersionUnsupported},
    // methods.unknown, or methods.removed: a removed method is unknown in 2026-07-28 too.
    {.fault = "unknown-method-200", .check = "methods."},
    {.fault = "missing-result-type", .aspect = Aspect::kEnvelope},
    {.fault = "resource-not-found-legacy-code", .check = check::kUnknownResource},
    {.fault = "era-lock-ignored", .transport = kStdio, .check = check::kMetaMissing},
    {.fault = "validator-dump-in-errors", .aspect = Aspect::kLeak},
    {.fault = "removed-methods-served", .check = check::kRemovedMethod},
    {.fault = "pretty-printed-stdio", .transport = kStdio, .check = check::kStdoutOnlyJsonRpc},
    {.fault = "prototype-name-lookup", .check = check::kUnknownNameConsistent},
    {.fault = "deaf-after-big-line", .transport = kStdio, .check = check::kKeepsAnswering},
    {.fault = "500-on-deep-nesting", .check = check::kDeepNesting},
    // A session DELETEd, then used: the default mix's one sequence in 64 reaches it.
    {.fault = "deleted-session-served", .check = check::kSessionUnknown},
    {.fault = "cursor-across-lists", .check = check::kInvalidCursor, .family = "sequences"},
    // A request in flight only over stdio: over HTTP its POST holds the connection.
    {.fault = "cancelled-request-answered",
     .transport = kStdio,
     .check = check::kCancelledNoReply,
     .family = "sequences"},
    {.fault = "listen-unacknowledged", .check = check::kListenAcknowledged},
    {.fault = "log-level-ignored", .aspect = Aspect::kEnvelope},
    {.fault = "progress-unrequested", .aspect = Aspect::kEnvelope},
    // A second response to one id, in the window before the sentinel's reply: any check.
    {.fault = "error-answered-twice", .transport = kStdio, .aspect = Aspect::kEnvelope},
    // A string id of more than 4,096 bytes, from the limits family.
    {.fault = "crash-on-long-id", .transport = kStdio, .check = check::kNoEarlyExit},
    // A stdio connection's era (tables §4b V16a, V16b): sequences on one process.
    {.fault = "initialize-relocks-era",
     .transport = kStdio,
     .check = check::kInitializeAfterEraLock,
     .family = "sequences"},
    {.fault = "era-switch-after-initialize",
     .transport = kStdio,
     .check = check::kEnvelopeAfterInitialize,
     .family = "sequences"},
    // A request in the first session after the second one's DELETE: a lifecycle check (L6,
    // L6a, L4 or L8a) judges the 404.
    {.fault = "delete-ends-all-sessions", .check = "lifecycle.", .family = "sequences"},
    // A session's log level (tables §7 G4): logging/setLevel, then a ping.
    {.fault = "set-level-ignored", .check = check::kSessionLogLevel, .family = "sequences"},
    // A resource's subscription (tables §7 R4s): subscribe, unsubscribe, then a ping.
    {.fault = "unsubscribe-ignored", .check = check::kUnsubscribe, .family = "sequences"},
    // A cursor sent twice (tables §7 C2): a list, then its next page twice.
    // Progress after the response (tables §4a L10a): over stdio, where a later reply's progress
    // is not judged by L10.
    {.fault = "progress-after-response",
     .transport = kStdio,
     .check = check::kProgressAfterResponse,
     .family = "sequences"},
    // The handshake and the one paginated list, then its page twice: rarer than 1 in 2,000.
    {.fault = "cursor-single-use",
     .check = check::kCursorReused,
     .family = "sequences",
     .cases = 20000},
};

const SweepRow* RowFor(std::string_view fault) {
  for (const SweepRow& row : kRows) {
    if (row.fault == fault) return &row;
  }
  return nullptr;
}

bool Matches(const SweepRow& row, const Verdict& verdict) {
  if (row.aspect) {
    return std::any_of(verdict.findings.begin(), verdict.findings.end(),
                       [&](const Finding& finding) { return finding.aspect == *row.aspect; });
  }
  const std::string_view wanted = row.check;
  if (wanted.empty()) return true;
  return wanted.ends_with(".") ? std::string_view(verdict.check_id).starts_with(wanted)
                               : verdict.check_id == wanted;
}

Limits SweepLimits(std::chrono::milliseconds timeout) {
  return ReferenceServerLimits(timeout, 20ms);
}

std::string Describe(const CampaignResult& result) {
  std::string text = std::to_string(result.cases) + " cases\n";
  for (const CampaignFinding& finding : result.findings) {
    text += "  case " + std::to_string(finding.case_index) + ": " + Summarize(finding.verdict) +
            "\n    " + finding.minimal.WireBody().substr(0, 200) + "\n";
  }
  for (const std::string& note : result.notes) text += "  note: " + note + "\n";
  return text;
}

// What a reproducer printed, less what differs between two runs against one server: the date
// and the session id the server drew.
std::string Normalised(const std::string& output) {
  static const std::regex kVolatile(R"((date|mcp-session-id): [^\r\n]*)", std::regex::icase);
  return std::regex_replace(output, kVolatile, "$1: …");
}

// Where a reproducer of the sweep sends its requests: the faulty server the run was made
// against (over HTTP, its URL; over stdio, the command with the fault switch).
ReproducerTarget FaultyTarget(const SweepRow& row, const RefTarget& target) {
  if (row.transport == kHttp) return {kHttp, target.http_server->url(), {}, {}};
  return {kStdio, "", RefServerArgv(kStdio, {std::string(row.fault)}), {}};
}

// The same line made to send to the conformant server instead: another URL, or the command
// without the fault switch.
std::string AgainstConformant(std::string line, const SweepRow& row, const RefTarget& faulty,
                              const RefTarget& conformant) {
  const std::string from =
      row.transport == kHttp ? faulty.http_server->url() : " --fault " + std::string(row.fault);
  const std::string to = row.transport == kHttp ? conformant.http_server->url() : "";
  for (std::size_t at = line.find(from); at != std::string::npos; at = line.find(from, at)) {
    line.replace(at, from.size(), to);
    at += to.size();
  }
  return line;
}

std::string RunReproducer(const std::string& line) {
  // A hang reproduces as a curl or server that never ends: `timeout` ends it, and what it
  // printed until then (nothing from the hung request) is compared.
  return Normalised(RunShell("timeout -k 5 30 bash -c " + ShellQuote(line) + " </dev/null").output);
}

// The reproducer, run against the faulty server, prints the answer mcpfuzz judged (its status
// and code), and run against the conformant server prints something else.
void ExpectReproducerShowsIt(const std::string& line, const Verdict& verdict, const SweepRow& row,
                             const RefTarget& faulty, const RefTarget& conformant) {
  ASSERT_FALSE(line.empty()) << Summarize(verdict);
  SCOPED_TRACE(Summarize(verdict) + "\n" + line.substr(0, 2000));
  const std::string shown = RunReproducer(line);
  const std::string fixed = RunReproducer(AgainstConformant(line, row, faulty, conformant));
  EXPECT_NE(shown, fixed) << "the reproducer prints the same against the conformant server:\n"
                          << shown.substr(0, 2000);
  if (verdict.observed.http_status != 0) {
    EXPECT_NE(shown.find("HTTP/1.1 " + std::to_string(verdict.observed.http_status)),
              std::string::npos)
        << shown.substr(0, 2000);
  }
  if (verdict.observed.code) {
    const std::regex code("\"code\": *" + std::to_string(*verdict.observed.code) + "\\b");
    EXPECT_TRUE(std::regex_search(shown, code)) << shown.substr(0, 2000);
  }
}

class FaultSweep : public ::testing::TestWithParam<refserver::FaultInfo> {};

TEST_P(FaultSweep, EveryFaultHasARow) {
  EXPECT_NE(RowFor(GetParam().name), nullptr) << GetParam().name << " is missing from kRows";
}

TEST_P(FaultSweep, TheDefaultSeedFindsItWithinItsCases) {
  const SweepRow* row = RowFor(GetParam().name);
  ASSERT_NE(row, nullptr);
  if (!row->unreachable_by_fuzzing.empty()) GTEST_SKIP() << row->unreachable_by_fuzzing;
  const std::string fault(row->fault);
  const RefTarget target =
      StartRefServer(row->transport, {fault}, SweepLimits(row->timeout), 200ms);
  CampaignOptions options;  // the default seed
  options.max_cases = row->cases;
  options.call_real_tools = row->call_real_tools;
  if (!row->family.empty()) options.families = {std::string(row->family)};
  const ScratchDirectory corpus(fault);
  options.corpus_dir = corpus.path();
  // Mostly the fault's finding is the first one, and the run can stop there. When another
  // check meets the same deviation first (an answered notification inside a batch), the same
  // seed runs again to the end: same cases, all findings.
  options.max_findings = 1;
  CampaignResult result = RunCampaign(target.connect, options);
  auto matching = [&] {
    return std::find_if(
        result.findings.begin(), result.findings.end(),
        [&](const CampaignFinding& finding) { return Matches(*row, finding.verdict); });
  };
  if (matching() == result.findings.end()) {
    options.max_findings = 0;
    result = RunCampaign(target.connect, options);
  }
  ASSERT_NE(matching(), result.findings.end()) << Describe(result);
  const CampaignFinding& found = *matching();
  EXPECT_TRUE(found.verdict.kind == VerdictKind::kFail ||
              found.verdict.kind == VerdictKind::kWarn ||
              found.verdict.kind == VerdictKind::kUnverified)
      << Summarize(found.verdict);
  EXPECT_TRUE(found.stable) << found.reproduced << " of " << found.resends;
  ASSERT_FALSE(found.file.empty()) << found.file_error;

  const ReplayResult replayed = Replay(target.connect, found.file);
  ASSERT_EQ(replayed.cases.size(), 1U);
  EXPECT_TRUE(replayed.cases[0].error.empty()) << replayed.cases[0].error;
  EXPECT_TRUE(replayed.cases[0].still_fails);
  EXPECT_TRUE(replayed.cases[0].same_signature)
      << (replayed.cases[0].verdict ? Summarize(*replayed.cases[0].verdict) : "no verdict");

  const RefTarget conformant = StartRefServer(row->transport, {}, SweepLimits(3000ms), 200ms);
  const ReplayResult fixed = Replay(conformant.connect, found.file);
  ASSERT_EQ(fixed.cases.size(), 1U);
  EXPECT_TRUE(fixed.cases[0].error.empty()) << fixed.cases[0].error;
  EXPECT_FALSE(fixed.cases[0].still_fails)
      << (fixed.cases[0].verdict ? Summarize(*fixed.cases[0].verdict) : "no verdict");

  ExpectReproducerShowsIt(found.reproducer, found.verdict, *row, target, conformant);
}

// Every FAIL and WARN of the checklist against the fault (one per check), reproduced by shell.
TEST_P(FaultSweep, TheChecklistsReproducersShowIt) {
  const SweepRow* row = RowFor(GetParam().name);
  ASSERT_NE(row, nullptr);
  const RefTarget target =
      StartRefServer(row->transport, {std::string(row->fault)}, SweepLimits(row->timeout), 200ms);
  // Every check: the one that fails may need another's request first (a big line before
  // stdio.keeps-answering).
  checks::CheckOptions options;
  options.call_real_tools = row->call_real_tools;
  const checks::CheckRun run = checks::RunChecks(target.connect, options);
  const RefTarget conformant = StartRefServer(row->transport, {}, SweepLimits(3000ms), 200ms);
  std::set<std::string> reproduced;
  for (const checks::CheckResult& result : run.results) {
    const bool deviates =
        result.verdict.kind == VerdictKind::kFail || result.verdict.kind == VerdictKind::kWarn;
    // The conformant server gets no FAIL or WARN (check_the_checks_test.cc): every one here is
    // the fault's.
    if (!deviates) continue;
    if (!reproduced.insert(result.verdict.check_id).second) continue;
    ExpectReproducerShowsIt(checks::Reproducer(result, FaultyTarget(*row, target)), result.verdict,
                            *row, target, conformant);
  }
  if (reproduced.empty()) GTEST_SKIP() << "the checklist does not show " << row->fault;
}

TEST_P(FaultSweep, WhatFuzzingCannotReachTheChecklistFinds) {
  const SweepRow* row = RowFor(GetParam().name);
  ASSERT_NE(row, nullptr);
  if (row->unreachable_by_fuzzing.empty()) GTEST_SKIP() << "reached by fuzzing";
  const RefTarget target =
      StartRefServer(row->transport, {std::string(row->fault)}, SweepLimits(row->timeout), 200ms);
  checks::CheckOptions options;
  options.only = {std::string(row->check)};
  const checks::CheckRun run = checks::RunChecks(target.connect, options);
  const bool failed = std::any_of(run.results.begin(), run.results.end(), [&](const auto& result) {
    return Matches(*row, result.verdict) && result.verdict.kind == VerdictKind::kFail;
  });
  EXPECT_TRUE(failed) << "mcpfuzz check does not find " << row->fault << " either";
}

// The other half of the criterion: without faults, nothing is found. 20,000 cases over HTTP
// take a few seconds. Over stdio every notification waits out the quiet window, and a reply
// that comes later than the window is taken for the next request's, so on a loaded machine a
// short window shows up as false findings: stdio gets a 100 ms window and 1,000 cases.
void ExpectNoFinding(TransportKind transport, std::size_t cases, Limits limits,
                     const std::vector<std::string>& flags = {}) {
  const RefTarget target = StartRefServer(transport, {}, limits, 200ms, flags);
  CampaignOptions options;  // the default seed
  options.max_cases = cases;
  const CampaignResult result = RunCampaign(target.connect, options);
  // Every case drawn is sent, or held back under a budget (a big input, a stdio sequence).
  EXPECT_EQ(result.cases + result.big_inputs_held_back + result.sequences_held_back, cases)
      << Describe(result);
  EXPECT_TRUE(result.findings.empty()) << Describe(result);
  EXPECT_TRUE(result.notes.empty()) << Describe(result);
  EXPECT_EQ(result.revisions, (std::vector<Revision>{Revision::k2026_07_28, Revision::k2025_11_25,
                                                     Revision::k2025_03_26}));
}

TEST(ConformantReferenceServer, NoFindingIn20000HttpCases) {
  ExpectNoFinding(kHttp, 20000, SweepLimits(3000ms));
}

TEST(ConformantReferenceServer, NoFindingIn1000StdioCases) {
  Limits limits = SweepLimits(3000ms);
  limits.quiet_window = 100ms;
  ExpectNoFinding(kStdio, 1000, limits);
}

// The dual-era front (--dual-era) is conformant as well. Bounded here; the 20,000-case run per
// transport is a measurement (docs/real-servers.md, "Dual-era servers").
TEST(DualEraReferenceServer, NoFindingIn2000HttpCases) {
  ExpectNoFinding(kHttp, 2000, SweepLimits(3000ms), {"--dual-era"});
}

TEST(DualEraReferenceServer, NoFindingIn500StdioCases) {
  Limits limits = SweepLimits(3000ms);
  limits.quiet_window = 100ms;
  ExpectNoFinding(kStdio, 500, limits, {"--dual-era"});
}

INSTANTIATE_TEST_SUITE_P(AllFaults, FaultSweep,
                         ::testing::ValuesIn(refserver::AllFaults().begin(),
                                             refserver::AllFaults().end()),
                         [](const auto& test) {
                           std::string name(test.param.name);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace mcpfuzz::test_support

namespace mcpfuzz::refserver {
// Names the parameter in test output instead of dumping its bytes.
void PrintTo(const FaultInfo& info, std::ostream* out) { *out << info.name; }
}  // namespace mcpfuzz::refserver
