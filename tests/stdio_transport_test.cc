#include <gtest/gtest.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "model/model.h"
#include "support/files.h"
#include "support/stdio_requests.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;
using test_support::Call;
using test_support::Notification;
using test_support::Raw;

const std::string kEchoServer = std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/echo_server.py";

StdioTarget EchoTarget(std::vector<std::string> options = {}) {
  StdioTarget target;
  target.argv = {"python3", kEchoServer};
  target.argv.insert(target.argv.end(), options.begin(), options.end());
  target.limits.timeout = milliseconds(3000);
  target.limits.quiet_window = milliseconds(100);
  target.shutdown_grace = milliseconds(1000);
  return target;
}

StdioTarget ShellTarget(const std::string& script) {
  StdioTarget target;
  target.argv = {"sh", "-c", script};
  target.limits.timeout = milliseconds(3000);
  target.limits.quiet_window = milliseconds(100);
  target.shutdown_grace = milliseconds(150);
  return target;
}

// Shell commands that read one request and answer it with id 1 and a result given as a shell
// word, so it can expand variables, $$ or $!.
std::string ReplyOnce(const std::string& result_word) {
  return R"(read line; printf '{"jsonrpc":"2.0","id":1,"result":%s}\n' )" + result_word;
}

std::unique_ptr<StdioTransport> Spawn(StdioTarget target) {
  auto transport = SpawnStdio(std::move(target));
  EXPECT_TRUE(transport.ok()) << transport.error().message;
  return transport.ok() ? std::move(*transport) : nullptr;
}

milliseconds ElapsedMs(const Observation& observation) {
  return std::chrono::duration_cast<milliseconds>(observation.elapsed);
}

// Orphaned grandchildren may linger as zombies when nothing reaps them, which is dead enough.
bool ProcessIsGone(pid_t pid) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string stat_line;
    std::getline(stat, stat_line);
    const auto state = stat_line.rfind(") ");
    if (state != std::string::npos && stat_line.substr(state + 2, 1) == "Z") return true;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return false;
}

TEST(StdioTransport, AnswersAreMatchedById) {
  auto transport = Spawn(EchoTarget());
  ASSERT_TRUE(transport);
  EXPECT_EQ(transport->kind(), TransportKind::kStdio);
  EXPECT_NE(transport->Describe().find("echo_server.py"), std::string::npos);
  // The command as it was spawned, word for word, for reproducers.
  EXPECT_EQ(transport->ReproduceAt().kind, TransportKind::kStdio);
  EXPECT_EQ(transport->ReproduceAt().argv, EchoTarget().argv);

  for (json::value id : {json::value(7), json::value("seven")}) {
    Observation observation = transport->Send(Call(id));
    EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
    ASSERT_EQ(observation.messages.size(), 1U);
    EXPECT_EQ(observation.messages[0].at("id"), id);
    EXPECT_EQ(observation.messages[0].at("result").at("echo"), "tools/list");
    EXPECT_EQ(observation.stdout_lines.size(), 1U);
    EXPECT_TRUE(observation.non_json.empty());
  }
  EXPECT_TRUE(transport->Alive());
  ProcessExit exit = transport->Shutdown();
  EXPECT_EQ(exit.exit_code, 0);
  EXPECT_FALSE(exit.killed_by_mcpfuzz);
}

TEST(StdioTransport, LogLinesOnStdoutAreKeptAsNonJsonAndTheReplyIsStillFound) {
  auto transport = Spawn(EchoTarget({"--log"}));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.non_json.size(), 1U);
  EXPECT_EQ(observation.non_json[0], "echo_server: handling a request");
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.messages[0].at("id"), 1);
  EXPECT_EQ(observation.stdout_lines.size(), 2U);
}

TEST(StdioTransport, ServerToClientMessagesBeforeTheReplyAreRecorded) {
  auto transport = Spawn(EchoTarget({"--ping-first"}));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(2));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.messages.size(), 3U);
  EXPECT_EQ(observation.messages[0].at("method"), "ping");
  EXPECT_EQ(observation.messages[1].at("method"), "notifications/message");
  EXPECT_EQ(observation.messages[2].at("id"), 2);
}

TEST(StdioTransport, LinesSplitAcrossReadsAreJoinedAndCrlfIsKeptVerbatim) {
  auto transport = Spawn(EchoTarget({"--split", "--crlf"}));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(3));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.stdout_lines.size(), 1U);
  EXPECT_EQ(observation.stdout_lines[0].back(), '\r');
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.messages[0].at("id"), 3);
}

TEST(StdioTransport, NotificationListensForTheWholeQuietWindow) {
  auto transport = Spawn(EchoTarget());
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Notification());
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_TRUE(observation.messages.empty());
  EXPECT_TRUE(observation.stdout_lines.empty());
  EXPECT_GE(ElapsedMs(observation), milliseconds(100));
  EXPECT_EQ(transport->Send(Call(4)).outcome, Outcome::kOk);
}

TEST(StdioTransport, RawGarbageEndsAtTheParseErrorWithoutWaitingForQuiet) {
  StdioTarget target = EchoTarget();
  target.limits.quiet_window = milliseconds(4000);
  target.limits.timeout = milliseconds(8000);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  ASSERT_EQ(transport->Send(Call(0)).outcome, Outcome::kOk);  // The interpreter is up.
  Observation observation = transport->Send(Raw("{\"jsonrpc\":\"2.0\",\"id\":"));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.messages[0].at("error").at("code"), -32700);
  EXPECT_LT(ElapsedMs(observation), milliseconds(2000));
}

TEST(StdioTransport, EmbeddedNewlinesAreSentAsIsAndLateRepliesGoToTheNextSend) {
  StdioTarget target = EchoTarget();
  // Generous for a loaded machine; the parse error ends the wait anyway.
  target.limits.quiet_window = milliseconds(2000);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  ASSERT_EQ(transport->Send(Call(0)).outcome, Outcome::kOk);  // The interpreter is up.
  Observation first =
      transport->Send(Raw("not json\n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"second/line\"}"));
  EXPECT_EQ(first.outcome, Outcome::kOk) << first.detail;
  ASSERT_EQ(first.messages.size(), 1U);
  EXPECT_EQ(first.messages[0].at("error").at("code"), -32700);

  Observation next = transport->Send(Call(6));
  EXPECT_EQ(next.outcome, Outcome::kOk) << next.detail;
  ASSERT_EQ(next.messages.size(), 2U);
  EXPECT_EQ(next.messages[0].at("id"), 5);
  EXPECT_EQ(next.messages[0].at("result").at("echo"), "second/line");
  EXPECT_EQ(next.messages[1].at("id"), 6);
}

TEST(StdioTransport, OversizedLineIsTooLargeAndTheStreamStaysInSync) {
  StdioTarget target = EchoTarget({"--oversize-first=300000"});
  target.limits.max_response_bytes = 1000;
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  Observation big = transport->Send(Call(1));
  EXPECT_EQ(big.outcome, Outcome::kTooLarge) << big.detail;
  EXPECT_TRUE(big.messages.empty());

  Observation next = transport->Send(Call(2));
  EXPECT_EQ(next.outcome, Outcome::kOk) << next.detail;
  ASSERT_EQ(next.messages.size(), 1U);
  EXPECT_EQ(next.messages[0].at("id"), 2);
}

TEST(StdioTransport, StderrFloodDoesNotDeadlockAndItsTailIsKept) {
  StdioTarget target = EchoTarget({"--stderr-bytes=1048576"});
  target.stderr_tail_bytes = 64;
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.stderr_tail.size(), 64U);
  EXPECT_TRUE(observation.stderr_tail.ends_with("xxEND-OF-STDERR\n"));
  ProcessExit exit = transport->Shutdown();
  EXPECT_TRUE(exit.stderr_tail.ends_with("END-OF-STDERR\n"));
  EXPECT_LE(exit.stderr_tail.size(), 64U);
}

TEST(StdioTransport, ReplyWithAnotherIdDoesNotEndTheWait) {
  StdioTarget target = ShellTarget(
      "read line; echo '{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}'; cat >/dev/null");
  target.limits.timeout = milliseconds(300);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kAliveButDeaf) << observation.detail;
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.messages[0].at("id"), 99);
}

TEST(StdioTransport, UnterminatedLastLineBeforeExitIsStillAReply) {
  auto transport =
      Spawn(ShellTarget("read line; printf '%s' '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}'"));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.messages[0].at("id"), 1);
}

TEST(StdioTransport, MissingProgramIsASpawnError) {
  StdioTarget target;
  target.argv = {"mcpfuzz-no-such-program-4242"};
  auto transport = SpawnStdio(target);
  ASSERT_FALSE(transport.ok());
  EXPECT_NE(transport.error().message.find("mcpfuzz-no-such-program-4242"), std::string::npos);
  EXPECT_FALSE(SpawnStdio(StdioTarget{}).ok());
}

TEST(StdioTransport, EnvironmentOverridesReplaceAndAdd) {
  ASSERT_EQ(::setenv("MCPFUZZ_STDIO_TEST_OLD", "inherited", 1), 0);
  StdioTarget target =
      ShellTarget(ReplyOnce(R"("\"$MCPFUZZ_STDIO_TEST_OLD $MCPFUZZ_STDIO_TEST_NEW\"")"));
  target.env = {{"MCPFUZZ_STDIO_TEST_OLD", "replaced"}, {"MCPFUZZ_STDIO_TEST_NEW", "added"}};
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.messages.size(), 1U) << observation.detail;
  EXPECT_EQ(observation.messages[0].at("result"), "replaced added");
}

TEST(StdioTransport, ServerThatExitsAtOnceReportsItsExitCodeAndWritesGetEpipe) {
  auto transport = Spawn(ShellTarget("exit 3"));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kExited) << observation.detail;
  EXPECT_EQ(observation.exit_code, 3);
  EXPECT_FALSE(transport->Alive());
  // The process is certainly gone now: this write hits a closed pipe and must not kill us.
  Observation again = transport->Send(Call(2));
  EXPECT_EQ(again.outcome, Outcome::kExited) << again.detail;
  EXPECT_EQ(again.exit_code, 3);
  ProcessExit exit = transport->Shutdown();
  EXPECT_EQ(exit.exit_code, 3);
  EXPECT_FALSE(exit.killed_by_mcpfuzz);
}

TEST(StdioTransport, CrashBySignalIsReportedAndNotBlamedOnUs) {
  auto transport = Spawn(ShellTarget("ulimit -c 0; read line; kill -SEGV $$"));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kExited) << observation.detail;
  EXPECT_EQ(observation.exit_signal, SIGSEGV);
  ProcessExit exit = transport->Shutdown();
  EXPECT_EQ(exit.signal, SIGSEGV);
  EXPECT_FALSE(exit.killed_by_mcpfuzz);
}

TEST(StdioTransport, SilentServerIsAliveButDeafAndExitsByItselfOnStdinClose) {
  StdioTarget target = ShellTarget("cat >/dev/null");
  target.limits.timeout = milliseconds(300);
  // Its first reply would be given the start-up limit: this server is up at once.
  target.limits.startup_timeout = milliseconds(300);
  target.shutdown_grace = milliseconds(2000);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kAliveButDeaf) << observation.detail;
  EXPECT_GE(ElapsedMs(observation), milliseconds(300));
  EXPECT_LT(ElapsedMs(observation), milliseconds(1500));
  EXPECT_TRUE(transport->Alive());

  const auto start = std::chrono::steady_clock::now();
  ProcessExit exit = transport->Shutdown();
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(1000));
  EXPECT_EQ(exit.exit_code, 0);
  EXPECT_FALSE(exit.killed_by_mcpfuzz);
  EXPECT_FALSE(transport->Alive());
}

TEST(StdioTransport, TheFirstReplyIsGivenTheStartupLimitAndLaterOnesTheTimeout) {
  // Starts slower than the timeout, then answers every request after the same delay.
  StdioTarget target = ShellTarget(
      R"(sleep 1; read line; printf '{"jsonrpc":"2.0","id":1,"result":1}\n'; )"
      R"(read line; sleep 1; printf '{"jsonrpc":"2.0","id":2,"result":2}\n'; cat >/dev/null)");
  target.limits.timeout = milliseconds(300);
  target.limits.startup_timeout = milliseconds(20000);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  const Observation first = transport->Send(Call(1));
  EXPECT_EQ(first.outcome, Outcome::kOk) << first.detail;
  // Answered after the server slept a second: more than the timeout, within the start-up limit.
  EXPECT_GE(ElapsedMs(first), milliseconds(1000));
  const Observation second = transport->Send(Call(2));
  EXPECT_EQ(second.outcome, Outcome::kAliveButDeaf) << second.detail;
  EXPECT_EQ(second.time_limit, TimeLimit::kReply);
  EXPECT_NE(second.detail.find("the time limit"), std::string::npos) << second.detail;
}

TEST(StdioTransport, AServerThatNeverStartsEndsTheStartupWaitByExiting) {
  StdioTarget target = ShellTarget("read line; exit 3");
  target.limits.startup_timeout = milliseconds(60000);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kExited) << observation.detail;
  EXPECT_LT(ElapsedMs(observation), milliseconds(60000));
}

TEST(StdioTransport, ALargeRequestBuysItsReadAllowance) {
  Limits limits;
  limits.timeout = milliseconds(5000);
  EXPECT_EQ(limits.TimeoutFor(100), milliseconds(5000));
  EXPECT_EQ(limits.TimeoutFor(std::size_t{10} << 20U),
            milliseconds(5000) + 10 * kReadAllowancePerMiB);
}

// A call of 3 MiB: an allowance of three seconds beyond the plain limit.
Request ThreeMiBCall(int id) {
  Request large = Call(id);
  std::get<json::value>(large.body).as_object()["params"] =
      json::object{{"pad", std::string(std::size_t{3} << 20U, 'a')}};
  return large;
}

Pipeline WithSentinel(const Request& request, int sentinel_id) {
  Pipeline pipeline;
  pipeline.requests = {request};
  pipeline.sentinel = Call(sentinel_id);
  return pipeline;
}

// A server seen deaf before is given its patience once a large request is written whole, not
// the rest of the request's read allowance: the allowance pays for the reading only.
TEST(StdioTransport, UnderThePatienceALargeRequestWaitsThePatienceAfterItsLastByte) {
  StdioTarget target = ShellTarget(ReplyOnce("1") + "; cat >/dev/null");
  target.limits.timeout = milliseconds(1000);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  ASSERT_EQ(transport->Send(Call(1)).outcome, Outcome::kOk);
  transport->LimitPatience(milliseconds(200));
  // 3 MiB: an allowance of three seconds beyond the patience, which the reader never needs.
  const Request large = ThreeMiBCall(2);
  const Observation observation = transport->Send(large);
  EXPECT_EQ(observation.outcome, Outcome::kAliveButDeaf) << observation.detail;
  EXPECT_EQ(observation.time_limit, TimeLimit::kPatience);
  EXPECT_NE(observation.detail.find("within 200 ms of its last byte"), std::string::npos)
      << observation.detail;

  const PipelineResult result = transport->SendPipelined(WithSentinel(large, 3));
  ASSERT_EQ(result.observations.size(), 1U);
  EXPECT_EQ(result.sentinel.outcome, Outcome::kAliveButDeaf) << result.sentinel.detail;
  EXPECT_NE(result.sentinel.detail.find("within 200 ms of the pipeline's last byte"),
            std::string::npos)
      << result.sentinel.detail;
}

// The read allowance pays for reading and parsing: a server that has read a large request and
// sits idle once the plain limit has passed is deaf without waiting out the rest of it, and the
// detail says why. Decided by the server's state, not by how long the wait was.
TEST(StdioTransport, AnIdleServerIsNotGivenTheRestOfItsReadAllowance) {
  StdioTarget target = ShellTarget(ReplyOnce("1") + "; cat >/dev/null");
  target.limits.timeout = milliseconds(300);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  ASSERT_EQ(transport->Send(Call(1)).outcome, Outcome::kOk);
  const Request large = ThreeMiBCall(2);
  const Observation observation = transport->Send(large);
  EXPECT_EQ(observation.outcome, Outcome::kAliveButDeaf) << observation.detail;
  EXPECT_NE(observation.detail.find("sat idle"), std::string::npos) << observation.detail;

  const PipelineResult result = transport->SendPipelined(WithSentinel(large, 3));
  ASSERT_EQ(result.observations.size(), 1U);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kAliveButDeaf)
      << result.observations[0].detail;
  EXPECT_NE(result.sentinel.detail.find("sat idle"), std::string::npos) << result.sentinel.detail;
}

// A server still working on a large request when the plain limit passes keeps its allowance,
// however busy the machine: runnable is not idle.
TEST(StdioTransport, AServerWorkingOnALargeRequestKeepsItsReadAllowance) {
  // Answers each line; a line over a MiB costs it a second of work first.
  StdioTarget target = ShellTarget(
      R"(exec python3 -c 'import json, sys, time
for line in sys.stdin:
    if len(line) > 1 << 20:
        end = time.monotonic() + 1
        while time.monotonic() < end:
            pass
    print(json.dumps({"jsonrpc": "2.0", "id": json.loads(line)["id"], "result": {}}), flush=True)
')");
  target.limits.timeout = milliseconds(300);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  ASSERT_EQ(transport->Send(Call(1)).outcome, Outcome::kOk);
  const Request large = ThreeMiBCall(2);
  const Observation observation = transport->Send(large);
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_GT(ElapsedMs(observation), milliseconds(300)) << "the plain limit was not what passed";

  const PipelineResult result = transport->SendPipelined(WithSentinel(large, 3));
  ASSERT_EQ(result.observations.size(), 1U);
  EXPECT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  EXPECT_EQ(result.sentinel.outcome, Outcome::kOk) << result.sentinel.detail;
}

// A stdio server is started while the one before it is in use, handed out next, and ended
// with the factory: no process outlives the run.
TEST(StartingAhead, HandsOutTheServerItStartedAheadAndEndsTheOneLeft) {
  const std::string pids =
      ::testing::TempDir() + "/starting-ahead-pids-" + std::to_string(::getpid());
  std::remove(pids.c_str());
  int calls = 0;
  {
    // Each server answers with the number of the factory call that started it.
    const TransportFactory connect = StartingAhead([&]() -> Result<std::unique_ptr<Transport>> {
      ++calls;
      StdioTarget target =
          ShellTarget("echo $$ >>" + pids + "; " + ReplyOnce(std::to_string(calls)));
      // Generous: a server ends by itself once its stdin closes, so this is never waited out.
      target.shutdown_grace = milliseconds(10000);
      auto spawned = SpawnStdio(std::move(target));
      if (!spawned.ok()) return spawned.error();
      return std::unique_ptr<Transport>(std::move(*spawned));
    });
    auto first = connect();
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(calls, 2) << "the next server is started with the first";
    auto second = connect();
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(calls, 3);
    const Observation answered_first = (*first)->Send(Call(1));
    const Observation answered_second = (*second)->Send(Call(1));
    ASSERT_EQ(answered_first.messages.size(), 1U) << answered_first.detail;
    ASSERT_EQ(answered_second.messages.size(), 1U) << answered_second.detail;
    EXPECT_EQ(answered_first.messages[0].at("result"), 1);
    EXPECT_EQ(answered_second.messages[0].at("result"), 2) << "handed out in the order started";
    // The one started ahead is ended as it is, sent nothing: once it has written its pid, so
    // that it can be shown gone (the bound only ends a wait that would never end).
    const auto bound = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (test_support::ReadPids(pids).size() < 3 && std::chrono::steady_clock::now() < bound) {
      std::this_thread::sleep_for(milliseconds(10));
    }
  }
  const std::vector<pid_t> started = test_support::ReadPids(pids);
  EXPECT_EQ(started.size(), 3U) << "two handed out, one started ahead and never handed out";
  for (const pid_t pid : started) {
    errno = 0;
    EXPECT_EQ(::kill(pid, 0), -1) << pid << " outlived the factory";
    EXPECT_EQ(errno, ESRCH) << pid;
  }
  std::remove(pids.c_str());
}

TEST(StartingAhead, OverHttpOpensOneConnectionACall) {
  int calls = 0;
  const TransportFactory connect = StartingAhead([&]() -> Result<std::unique_ptr<Transport>> {
    ++calls;
    HttpTarget target;
    target.url = "http://127.0.0.1:9/mcp";
    return OpenHttp(target);
  });
  ASSERT_TRUE(connect().ok());
  ASSERT_TRUE(connect().ok());
  EXPECT_EQ(calls, 2);
}

// A second response to a request answered before arrives with the next exchange: set aside as
// a repeat, never taken for the next request's answer.
TEST(StdioTransport, ARepeatedResponseIsSetAsideInTheNextExchange) {
  auto transport = Spawn(ShellTarget(
      R"(read line; printf '{"jsonrpc":"2.0","id":1,"result":1}\n{"jsonrpc":"2.0","id":1,"result":1}\n'; )"
      R"(read line; printf '{"jsonrpc":"2.0","id":2,"result":2}\n'; cat >/dev/null)"));
  ASSERT_TRUE(transport);
  const Observation first = transport->Send(Call(1));
  ASSERT_EQ(first.outcome, Outcome::kOk) << first.detail;
  const Observation second = transport->Send(Call(2));
  ASSERT_EQ(second.outcome, Outcome::kOk) << second.detail;
  ASSERT_EQ(second.messages.size(), 1U);
  EXPECT_EQ(second.messages[0].at("id"), 2);
  ASSERT_EQ(second.repeated_replies.size(), 1U);
  EXPECT_EQ(second.repeated_replies[0].at("id"), 1);
  EXPECT_TRUE(second.late_replies.empty());
}

TEST(StdioTransport, ALateReplyIsNeverTheAnswerOfTheMessageItArrivesWith) {
  // Answers the request only once a second line arrives, then the parse error of that line.
  StdioTarget target = ShellTarget(
      R"(read first; read second; printf '{"jsonrpc":"2.0","id":5,"result":{}}\n)"
      R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n'; )"
      R"(cat >/dev/null)");
  target.limits.timeout = milliseconds(300);
  target.limits.startup_timeout = milliseconds(300);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  EXPECT_EQ(transport->Send(Call(5)).outcome, Outcome::kAliveButDeaf);
  // Invalid JSON is owed the first response of any id: not the late reply to id 5.
  const Observation observation = transport->Send(Raw("{not json"));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  ASSERT_EQ(observation.messages.size(), 1U) << observation.detail;
  EXPECT_TRUE(observation.messages[0].at("id").is_null());
  ASSERT_EQ(observation.late_replies.size(), 1U);
  EXPECT_EQ(observation.late_replies[0].at("id"), 5);
}

TEST(StdioTransport, ServerThatIgnoresStdinCloseIsTerminated) {
  auto transport = Spawn(ShellTarget("exec sleep 1000"));
  ASSERT_TRUE(transport);
  ProcessExit exit = transport->Shutdown();
  EXPECT_EQ(exit.signal, SIGTERM);
  EXPECT_TRUE(exit.killed_by_mcpfuzz);
}

TEST(StdioTransport, ServerThatIgnoresSigtermIsKilled) {
  auto transport =
      Spawn(ShellTarget("trap '' TERM; " + ReplyOnce("1") + "; while :; do sleep 1; done"));
  ASSERT_TRUE(transport);
  // Answered: its trap is set (a server sent nothing would be signalled before it started).
  ASSERT_EQ(transport->Send(Call(1)).outcome, Outcome::kOk);
  const auto start = std::chrono::steady_clock::now();
  ProcessExit exit = transport->Shutdown();
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(300));
  EXPECT_EQ(exit.signal, SIGKILL);
  EXPECT_TRUE(exit.killed_by_mcpfuzz);
}

// A server sent something is given its grace to end by itself once stdin closes; one sent
// nothing (a spare started ahead and not needed) gets SIGTERM at once instead of being waited
// for through its start-up. This server ends a second after its stdin closes, well inside the
// grace: which of the two ended it tells them apart.
TEST(StdioTransport, AServerSentNothingIsTerminatedWhenItsStdinCloses) {
  for (const bool used : {true, false}) {
    StdioTarget target = ShellTarget(ReplyOnce("1") + "; cat >/dev/null; sleep 1; exit 3");
    target.shutdown_grace = milliseconds(30000);
    auto transport = Spawn(std::move(target));
    ASSERT_TRUE(transport);
    if (used) {
      ASSERT_EQ(transport->Send(Call(1)).outcome, Outcome::kOk);
    }
    const ProcessExit exit = transport->Shutdown();
    if (used) {
      EXPECT_EQ(exit.exit_code, 3);
      EXPECT_FALSE(exit.killed_by_mcpfuzz);
    } else {
      EXPECT_EQ(exit.signal, SIGTERM);
      EXPECT_TRUE(exit.killed_by_mcpfuzz);
    }
  }
}

TEST(StdioTransport, GrandchildrenDieWithTheServer) {
  auto transport = Spawn(ShellTarget("sleep 1000 & " + ReplyOnce("$!") + "; cat >/dev/null"));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  ASSERT_EQ(observation.messages.size(), 1U) << observation.detail;
  const pid_t grandchild =
      static_cast<pid_t>(observation.messages[0].at("result").to_number<int>());
  ASSERT_GT(grandchild, 0);
  EXPECT_EQ(::kill(grandchild, 0), 0);

  // The server exits by itself when stdin closes; its grandchild must not outlive it.
  ProcessExit exit = transport->Shutdown();
  EXPECT_EQ(exit.exit_code, 0);
  EXPECT_FALSE(exit.killed_by_mcpfuzz);
  EXPECT_TRUE(ProcessIsGone(grandchild));
}

TEST(StdioTransport, ShutdownIsIdempotentAndLaterSendsReportExited) {
  auto transport = Spawn(EchoTarget());
  ASSERT_TRUE(transport);
  // Answered: the server has started, so closing stdin ends it however busy the machine is
  // (a Python server still starting would outlast the shutdown grace and be terminated).
  ASSERT_EQ(transport->Send(Call(1)).outcome, Outcome::kOk);
  ProcessExit first = transport->Shutdown();
  ProcessExit second = transport->Shutdown();
  EXPECT_EQ(first.exit_code, 0);
  EXPECT_EQ(second.exit_code, first.exit_code);
  EXPECT_EQ(second.killed_by_mcpfuzz, first.killed_by_mcpfuzz);
  Observation observation = transport->Send(Call(1));
  EXPECT_EQ(observation.outcome, Outcome::kExited);
  EXPECT_EQ(observation.exit_code, 0);
}

TEST(StdioTransport, DestructorEndsTheServer) {
  StdioTarget target =
      ShellTarget("trap '' TERM; " + ReplyOnce("$$") + "; while :; do sleep 1; done");
  target.shutdown_grace = milliseconds(50);
  auto transport = Spawn(std::move(target));
  ASSERT_TRUE(transport);
  Observation observation = transport->Send(Call(1));
  ASSERT_EQ(observation.messages.size(), 1U) << observation.detail;
  const pid_t server = static_cast<pid_t>(observation.messages[0].at("result").to_number<int>());
  EXPECT_EQ(::kill(server, 0), 0);
  transport.reset();
  EXPECT_TRUE(ProcessIsGone(server));
}

}  // namespace
}  // namespace mcpfuzz
