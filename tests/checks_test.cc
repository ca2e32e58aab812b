// The checklist of `mcpfuzz check` run against the reference server through the real
// transports: the conformant server passes every check that applies, and each of its fault
// switches fails (or warns) the check that names the deviation.

#include "checks/checks.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "model/json_depth.h"
#include "model/model.h"
#include "model/text.h"
#include "oracles/check_ids.h"
#include "oracles/expectations.h"
#include "refserver/faults.h"
#include "refserver/refserver.h"
#include "support/dropping_stdio.h"
#include "support/processes.h"
#include "support/reference_server.h"
#include "support/stdio_command.h"
#include "transport/server_process.h"
#include "transport/session.h"
#include "transport/transport.h"

namespace mcpfuzz::checks {
namespace {

using refserver::Fault;
using refserver::FaultSet;
using namespace std::chrono_literals;

constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;

Limits TestLimits(std::chrono::milliseconds timeout = 3000ms) {
  return test_support::ReferenceServerLimits(timeout, 50ms);
}

test_support::RefTarget StartRefServer(TransportKind kind, const FaultSet& faults, Limits limits) {
  return test_support::StartRefServer(kind, test_support::FaultNames(faults), limits);
}

CheckRun RunAgainst(TransportKind kind, const FaultSet& faults, const CheckOptions& options = {},
                    Limits limits = TestLimits()) {
  test_support::RefTarget target = StartRefServer(kind, faults, limits);
  return RunChecks(target.connect, options);
}

std::string Describe(const CheckResult& result) {
  return std::string(ToString(result.revision)) + " " + std::string(ToString(result.transport)) +
         " " + Summarize(result.verdict);
}

std::string DescribeAll(const CheckRun& run) {
  std::string text;
  for (const CheckResult& result : run.results) text += "  " + Describe(result) + "\n";
  return text;
}

bool Bad(const CheckResult& result) {
  return result.verdict.kind == VerdictKind::kFail || result.verdict.kind == VerdictKind::kWarn;
}

// The conformant runs are shared: each takes a second or so and several tests read them.
const CheckRun& ConformantRun(TransportKind kind) {
  static std::mutex mutex;
  static std::map<TransportKind, CheckRun> runs;
  std::lock_guard lock(mutex);
  auto found = runs.find(kind);
  if (found == runs.end()) found = runs.emplace(kind, RunAgainst(kind, {})).first;
  return found->second;
}

// Checks that never PASS against the conformant reference server, and why. Everything else in
// check::kAll must PASS in at least one revision.
std::set<std::string_view> NeverRunOver(TransportKind kind) {
  std::set<std::string_view> never = {
      // Needs a request this particular server requires a client capability for.
      check::kClientCapabilityRequired,
      // Calls a real tool: only with call_real_tools (see ArgsProbe below).
      check::kToolBadArguments,
  };
  // A request in flight can be cancelled only over stdio: over HTTP its POST holds the
  // connection.
  const std::set<std::string_view> stdio_only = {check::kStdoutOnlyJsonRpc, check::kNoEarlyExit,
                                                 check::kKeepsAnswering, check::kCancelledNoReply,
                                                 // A stdio connection has an era; HTTP none.
                                                 check::kInitializeAfterEraLock,
                                                 check::kEnvelopeAfterInitialize,
                                                 // Over HTTP L10 judges every later stream.
                                                 check::kProgressAfterResponse};
  for (std::string_view id : check::kAll) {
    const bool http_only =
        id.starts_with("headers.") || id.starts_with("sessions.") || id.starts_with("http.");
    if (kind == kHttp ? stdio_only.contains(id) : http_only) never.insert(id);
  }
  return never;
}

// Expects every tools/call in `run` to name an impossible tool; returns how many there were.
int ExpectReadOnly(const CheckRun& run) {
  const std::span<const std::string_view> impossible = ImpossibleToolNames();
  int calls = 0;
  for (const CheckResult& result : run.results) {
    for (const Exchange& exchange : result.exchanges) {
      if (exchange.request.RpcMethod() != "tools/call") continue;
      // limits.deep-nesting's body is past Boost.JSON's depth: its envelope is read alone.
      const auto body = ParseJsonEnvelope(exchange.request.WireBody());
      if (!body || !body->is_object()) {
        ADD_FAILURE() << "unreadable tools/call: " << exchange.request.WireBody().substr(0, 200);
        continue;
      }
      const auto* params = body->as_object().if_contains("params");
      const auto* name = params != nullptr ? params->as_object().if_contains("name") : nullptr;
      if (name == nullptr) continue;  // tools.missing-name
      ++calls;
      const bool named_impossible =
          name->is_string() && std::find(impossible.begin(), impossible.end(),
                                         std::string_view(name->as_string())) != impossible.end();
      EXPECT_TRUE(named_impossible) << "a real tool was called: " << boost::json::serialize(*name)
                                    << " in " << result.verdict.check_id;
    }
  }
  return calls;
}

// --- the list ---

TEST(AllChecks, ListsEveryCheckIdExactlyOnce) {
  std::multiset<std::string_view> listed;
  for (const CheckInfo& info : AllChecks()) {
    listed.insert(info.id);
    EXPECT_FALSE(info.title.empty()) << info.id;
  }
  for (std::string_view id : check::kAll) EXPECT_EQ(listed.count(id), 1U) << id;
  EXPECT_EQ(listed.size(), check::kAll.size());
}

TEST(Selected, MatchesIdsAndDottedPrefixes) {
  CheckOptions options;
  EXPECT_TRUE(Selected("tools.unknown-name", options));
  options.only = {"tools"};
  EXPECT_TRUE(Selected("tools.unknown-name", options));
  EXPECT_FALSE(Selected("methods.unknown", options));
  options.only = {"tool"};
  EXPECT_FALSE(Selected("tools.unknown-name", options)) << "a prefix ends at a dot";
  options.only = {"headers."};
  EXPECT_TRUE(Selected("headers.name-base64", options));
  EXPECT_FALSE(Selected("http.get", options));
  options.only = {"jsonrpc.invalid-request"};
  EXPECT_TRUE(Selected("jsonrpc.invalid-request.id-null", options));
  EXPECT_FALSE(Selected("jsonrpc.parse-error", options));
  options.only = {"http.get", "sessions"};
  EXPECT_TRUE(Selected("http.get", options));
  EXPECT_TRUE(Selected("sessions.delete", options));
  EXPECT_FALSE(Selected("http.origin-invalid", options));
  options.only = {};
  options.skip = {"jsonrpc", "tools.unknown-name"};
  EXPECT_FALSE(Selected("jsonrpc.parse-error", options));
  EXPECT_FALSE(Selected("tools.unknown-name", options));
  EXPECT_TRUE(Selected("tools.missing-name", options));
  options.only = {"tools"};
  EXPECT_FALSE(Selected("tools.unknown-name", options)) << "skip wins over only";
}

// --- the conformant reference server ---

class Conformant : public testing::TestWithParam<TransportKind> {};

TEST_P(Conformant, NoFailAndNoWarnAnywhere) {
  const CheckRun& run = ConformantRun(GetParam());
  ASSERT_FALSE(run.results.empty());
  for (const CheckResult& result : run.results) {
    EXPECT_TRUE(result.verdict.kind == VerdictKind::kPass ||
                result.verdict.kind == VerdictKind::kNotApplicable)
        << Describe(result);
    if (result.verdict.kind == VerdictKind::kNotApplicable) {
      EXPECT_FALSE(result.verdict.notes.empty())
          << "a NOT_APPLICABLE says why: " << Describe(result);
    }
  }
}

TEST_P(Conformant, RunsInTheNewestRevisionOfEachEraAndBatchesIn2025_03_26) {
  const CheckRun& run = ConformantRun(GetParam());
  EXPECT_EQ(run.eras.speaks.size(), 5U);
  std::map<Revision, std::set<std::string>> ids;
  for (const CheckResult& result : run.results) {
    EXPECT_EQ(result.transport, GetParam()) << Describe(result);
    ids[result.revision].insert(result.verdict.check_id);
  }
  // Every check reports once in each full revision (NOT_APPLICABLE where it does not apply).
  for (Revision revision : {Revision::k2026_07_28, Revision::k2025_11_25}) {
    EXPECT_EQ(ids[revision].size(), check::kAll.size()) << ToString(revision);
  }
  EXPECT_EQ(ids[Revision::k2025_03_26], (std::set<std::string>{std::string(check::kBatchAccepted),
                                                               std::string(check::kBatchEmpty)}));
  EXPECT_EQ(ids.size(), 3U);
}

TEST_P(Conformant, EveryApplicableCheckPasses) {
  const CheckRun& run = ConformantRun(GetParam());
  std::set<std::string, std::less<>> passed;
  for (const CheckResult& result : run.results) {
    if (result.verdict.kind == VerdictKind::kPass) passed.insert(result.verdict.check_id);
  }
  const std::set<std::string_view> never = NeverRunOver(GetParam());
  for (std::string_view id : check::kAll) {
    if (never.contains(id)) {
      EXPECT_FALSE(passed.contains(id)) << id << " should not run over " << ToString(GetParam());
    } else {
      EXPECT_TRUE(passed.contains(id)) << id << " never passed:\n" << DescribeAll(run);
    }
  }
}

TEST_P(Conformant, KeepsEveryExchangeForReproducers) {
  const CheckRun& run = ConformantRun(GetParam());
  for (const CheckResult& result : run.results) {
    if (result.verdict.kind == VerdictKind::kNotApplicable) continue;
    ASSERT_FALSE(result.exchanges.empty()) << Describe(result);
    ASSERT_LT(result.judged, result.exchanges.size()) << Describe(result);
    const Exchange& judged = result.exchanges[result.judged];
    EXPECT_EQ(judged.request.transport, GetParam());
    EXPECT_EQ(judged.request.revision, result.revision) << Describe(result);
  }
}

TEST_P(Conformant, IsReadOnly) { EXPECT_GT(ExpectReadOnly(ConformantRun(GetParam())), 4); }

TEST_P(Conformant, RecordsTheHandshakeControl) {
  const CheckRun& run = ConformantRun(GetParam());
  ASSERT_EQ(run.handshake_controls.size(), 1U);
  const HandshakeControl& control = run.handshake_controls.front();
  EXPECT_EQ(control.revision, Revision::k2025_11_25);
  if (GetParam() == kStdio) {
    // A fresh process refuses tools/list for lacking _meta, and serves it after initialize.
    EXPECT_EQ(control.pre_init.rejects, RejectsPreInit::kYes) << control.pre_init.reason;
    EXPECT_EQ(control.pre_init.grounds, RefusalGrounds::kOrdering) << control.pre_init.reason;
  } else {
    // In a session before notifications/initialized the reference server already serves.
    EXPECT_EQ(control.pre_init.rejects, RejectsPreInit::kNo) << control.pre_init.reason;
  }
}

TEST(ConformantHttp, AttachesTheSessionIdInTheHandshakeEra) {
  const CheckRun& run = ConformantRun(kHttp);
  int with_session = 0;
  for (const CheckResult& result : run.results) {
    if (result.revision != Revision::k2025_11_25 || result.exchanges.empty()) continue;
    const Exchange& judged = result.exchanges[result.judged];
    if (result.verdict.check_id == check::kUnknownTool) {
      EXPECT_FALSE(judged.session_id.empty());
      ++with_session;
    }
    if (result.verdict.check_id == check::kSessionUnknown) {
      EXPECT_EQ(judged.session_id, "mcpfuzz-unknown-session-4f1c9a");
    }
    if (result.verdict.check_id == check::kSessionMissing) {
      EXPECT_TRUE(judged.session_id.empty());
    }
  }
  EXPECT_EQ(with_session, 1);
}

TEST(ConformantHttp, TheUnknownToolIsAskedTwiceUnderTwoNames) {
  const CheckRun& run = ConformantRun(kHttp);
  for (const CheckResult& result : run.results) {
    if (result.verdict.check_id != check::kUnknownTool) continue;
    EXPECT_EQ(result.exchanges.size(), 4U);
    std::set<std::string> names;
    for (const Exchange& exchange : result.exchanges) {
      names.insert(std::string(exchange.request.BodyJson()->at("params").at("name").as_string()));
    }
    EXPECT_EQ(names.size(), 2U);
    const auto& notes = result.verdict.notes;
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
      return note.starts_with("all 4 answers alike");
    })) << Describe(result);
  }
}

TEST_P(Conformant, RunsInTheSameOrderEveryTime) {
  const CheckRun& first = ConformantRun(GetParam());
  CheckOptions options;
  options.revision = Revision::k2026_07_28;
  const CheckRun second = RunAgainst(GetParam(), {}, options);
  std::vector<std::string> expected;
  for (const CheckResult& result : first.results) {
    if (result.revision == Revision::k2026_07_28) expected.push_back(result.verdict.check_id);
  }
  std::vector<std::string> again;
  for (const CheckResult& result : second.results) again.push_back(result.verdict.check_id);
  EXPECT_EQ(again, expected);
}

INSTANTIATE_TEST_SUITE_P(Transports, Conformant, testing::Values(kHttp, kStdio),
                         [](const auto& param) { return std::string(ToString(param.param)); });

// --- selection and options ---

TEST(Options, OnlyAndSkipSelectWhatRunsAndProgressSeesEachResult) {
  CheckOptions options;
  options.only = {"tools", "headers.name-missing"};
  options.skip = {"tools.arguments-not-object"};
  test_support::RefTarget target = StartRefServer(kHttp, {}, TestLimits());
  std::vector<std::string> progressed;
  const CheckRun run = RunChecks(target.connect, options, [&](const CheckResult& result) {
    progressed.push_back(result.verdict.check_id);
  });
  std::set<std::string> ids;
  for (const CheckResult& result : run.results) ids.insert(result.verdict.check_id);
  EXPECT_EQ(ids, (std::set<std::string>{"tools.unknown-name", "tools.missing-name",
                                        "tools.bad-arguments", "headers.name-missing"}));
  EXPECT_EQ(progressed.size(), run.results.size());
  EXPECT_TRUE(run.handshake_controls.empty());
}

TEST(Options, ARevisionRunsOnlyThatRevision) {
  CheckOptions options;
  options.revision = Revision::k2025_03_26;
  options.only = {"batch", "sessions", "headers.protocol-version-missing"};
  const CheckRun run = RunAgainst(kHttp, {}, options);
  std::map<std::string, VerdictKind> kinds;
  for (const CheckResult& result : run.results) {
    EXPECT_EQ(result.revision, Revision::k2025_03_26);
    kinds[result.verdict.check_id] = result.verdict.kind;
  }
  EXPECT_EQ(kinds[std::string(check::kBatchAccepted)], VerdictKind::kPass) << DescribeAll(run);
  EXPECT_EQ(kinds[std::string(check::kBatchEmpty)], VerdictKind::kPass) << DescribeAll(run);
  EXPECT_EQ(kinds[std::string(check::kBatchRejected)], VerdictKind::kNotApplicable);
  EXPECT_EQ(kinds[std::string(check::kSessionDelete)], VerdictKind::kPass);
  // The header exists from 2025-06-18 on.
  EXPECT_EQ(kinds[std::string(check::kProtocolVersionHeaderMissing)], VerdictKind::kNotApplicable);
}

TEST(Options, ARevisionNotSpokenIsUnverified) {
  CheckOptions options;
  options.revision = Revision::k2025_11_25;
  options.only = {"tools.unknown-name", "lifecycle.initialize"};
  // A stdio "server" that never answers: nothing is spoken, every verdict is UNVERIFIED.
  Limits limits = TestLimits(200ms);
  // cat starts at once: its silence is not a start-up.
  limits.startup_timeout = 200ms;
  const TransportFactory connect =
      test_support::StdioCommand({"/bin/sh", "-c", "exec cat > /dev/null"}, limits, 100ms);
  const CheckRun run = RunChecks(connect, options);
  EXPECT_TRUE(run.eras.speaks.empty());
  ASSERT_EQ(run.results.size(), 2U) << DescribeAll(run);
  for (const CheckResult& result : run.results) {
    EXPECT_EQ(result.verdict.kind, VerdictKind::kUnverified) << Describe(result);
    EXPECT_EQ(result.verdict.unverified_reason, UnverifiedReason::kEraNotSpoken)
        << Describe(result);
  }
}

// A server/discover that succeeds without listing 2026-07-28: the revision is not judged, and
// the discover itself is the one finding (tables §4b V3, V5), once; a server whose discover
// fails (no 2026-07-28 at all) gets no such verdict.
TEST(Options, ADiscoverThatDoesNotListItsRevisionIsItselfTheFinding) {
  CheckOptions options;
  options.only = {"discover.result"};
  const auto in_2026 = [](const CheckRun& run) {
    std::vector<const CheckResult*> found;
    for (const CheckResult& result : run.results) {
      if (result.revision == Revision::k2026_07_28) found.push_back(&result);
    }
    return found;
  };
  const CheckRun unlisted =
      RunChecks(test_support::StdioCommand(
                    test_support::FixtureArgv("era_server.py", {"--discover-lists-2025"}),
                    TestLimits(5000ms), 300ms),
                options);
  ASSERT_EQ(in_2026(unlisted).size(), 1U) << DescribeAll(unlisted);
  const CheckResult& result = *in_2026(unlisted).front();
  EXPECT_EQ(result.verdict.kind, VerdictKind::kFail) << Describe(result);
  EXPECT_NE(Describe(result).find("does not list 2026-07-28"), std::string::npos)
      << Describe(result);
  EXPECT_FALSE(unlisted.eras.Speaks(Revision::k2026_07_28));

  const CheckRun no_discover =
      RunChecks(test_support::StdioCommand(test_support::FixtureArgv("era_server.py"),
                                           TestLimits(5000ms), 300ms),
                options);
  EXPECT_TRUE(in_2026(no_discover).empty()) << DescribeAll(no_discover);
}

TEST(ArgsProbe, CallsARealToolOnlyWhenAskedAndNamesTheArgument) {
  CheckOptions options;
  options.only = {"tools.bad-arguments"};
  const CheckRun read_only = RunAgainst(kStdio, {}, options);
  for (const CheckResult& result : read_only.results) {
    EXPECT_EQ(result.verdict.kind, VerdictKind::kNotApplicable) << Describe(result);
    EXPECT_TRUE(result.exchanges.empty()) << "nothing is sent without call_real_tools";
  }
  options.call_real_tools = true;
  const CheckRun run = RunAgainst(kStdio, {}, options);
  ASSERT_EQ(run.results.size(), 2U) << DescribeAll(run);
  for (const CheckResult& result : run.results) {
    EXPECT_EQ(result.verdict.kind, VerdictKind::kPass) << Describe(result);
    // tools/list, then echo with {} and with a number for its string `message`.
    ASSERT_EQ(result.exchanges.size(), 3U) << Describe(result);
    EXPECT_EQ(result.exchanges[1].request.BodyJson()->at("params").at("name"), "echo");
  }
}

// --- a stdio server that dies ---

TEST(StdioDeath, IsTheFindingOfTheCheckThatCausedItAndTheServerIsRestarted) {
  CheckOptions options;
  options.only = {"stdio", "tools.unknown-name"};
  options.revision = Revision::k2025_11_25;
  // Nesting deeper than 64 levels aborts this server: the keeps-answering probe does that.
  const CheckRun run = RunAgainst(kStdio, {Fault::kCrashOnDeepNesting}, options);
  std::map<std::string, const CheckResult*> by_id;
  for (const CheckResult& result : run.results) by_id[result.verdict.check_id] = &result;
  ASSERT_EQ(by_id.size(), 4U) << DescribeAll(run);

  const CheckResult& exit = *by_id.at(std::string(check::kNoEarlyExit));
  EXPECT_EQ(exit.verdict.kind, VerdictKind::kFail) << Describe(exit);
  const Exchange& fatal = exit.exchanges.at(exit.judged);
  EXPECT_EQ(fatal.observation.exit_signal, SIGABRT);
  EXPECT_NE(fatal.request.WireBody().find("mcpfuzz/nested"), std::string::npos);
  const auto& notes = exit.verdict.notes;
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
    return note.find("during stdio.keeps-answering") != std::string::npos;
  })) << Describe(exit);

  // The crash is no-early-exit's finding alone (as fuzz judges it), so keeps-answering only
  // notes it; the restarted server answers the request after it.
  const CheckResult& answering = *by_id.at(std::string(check::kKeepsAnswering));
  EXPECT_EQ(answering.verdict.kind, VerdictKind::kPass) << Describe(answering);
  EXPECT_TRUE(std::any_of(answering.verdict.notes.begin(), answering.verdict.notes.end(),
                          [](const std::string& note) {
                            return note.find("which stdio.no-early-exit judges") !=
                                   std::string::npos;
                          }))
      << Describe(answering);
  ASSERT_EQ(answering.exchanges.size(), 3U);
  EXPECT_EQ(
      ClassifyReply(answering.exchanges[2].request, answering.exchanges[2].observation).channel,
      Channel::kSuccess);
  EXPECT_EQ(by_id.at(std::string(check::kUnknownTool))->verdict.kind, VerdictKind::kPass);
  EXPECT_EQ(by_id.at(std::string(check::kStdoutOnlyJsonRpc))->verdict.kind, VerdictKind::kPass);
}

// --- a stdio server that drops what it cannot answer ---

TEST(StdioDrops, AreJudgedAsSilenceInOneRoundTripNotAfterATimeout) {
  // Every real stdio stack drops a line it cannot parse without a word. The sentinel written
  // behind each such request shows the server read past it: the tables' "silent" column judges
  // it, where waiting out the timeout would leave it UNVERIFIED and restart the server.
  auto counts = std::make_shared<test_support::DroppingStdioCounts>();
  CheckOptions options;
  options.only = {"jsonrpc.", "stdio."};
  options.revision = Revision::k2025_11_25;
  const CheckRun run = RunChecks(test_support::DroppingStdioFactory({}, counts), options);
  ASSERT_FALSE(run.results.empty());
  std::size_t silent = 0;
  for (const CheckResult& result : run.results) {
    EXPECT_NE(result.verdict.kind, VerdictKind::kUnverified) << Describe(result);
    if (result.verdict.observed.channel == Channel::kNoReply) ++silent;
    if (result.verdict.check_id == check::kParseError) {
      EXPECT_EQ(result.verdict.kind, VerdictKind::kWarn) << Describe(result);
      EXPECT_EQ(result.verdict.observed.channel, Channel::kNoReply) << Describe(result);
    }
  }
  EXPECT_GT(silent, 1U) << DescribeAll(run);
  EXPECT_EQ(counts->timeouts.load(), 0U) << "a drop waited out the timeout";
}

// A second response that comes after the exchange ended, just before the reply to the next
// request: set aside by the transport so it is never taken for that reply, and judged on the
// request it repeats, by the one-response rule. The reproducer sends that request and the next
// one: its output carries the id twice.
TEST(StdioRepeats, OutsideTheWindowAreJudgedOnTheRequestTheyRepeat) {
  CheckOptions options;
  options.only = {std::string(check::kUnknownMethod), std::string(check::kUnknownTool)};
  options.revision = Revision::k2025_11_25;
  const std::vector<std::string> argv =
      test_support::FixtureArgv("conformant_stdio.py", {"--repeats-errors-late"});
  const CheckRun run = RunChecks(test_support::StdioCommand(argv, TestLimits(), 200ms), options);
  ASSERT_EQ(run.results.size(), 2U) << DescribeAll(run);
  for (const CheckResult& result : run.results) {
    EXPECT_EQ(result.verdict.kind, VerdictKind::kFail) << Describe(result);
    const bool named = std::any_of(
        result.verdict.findings.begin(), result.verdict.findings.end(), [](const Finding& finding) {
          return finding.text.find("got 2 responses") != std::string::npos;
        });
    EXPECT_TRUE(named) << Describe(result);
    ASSERT_TRUE(result.history_from.has_value()) << Describe(result);
    const Request& repeated = result.exchanges[*result.history_from].request;
    const std::string line = Reproducer(result, {TransportKind::kStdio, "", argv, {}});
    const std::string output =
        test_support::RunShell("timeout 30 bash -c " + ShellQuote(line)).output;
    const std::string id = "\"id\":" + boost::json::serialize(*repeated.RpcId()) + ",";
    const std::size_t first = output.find(id);
    ASSERT_NE(first, std::string::npos) << output;
    EXPECT_NE(output.find(id, first + 1), std::string::npos) << output;
  }
  const CheckRun conformant =
      RunChecks(test_support::StdioCommand(test_support::FixtureArgv("conformant_stdio.py"),
                                           TestLimits(), 200ms),
                options);
  for (const CheckResult& result : conformant.results) {
    EXPECT_EQ(result.verdict.kind, VerdictKind::kPass) << Describe(result);
  }
}

// --- the line that deafens, on a process of its own ---

// Over stdio the body over 10 MiB, which deafens every stack measured and then costs a whole
// time limit, is sent on a server process of its own from the start of the revision, so that
// the wait runs beside the checks before it. The fixture proves the overlap by events: it
// answers the big line only once another of its processes has read limits.deep-nesting's
// request, which it answers only once the big line was read; a run that sent the big line
// after that request's answer would get neither answered.
TEST(StdioBigLine, IsSentOnAProcessOfItsOwnBesideTheChecksBeforeIt) {
  const test_support::ScratchDirectory meeting("big-line-meets-nesting");
  std::filesystem::create_directories(meeting.path());
  CheckOptions options;
  options.only = {std::string(check::kDeepNesting), std::string(check::kOversizedRequest)};
  options.revision = Revision::k2025_11_25;
  const std::vector<std::string> argv =
      test_support::FixtureArgv("big_line_meets_nesting.py", {meeting.path().string()});
  // A limit far above a start-up and a 10 MiB write on a loaded machine: the waits end on what
  // the processes read, and the limit only bounds a run that gets it wrong.
  const CheckRun run = RunChecks(test_support::StdioCommand(argv, TestLimits(60s), 200ms), options);
  ASSERT_EQ(run.results.size(), 2U) << DescribeAll(run);
  for (const CheckResult& result : run.results) {
    EXPECT_EQ(result.verdict.kind, VerdictKind::kPass) << Describe(result);
  }
  const CheckResult& oversized = run.results[1];
  ASSERT_EQ(oversized.verdict.check_id, check::kOversizedRequest);
  const auto big = std::find_if(oversized.exchanges.begin(), oversized.exchanges.end(),
                                [](const Exchange& exchange) {
                                  return exchange.request.WireSize() > (std::size_t{10} << 20);
                                });
  ASSERT_NE(big, oversized.exchanges.end()) << Describe(oversized);
  EXPECT_EQ(ClassifyReply(big->request, big->observation).channel, Channel::kSuccess)
      << big->observation.detail;
}

// --- the revisions of a stdio target at once ---

// What a run reports, in order: each check's revision, id, verdict and findings, and the notes.
std::vector<std::string> Outline(const CheckRun& run) {
  std::vector<std::string> lines;
  for (const CheckResult& result : run.results) {
    std::string line = Describe(result);
    for (const Finding& finding : result.verdict.findings) line += " | " + finding.text;
    lines.push_back(std::move(line));
  }
  for (const std::string& note : run.notes) lines.push_back("note: " + note);
  return lines;
}

std::size_t RevisionsIn(const CheckRun& run) {
  std::set<Revision> revisions;
  for (const CheckResult& result : run.results) revisions.insert(result.revision);
  return revisions.size();
}

// Checks methods.unknown (2025-11-25) and batch.accepted (2025-03-26) against a stdio fixture
// whose processes meet in a folder of their own, and expects both to PASS. `limit` bounds only a
// run that gets it wrong.
void ExpectBothRevisionsJudged(const std::string& fixture, CheckOptions options,
                               std::chrono::milliseconds limit) {
  const test_support::ScratchDirectory folder(
      fixture + (options.revisions_at_once ? "-at-once" : "-in-turn"));
  std::filesystem::create_directories(folder.path());
  options.only = {std::string(check::kUnknownMethod), std::string(check::kBatchAccepted)};
  const CheckRun run = RunChecks(
      test_support::StdioCommand(test_support::FixtureArgv(fixture, {folder.path().string()}),
                                 TestLimits(limit), 200ms),
      options);
  std::map<std::pair<Revision, std::string>, VerdictKind> verdicts;
  for (const CheckResult& result : run.results) {
    verdicts[{result.revision, result.verdict.check_id}] = result.verdict.kind;
  }
  EXPECT_EQ((verdicts[{Revision::k2025_11_25, std::string(check::kUnknownMethod)}]),
            VerdictKind::kPass)
      << DescribeAll(run);
  EXPECT_EQ((verdicts[{Revision::k2025_03_26, std::string(check::kBatchAccepted)}]),
            VerdictKind::kPass)
      << DescribeAll(run);
}

// Over stdio each revision is checked on server processes of its own, at the same time as the
// others. The fixture proves it by events: a 2025-11-25 process answers an unknown method only
// once a 2025-03-26 process has read a batch, which it answers only once the unknown method
// was read. One revision after the other leaves the unknown method unanswered (checked by
// hand: with revisions_at_once off methods.unknown waits out the limit, UNVERIFIED).
TEST(RevisionsAtOnce, OverStdioEachRevisionRunsBesideTheOthers) {
  // A limit far above a start-up on a loaded machine: the waits end on what the processes read.
  ExpectBothRevisionsJudged("revisions_meet.py", CheckOptions{}, 60s);
}

// Checked at once, the revisions are reported as one after the other reports them: the same
// checks in the same order, with the same verdicts, findings and notes.
class RevisionsAtOnceAgainst : public testing::TestWithParam<FaultSet> {};

TEST_P(RevisionsAtOnceAgainst, TheReferenceServerJudgedAsOneAfterTheOther) {
  CheckOptions in_turn;
  in_turn.revisions_at_once = false;
  const CheckRun apart = RunAgainst(kStdio, GetParam(), in_turn);
  const CheckRun at_once = RunAgainst(kStdio, GetParam());
  ASSERT_GT(RevisionsIn(at_once), 1U) << DescribeAll(at_once);
  EXPECT_EQ(Outline(at_once), Outline(apart));
}

INSTANTIATE_TEST_SUITE_P(Faults, RevisionsAtOnceAgainst,
                         testing::Values(FaultSet{}, FaultSet{Fault::kUnknownToolIsError,
                                                              Fault::kCrashOnDeepNesting,
                                                              Fault::kMissingMetaServed,
                                                              Fault::kBatchRejectedIn2025_03_26}));

// The first revision gives up on a server deaf once the era probe has asked it each version:
// the revisions checked beside it are reported as one after the other reports them, with
// nothing sent.
TEST(RevisionsAtOnce, AfterGivingUpInOneTheLaterAreReportedAsInTurn) {
  auto run = [](bool at_once) {
    const test_support::ScratchDirectory answered(at_once ? "deaf-at-once" : "deaf-in-turn");
    std::filesystem::create_directories(answered.path());
    CheckOptions options;
    options.revisions_at_once = at_once;
    // A deaf start-up waits out the start-up limit: a shorter one keeps the test short (five
    // Python processes start in well under 5 s on a loaded machine). Both runs meet the same
    // limits, so what they report stays alike whatever the load.
    Limits limits = TestLimits(1000ms);
    limits.startup_timeout = 5000ms;
    return RunChecks(
        test_support::StdioCommand(
            test_support::FixtureArgv("deaf_after_initialize.py", {answered.path().string()}),
            limits, 200ms),
        options);
  };
  const CheckRun apart = run(false);
  const CheckRun at_once = run(true);
  ASSERT_GT(RevisionsIn(at_once), 1U) << DescribeAll(at_once);
  ASSERT_FALSE(at_once.notes.empty());
  EXPECT_NE(at_once.notes.front().find("gave up on the target"), std::string::npos);
  EXPECT_EQ(Outline(at_once), Outline(apart));
}

// Over stdio each revision goes on with the era probe's server process in it instead of starting
// another: the fixture answers each version's initialize in one process only, so a revision
// that started its own would get no answer to it, and its checks none at all (UNVERIFIED).
TEST(EraProbeProcesses, EachRevisionGoesOnWithTheProbesProcessInIt) {
  for (const bool at_once : {true, false}) {
    SCOPED_TRACE(at_once ? "revisions at once" : "one revision after the other");
    CheckOptions options;
    options.revisions_at_once = at_once;
    ExpectBothRevisionsJudged("initialize_once.py", options, 20s);
  }
}

// --- rate limiting ---

// Hands a request that a test front let through to the reference server, and its reply back.
void PassToReferenceServer(refserver::ReferenceServer& server, const httplib::Request& request,
                           httplib::Response& response) {
  refserver::HttpRequest received;
  received.method = request.method;
  received.path = request.path;
  for (const auto& [name, value] : request.headers) received.headers.push_back({name, value});
  received.body = request.body;
  refserver::HttpReply reply = server.HandleHttp(received);
  response.status = reply.status;
  std::string content_type = "application/json";
  for (const Header& header : reply.headers) {
    if (header.name == "Content-Type") {
      content_type = header.value;
    } else {
      response.set_header(header.name, header.value);
    }
  }
  response.set_content(reply.body, content_type);
}

// The reference server behind a front that answers each distinct tools/call body 429 the first
// `refusals` times, as a rate-limiting gateway would.
class RateLimitedServer {
 public:
  RateLimitedServer(int refusals, std::optional<std::string> retry_after)
      : refusals_(refusals), retry_after_(std::move(retry_after)) {
    http_.Post(".*", [this](const httplib::Request& request, httplib::Response& response) {
      Handle(request, response);
    });
    port_ = http_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { http_.listen_after_bind(); });
    while (!http_.is_running()) std::this_thread::sleep_for(1ms);
  }
  ~RateLimitedServer() {
    http_.stop();
    thread_.join();
  }
  RateLimitedServer(const RateLimitedServer&) = delete;
  RateLimitedServer& operator=(const RateLimitedServer&) = delete;

  TransportFactory Connect() const {
    return [url = "http://127.0.0.1:" + std::to_string(port_) + "/mcp"] {
      return OpenHttp(HttpTarget{url, {}, false, TestLimits()});
    };
  }

 private:
  void Handle(const httplib::Request& request, httplib::Response& response) {
    if (request.body.find("\"tools/call\"") != std::string::npos) {
      std::lock_guard lock(mutex_);
      if (refused_[request.body]++ < refusals_) {
        response.status = 429;
        if (retry_after_) response.set_header("Retry-After", *retry_after_);
        response.set_content("Too Many Requests", "text/plain");
        return;
      }
    }
    PassToReferenceServer(server_, request, response);
  }

  const int refusals_;
  const std::optional<std::string> retry_after_;
  refserver::ReferenceServer server_;
  httplib::Server http_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::map<std::string, int> refused_;
};

CheckOptions UnknownToolOnly() {
  CheckOptions options;
  options.only = {"tools.unknown-name"};
  options.revision = Revision::k2026_07_28;
  options.retry_spacing = 50ms;
  options.max_retry_after = 100ms;
  return options;
}

TEST(RateLimits, A429IsRetriedOnceAfterRetryAfter) {
  RateLimitedServer server(1, "0");
  const CheckRun run = RunChecks(server.Connect(), UnknownToolOnly());
  ASSERT_EQ(run.results.size(), 1U) << DescribeAll(run);
  const CheckResult& result = run.results.front();
  EXPECT_EQ(result.verdict.kind, VerdictKind::kPass) << Describe(result);
  // Four calls, each refused once and then answered.
  ASSERT_EQ(result.exchanges.size(), 8U);
  for (std::size_t i = 0; i < 8; i += 2) {
    EXPECT_EQ(result.exchanges[i].observation.http_status, 429);
    EXPECT_EQ(result.exchanges[i + 1].request, result.exchanges[i].request);
    EXPECT_EQ(result.exchanges[i + 1].observation.http_status, 200);
  }
}

TEST(RateLimits, A429ThatPersistsIsUnverifiedAndTheWaitIsCapped) {
  // Retry-After asks for an hour; max_retry_after caps the wait at 100 ms.
  RateLimitedServer server(100, "3600");
  const auto start = std::chrono::steady_clock::now();
  const CheckRun run = RunChecks(server.Connect(), UnknownToolOnly());
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_EQ(run.results.size(), 1U) << DescribeAll(run);
  const CheckResult& result = run.results.front();
  EXPECT_EQ(result.verdict.kind, VerdictKind::kUnverified) << Describe(result);
  EXPECT_EQ(result.verdict.unverified_reason, UnverifiedReason::kRateLimited);
  EXPECT_EQ(result.exchanges.size(), 8U);
  EXPECT_GE(elapsed, 4 * 100ms);
  EXPECT_LT(elapsed, 3s);
}

TEST(RateLimits, WithoutRetryAfterTheRetrySpacingIsUsed) {
  RateLimitedServer server(100, std::nullopt);
  const auto start = std::chrono::steady_clock::now();
  const CheckRun run = RunChecks(server.Connect(), UnknownToolOnly());
  EXPECT_GE(std::chrono::steady_clock::now() - start, 4 * 50ms);
  ASSERT_EQ(run.results.size(), 1U);
  EXPECT_EQ(run.results.front().verdict.unverified_reason, UnverifiedReason::kRateLimited);
}

// --- targets that stop answering in time ---

// The reference server behind an HTTP front that answers only what opens a handshake-era
// connection (initialize, notifications) and refuses server/discover: every other POST, ping
// included, waits out the client's timeout. Counts the requests it left hanging.
class DeafAfterOpeningServer {
 public:
  DeafAfterOpeningServer() {
    http_.Post(".*", [this](const httplib::Request& request, httplib::Response& response) {
      Handle(request, response);
    });
    port_ = http_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { http_.listen_after_bind(); });
    while (!http_.is_running()) std::this_thread::sleep_for(1ms);
  }
  ~DeafAfterOpeningServer() {
    stopping_ = true;
    http_.stop();
    thread_.join();
  }
  DeafAfterOpeningServer(const DeafAfterOpeningServer&) = delete;
  DeafAfterOpeningServer& operator=(const DeafAfterOpeningServer&) = delete;

  TransportFactory Connect() const {
    return [url = "http://127.0.0.1:" + std::to_string(port_) + "/mcp"] {
      return OpenHttp(HttpTarget{url, {}, false, TestLimits(1000ms)});
    };
  }
  int hung() const { return hung_; }

 private:
  void Handle(const httplib::Request& request, httplib::Response& response) {
    const bool opens = request.body.find("\"method\":\"initialize\"") != std::string::npos ||
                       request.body.find("\"method\":\"notifications/") != std::string::npos;
    if (request.body.find("\"method\":\"server/discover\"") != std::string::npos) {
      // Speaks the handshake era only.
      const auto id = boost::json::parse(request.body).as_object().at("id");
      response.status = 404;
      response.set_content(boost::json::serialize(boost::json::object{
                               {"jsonrpc", "2.0"},
                               {"id", id},
                               {"error", {{"code", -32601}, {"message", "Method not found"}}}}),
                           "application/json");
      return;
    }
    if (!opens) {
      ++hung_;
      // Far beyond the client's timeout; the destructor cuts it short.
      for (int i = 0; i < 500 && !stopping_; ++i) std::this_thread::sleep_for(10ms);
      return;
    }
    PassToReferenceServer(server_, request, response);
  }

  refserver::ReferenceServer server_;
  httplib::Server http_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> hung_{0};
};

bool TimedOut(const CheckResult& result) {
  return std::any_of(result.exchanges.begin(), result.exchanges.end(),
                     [](const Exchange& e) { return e.observation.outcome == Outcome::kTimeout; });
}

TEST(GivingUp, AfterThreeHarmlessRequestsUnansweredNothingMoreIsSentInAnyRevision) {
  DeafAfterOpeningServer server;
  const CheckRun run = RunChecks(server.Connect(), CheckOptions{});
  // The hung request is followed by a ping, which hangs too, and by pings while they hang: the
  // target hangs on everything. After the third ping nothing more is sent, in this revision or
  // a later one.
  EXPECT_EQ(server.hung(), 1 + mcpfuzz::TargetLink::kUnansweredBeforeGivingUp) << DescribeAll(run);
  ASSERT_EQ(run.notes.size(), 1U) << DescribeAll(run);
  EXPECT_NE(run.notes.front().find("gave up on the target"), std::string::npos);

  std::set<Revision> revisions;
  int failed = 0;
  int not_sent = 0;
  for (const CheckResult& result : run.results) {
    revisions.insert(result.revision);
    const Verdict& verdict = result.verdict;
    if (TimedOut(result)) {
      // The hang itself is the finding.
      ++failed;
      EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Describe(result);
      ASSERT_FALSE(verdict.findings.empty()) << Describe(result);
      EXPECT_NE(verdict.findings.back().text.find("hung on a POST"), std::string::npos);
      continue;
    }
    if (verdict.kind != VerdictKind::kUnverified) continue;
    ++not_sent;
    EXPECT_EQ(verdict.unverified_reason, UnverifiedReason::kTransportError) << Describe(result);
    const bool says_why =
        std::any_of(verdict.notes.begin(), verdict.notes.end(), [](const std::string& note) {
          return note.find("the last 3 harmless requests") != std::string::npos;
        });
    EXPECT_TRUE(says_why) << Describe(result);
  }
  EXPECT_EQ(failed, 1) << DescribeAll(run);
  EXPECT_GT(not_sent, 10) << DescribeAll(run);
  EXPECT_GT(revisions.size(), 1U) << "the revisions after the give-up are reported too";
}

// Timeouts with answered exchanges between them are not consecutive: a server that hangs only
// on unknown tools is judged check by check, as before, and nothing is left unsent.
TEST(GivingUp, TimeoutsBetweenAnsweredExchangesNeverGiveUp) {
  const CheckRun run = RunAgainst(kHttp, {Fault::kHangOnUnknownTool}, {}, TestLimits(400ms));
  EXPECT_TRUE(run.notes.empty()) << DescribeAll(run);
  int timed_out = 0;
  for (const CheckResult& result : run.results) {
    if (TimedOut(result)) {
      ++timed_out;
      EXPECT_EQ(result.verdict.kind, VerdictKind::kFail) << Describe(result);
    }
    EXPECT_NE(result.verdict.kind, VerdictKind::kUnverified) << Describe(result);
  }
  EXPECT_GE(timed_out, 3) << DescribeAll(run);
}

TEST_P(Conformant, NeverGivesUp) { EXPECT_TRUE(ConformantRun(GetParam()).notes.empty()); }

// --- the dual-era reference server (--dual-era) ---

// A front for both eras as the dual-era SDKs are: unmarked HTTP requests on its legacy leg,
// stdio connections locked by their first served era-distinctive request (tables §10 X6, §4b
// V16). It is conformant too, so nothing fails or warns.
const CheckRun& DualEraRun(TransportKind kind) {
  static std::mutex mutex;
  static std::map<TransportKind, CheckRun> runs;
  std::lock_guard lock(mutex);
  auto found = runs.find(kind);
  if (found == runs.end()) {
    test_support::RefTarget target =
        test_support::StartRefServer(kind, {}, TestLimits(), 300ms, {"--dual-era"});
    found = runs.emplace(kind, RunChecks(target.connect, {})).first;
  }
  return found->second;
}

class DualEra : public testing::TestWithParam<TransportKind> {};

TEST_P(DualEra, NoFailAndNoWarnAnywhere) {
  const CheckRun& run = DualEraRun(GetParam());
  ASSERT_FALSE(run.results.empty());
  EXPECT_TRUE(run.notes.empty());
  for (const CheckResult& result : run.results) {
    EXPECT_TRUE(result.verdict.kind == VerdictKind::kPass ||
                result.verdict.kind == VerdictKind::kNotApplicable)
        << Describe(result);
  }
}

// The checks a dual-era server used to fail falsely ran and passed in 2026-07-28.
TEST_P(DualEra, TheEnvelopeChecksRanAndPassed) {
  for (std::string_view id : {check::kMetaMissing, check::kMetaPartial}) {
    const CheckRun& run = DualEraRun(GetParam());
    const auto found = std::find_if(run.results.begin(), run.results.end(), [&](const auto& r) {
      return r.verdict.check_id == id && r.revision == Revision::k2026_07_28;
    });
    ASSERT_NE(found, run.results.end()) << id;
    EXPECT_EQ(found->verdict.kind, VerdictKind::kPass) << Describe(*found);
  }
}

// Tables §4b V16a, V16b: a stdio connection's era, locked either way, was asked about and held.
TEST_P(DualEra, TheEraLockChecksRanAndPassedOverStdio) {
  if (GetParam() != kStdio) GTEST_SKIP() << "over HTTP a connection has no era";
  const CheckRun& run = DualEraRun(GetParam());
  for (std::string_view id : {check::kInitializeAfterEraLock, check::kEnvelopeAfterInitialize}) {
    const auto found = std::find_if(run.results.begin(), run.results.end(), [&](const auto& r) {
      return r.verdict.check_id == id && r.revision == Revision::k2026_07_28;
    });
    ASSERT_NE(found, run.results.end()) << id;
    EXPECT_EQ(found->verdict.kind, VerdictKind::kPass) << Describe(*found);
  }
}

INSTANTIATE_TEST_SUITE_P(Transports, DualEra, testing::Values(kHttp, kStdio),
                         [](const auto& param) { return std::string(ToString(param.param)); });

// Tables F1a: the parse-error check's invalid-UTF-8 variant is JSON once its bad bytes are
// read as U+FFFD, so the row that tolerates serving it judges it; the other variants keep the
// strict row.
TEST_P(Conformant, TheInvalidUtf8VariantIsJudgedByItsOwnRow) {
  const CheckRun& run = ConformantRun(GetParam());
  int invalid_utf8 = 0;
  for (const CheckResult& result : run.results) {
    if (result.verdict.check_id != check::kParseError) continue;
    for (const Exchange& exchange : result.exchanges) {
      const Expectation* row = FindExpectation(check::kParseError, exchange.request);
      ASSERT_NE(row, nullptr);
      const bool utf8 = !IsValidUtf8(exchange.request.WireBody());
      invalid_utf8 += utf8 ? 1 : 0;
      EXPECT_EQ(row->condition == RequestCondition::kInvalidUtf8InString, utf8)
          << exchange.request.WireBody();
    }
  }
  EXPECT_EQ(invalid_utf8, 2) << "one in each era:\n" << DescribeAll(run);
}

// --- every fault switch ---

// The check(s) that name each fault's deviation, and the transport it shows on. Every listed
// check must FAIL or WARN against a server with that one fault.
struct FaultExpectation {
  Fault fault;
  TransportKind transport;
  std::set<std::string_view> checks;
  bool call_real_tools = false;
  // For faults that leave a request unanswered: a short timeout keeps the run fast.
  std::chrono::milliseconds timeout = 3000ms;
};

const std::vector<FaultExpectation>& FaultTable() {
  static const std::vector<FaultExpectation> table = {
      {Fault::kUnknownToolIsError, kHttp, {check::kUnknownTool}},
      {Fault::kUnknownToolPlainSuccess, kStdio, {check::kUnknownTool}},
      {Fault::kUnknownToolHtml, kHttp, {check::kUnknownTool}},
      {Fault::kUnknownToolWrongCode, kStdio, {check::kUnknownTool}},
      // A stdio request left unanswered is the server not answering any more.
      {Fault::kHangOnUnknownTool, kStdio, {check::kKeepsAnswering}, false, 400ms},
      {Fault::kInputValidationAsProtocolError, kHttp, {check::kToolBadArguments}, true},
      {Fault::kParseErrorWrongId, kStdio, {check::kParseError}},
      {Fault::kInvalidRequestAccepted, kHttp, {check::kMissingJsonrpc, check::kWrongJsonrpc}},
      {Fault::kNotificationAnswered, kHttp, {check::kNotificationNoReply}},
      {Fault::kErrorLeaksInternals, kStdio, {check::kUnknownTool, check::kUnknownMethod}},
      {Fault::kCrashOnDeepNesting, kStdio, {check::kNoEarlyExit}},
      {Fault::kExitAfterInitialize, kStdio, {check::kNoEarlyExit}},
      {Fault::kLogsOnStdout, kStdio, {check::kStdoutOnlyJsonRpc}},
      {Fault::kUnsupportedVersionEchoed, kHttp, {check::kInitializeUnsupportedVersion}},
      {Fault::kPingMethodNotFound, kStdio, {check::kPingBeforeInit}},
      {Fault::kSessionNotEnforced, kHttp, {check::kSessionMissing}},
      {Fault::kStaleSessionServed, kHttp, {check::kSessionUnknown}},
      {Fault::kBatchRejectedIn2025_03_26, kStdio, {check::kBatchAccepted}},
      {Fault::kOriginNotChecked, kHttp, {check::kOriginInvalid}},
      {Fault::kMissingMetaServed, kStdio, {check::kMetaMissing, check::kMetaPartial}},
      {Fault::kHeaderMismatchServed,
       kHttp,
       {check::kProtocolVersionHeaderMismatch, check::kMethodHeaderMismatch,
        check::kNameHeaderMismatch}},
      {Fault::kMethodHeaderCaseInsensitive, kHttp, {check::kMethodHeaderCase}},
      {Fault::kUnsupportedVersionNoData, kStdio, {check::kVersionUnsupported}},
      {Fault::kUnknownMethod200, kHttp, {check::kUnknownMethod}},
      {Fault::kMissingResultType, kStdio, {check::kDiscoverResult}},
      {Fault::kResourceNotFoundLegacyCode, kHttp, {check::kUnknownResource}},
      {Fault::kEraLockIgnored, kStdio, {check::kMetaMissing}},
      {Fault::kValidatorDumpInErrors, kHttp, {check::kToolMissingName}},
      {Fault::kRemovedMethodsServed, kStdio, {check::kRemovedMethod}},
      {Fault::kPrettyPrintedStdio, kStdio, {check::kStdoutOnlyJsonRpc}},
      {Fault::kPrototypeNameLookup, kStdio, {check::kUnknownNameConsistent}},
      // Deaf after limits.oversized-request's line of 10 MiB and one byte.
      {Fault::kDeafAfterBigLine, kStdio, {check::kKeepsAnswering}},
      {Fault::k500OnDeepNesting, kHttp, {check::kDeepNesting}},
      // The request after DELETE is reported under sessions.delete (H14 "later requests 404").
      {Fault::kDeletedSessionServed, kHttp, {check::kSessionDelete}},
      // resources/templates/list's nextCursor sent to tools/list.
      {Fault::kCursorAcrossLists, kHttp, {check::kInvalidCursor}},
      // A ping with its notifications/cancelled right behind it, answered after the next ping.
      {Fault::kCancelledRequestAnswered, kStdio, {check::kCancelledNoReply}},
      // The closing result of a listen opting into nothing, with no acknowledgement before it.
      {Fault::kListenUnacknowledged, kHttp, {check::kListenAcknowledged}},
      // An info log message in every reply stream, the first session's discover's included.
      {Fault::kLogLevelIgnored, kHttp, {check::kDiscoverResult}},
      {Fault::kProgressUnrequested, kHttp, {check::kDiscoverResult}},
      // initialize after server/discover and a served tools/list, on one process.
      {Fault::kInitializeRelocksEra, kStdio, {check::kInitializeAfterEraLock}},
      // An enveloped tools/list after initialize, answered with resultType (WARN).
      {Fault::kEraSwitchAfterInitialize, kStdio, {check::kEnvelopeAfterInitialize}},
      // A ping in the main session after a throwaway session's DELETE gets 404.
      {Fault::kDeleteEndsAllSessions, kHttp, {check::kSessionDelete}},
      // An info log message in the reply to a ping after logging/setLevel "emergency".
      {Fault::kSetLevelIgnored, kStdio, {check::kSessionLogLevel}},
      // An update of the readme in the reply to the ping after its resources/unsubscribe.
      {Fault::kUnsubscribeIgnored, kHttp, {check::kUnsubscribe}},
      // resources/templates/list's nextCursor refused the second time it is sent back.
      {Fault::kCursorSingleUse, kStdio, {check::kCursorReused}},
      // The progress of the ping with a progressToken, repeated in the next ping's output.
      {Fault::kProgressAfterResponse, kStdio, {check::kProgressAfterResponse}},
      // An invalid request's -32600 written twice, both before the sentinel's reply (a repeat
      // after a request that waits for its own reply is set aside, not judged).
      {Fault::kErrorAnsweredTwice, kStdio, {check::kMissingJsonrpc}},
      // limits.oversized-request's id of 100,000 characters aborts the server.
      {Fault::kCrashOnLongId, kStdio, {check::kNoEarlyExit}},
  };
  return table;
}

// Tables V6: every method 2026-07-28 removed must be refused as unknown. A server that still
// serves them FAILs (a MUST), over both transports; the conformant one passes every variant.
TEST(RemovedMethods, ServingThemFailsRefusingThemWith404Passes) {
  CheckOptions options;
  options.only = {std::string(check::kRemovedMethod)};
  for (TransportKind kind : {kHttp, kStdio}) {
    for (bool faulty : {true, false}) {
      SCOPED_TRACE(std::string(ToString(kind)) + (faulty ? " with the fault" : " conformant"));
      const CheckRun run =
          RunAgainst(kind, faulty ? FaultSet{Fault::kRemovedMethodsServed} : FaultSet{}, options);
      int judged = 0;
      for (const CheckResult& result : run.results) {
        if (result.verdict.check_id != check::kRemovedMethod) continue;
        if (result.revision != Revision::k2026_07_28) {
          EXPECT_EQ(result.verdict.kind, VerdictKind::kNotApplicable) << Describe(result);
          continue;
        }
        ++judged;
        EXPECT_EQ(result.verdict.kind, faulty ? VerdictKind::kFail : VerdictKind::kPass)
            << Describe(result);
        std::set<std::string> methods;
        int locks = 0;
        for (const Exchange& exchange : result.exchanges) {
          const std::string method = exchange.request.RpcMethod().value_or("");
          // Over stdio an enveloped tools/list fixes the connection's era before each one.
          if (method == "tools/list") {
            ++locks;
          } else {
            methods.insert(method);
          }
        }
        EXPECT_EQ(locks, kind == kStdio ? 5 : 0) << Describe(result);
        EXPECT_EQ(methods, (std::set<std::string>{"initialize", "ping", "logging/setLevel",
                                                  "resources/subscribe", "resources/unsubscribe"}));
      }
      EXPECT_EQ(judged, 1) << DescribeAll(run);
    }
  }
}

// A server whose DELETE ends every session ends the main one under the checks after the first
// check that closes a session of its own. The main session is opened anew (a 404 to a request
// and to a ping after it), so the deviation is judged once, by sessions.delete, and not by
// every check that happened to come after it.
TEST(EndedSessions, AreOpenedAnewAndJudgedOnceBySessionsDelete) {
  const CheckRun run = RunAgainst(kHttp, {Fault::kDeleteEndsAllSessions});
  std::set<std::string> bad;
  for (const CheckResult& result : run.results) {
    if (Bad(result)) bad.insert(result.verdict.check_id);
  }
  EXPECT_EQ(bad, (std::set<std::string>{std::string(check::kSessionDelete)})) << DescribeAll(run);
  // Once per revision whose session a DELETE ended (one revision's cleanup may end the next
  // one's session, opened by the era probe before it).
  ASSERT_FALSE(run.notes.empty()) << DescribeAll(run);
  for (const std::string& note : run.notes) {
    EXPECT_NE(note.find("ended mcpfuzz's session"), std::string::npos) << note;
  }
}

TEST(Faults, TheTableCoversEveryFaultSwitch) {
  std::set<Fault> listed;
  for (const FaultExpectation& row : FaultTable()) {
    EXPECT_TRUE(listed.insert(row.fault).second) << refserver::ToString(row.fault);
    EXPECT_FALSE(row.checks.empty());
    for (std::string_view id : row.checks) EXPECT_TRUE(check::IsKnown(id)) << id;
  }
  for (const refserver::FaultInfo& info : refserver::AllFaults()) {
    EXPECT_TRUE(listed.contains(info.fault)) << "no check expectation for fault " << info.name;
  }
}

TEST(Faults, EachFaultFailsTheCheckThatNamesIt) {
  const std::vector<FaultExpectation>& table = FaultTable();
  std::vector<CheckRun> runs(table.size());
  std::atomic<std::size_t> next{0};
  // The servers mostly wait on one another, so a few runs at a time suit two cores.
  std::vector<std::thread> workers;
  for (int worker = 0; worker < 4; ++worker) {
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < table.size(); i = next++) {
        CheckOptions options;
        options.call_real_tools = table[i].call_real_tools;
        runs[i] =
            RunAgainst(table[i].transport, {table[i].fault}, options, TestLimits(table[i].timeout));
      }
    });
  }
  for (std::thread& worker : workers) worker.join();

  for (std::size_t i = 0; i < table.size(); ++i) {
    const FaultExpectation& row = table[i];
    SCOPED_TRACE(std::string(refserver::ToString(row.fault)) + " over " +
                 std::string(ToString(row.transport)));
    for (std::string_view id : row.checks) {
      const bool caught = std::any_of(
          runs[i].results.begin(), runs[i].results.end(),
          [&](const CheckResult& result) { return result.verdict.check_id == id && Bad(result); });
      EXPECT_TRUE(caught) << id << " neither failed nor warned:\n" << DescribeAll(runs[i]);
    }
    if (!row.call_real_tools) ExpectReadOnly(runs[i]);
  }
}

}  // namespace
}  // namespace mcpfuzz::checks
