// The mcpfuzz binary as a user runs it: exit codes, the terminal report, the JSON report and
// the baseline flow, against the built-in reference server.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "model/reproducer.h"
#include "support/files.h"
#include "support/processes.h"
#include "transport/server_process.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::Mcpfuzz;
using test_support::McpfuzzBinary;
using test_support::ProcessRun;
using test_support::ReadJson;
using test_support::RunShell;
using test_support::ScratchDirectory;

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "-" + std::to_string(::getpid()) + ".json"))
      .string();
}

TEST(CheckCommand, ConformantBuiltinServerPassesWithExitZero) {
  ProcessRun run = Mcpfuzz("check --builtin --only tools,methods,jsonrpc.parse-error");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("tools.unknown-name"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(" 0 fail"), std::string::npos) << run.output;
}

TEST(CheckCommand, AFaultIsAFailWithExitOneAndAReproducer) {
  const std::string report = TempPath("mcpfuzz-report");
  ProcessRun run = Mcpfuzz(
      "check --builtin --fault unknown-tool-is-error --only tools.unknown-name "
      "--report json=" +
      report);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL  tools.unknown-name"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("reproduce: "), std::string::npos) << run.output;
  json::value json = ReadJson(report);
  EXPECT_EQ(json.at("format"), "mcpfuzz-check-report");
  EXPECT_GE(json.at("summary").at("fail").as_int64(), 1);
  std::filesystem::remove(report);
}

// A request the server never answers is a finding, not a check left unjudged (issue #12).
TEST(CheckCommand, AServerThatHangsOnARequestIsAFailNotAPass) {
  ProcessRun run = Mcpfuzz(
      "check --builtin --fault hang-on-unknown-tool --only tools.unknown-name "
      "--timeout-ms 1000");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL  tools.unknown-name"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("hung on a POST"), std::string::npos) << run.output;
}

// Over stdio a server gone deaf is stdio.keeps-answering's finding; the check whose request
// went unanswered stays UNVERIFIED, and the terminal says why. (A server that never answers
// one request but answers the sentinel behind it dropped that request: a FAIL of its own check.)
TEST(CheckCommand, EveryUnverifiedVerdictPrintsItsReason) {
  ProcessRun run = Mcpfuzz(
      "check --revision 2025-11-25 --only tools.unknown-name,stdio "
      "--timeout-ms 1000 -- python3 " +
      std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/deaf_after_tool_call.py");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const std::size_t section = run.output.find("\nUnverified\n");
  ASSERT_NE(section, std::string::npos) << run.output;
  const std::size_t line = run.output.find("  tools.unknown-name  ", section);
  ASSERT_NE(line, std::string::npos) << run.output;
  const std::string text = run.output.substr(line, run.output.find('\n', line) - line);
  // In words: the JSON report keeps the tokens (transport_error, alive_but_deaf).
  EXPECT_NE(text.find("(the exchange did not complete): the server stayed up but answered nothing"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("alive_but_deaf"), std::string::npos) << text;
}

TEST(CheckCommand, OverStdioARequestNeverAnsweredWhileLaterOnesAreIsADrop) {
  ProcessRun run = Mcpfuzz(
      "check --builtin-stdio --fault hang-on-unknown-tool --only tools.unknown-name "
      "--timeout-ms 1000");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL  tools.unknown-name"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("the server answered the request written after this one"),
            std::string::npos)
      << run.output;
}

// A stdio server gets mcpfuzz's environment plus --env, or with --env-clear exactly the --env
// variables (the last value of a name given twice), as the server itself reads it.
TEST(CheckCommand, AStdioServerSeesExactlyTheEnvironmentAsked) {
  ScratchDirectory scratch("mcpfuzz-env");
  std::filesystem::create_directories(scratch.path());
  const std::string seen = (scratch.path() / "env.json").string();
  // The interpreter itself: a `python3` on PATH may be a wrapper (pyenv's) that adds variables
  // of its own before the server starts.
  const ProcessRun python = RunShell("python3 -c 'import sys; print(sys.executable, end=\"\")'");
  ASSERT_EQ(python.exit_code, 0) << python.output;
  const std::string server = ShellQuote(python.output) + " " + std::string(MCPFUZZ_SOURCE_DIR) +
                             "/tests/fixtures/environment_stdio.py " + seen;
  const std::string env = "--env MCPFUZZ_A=1 --env 'MCPFUZZ_B=x=y z' --env MCPFUZZ_A=2";
  ProcessRun cleared = Mcpfuzz("probe --env-clear " + env + " -- " + server);
  EXPECT_EQ(cleared.exit_code, 0) << cleared.output;
  EXPECT_EQ(ReadJson(seen), json::parse(R"({"MCPFUZZ_A":"2","MCPFUZZ_B":"x=y z"})"));
  ProcessRun inherited = RunShell("MCPFUZZ_INHERITED=yes " + ShellQuote(McpfuzzBinary()) +
                                  " probe " + env + " -- " + server);
  EXPECT_EQ(inherited.exit_code, 0) << inherited.output;
  const json::value added = ReadJson(seen);
  EXPECT_EQ(added.at("MCPFUZZ_A"), "2");
  EXPECT_EQ(added.at("MCPFUZZ_INHERITED"), "yes");
  EXPECT_TRUE(added.as_object().contains("PATH"));
}

// `--report FORMAT=-` puts that report alone on stdout, for a program to read; the summary
// moves to stderr.
TEST(CheckCommand, AReportOnStandardOutputIsTheWholeOfIt) {
  // In a subshell: RunShell sends stderr after stdout.
  ProcessRun run = RunShell("(" + ShellQuote(McpfuzzBinary()) +
                            " check --builtin --fault unknown-tool-is-error --only "
                            "tools.unknown-name --report sarif=- 2>/dev/null)");
  EXPECT_EQ(run.exit_code, 1);
  json::value sarif;
  ASSERT_NO_THROW(sarif = json::parse(run.output)) << run.output;
  EXPECT_EQ(sarif.at("version"), "2.1.0");
  EXPECT_FALSE(std::filesystem::exists("-"));
  ProcessRun summary = RunShell("(" + ShellQuote(McpfuzzBinary()) +
                                " check --builtin --only tools.unknown-name --report json=- "
                                "2>&1 >/dev/null)");
  EXPECT_NE(summary.output.find("speaks: "), std::string::npos) << summary.output;
  EXPECT_NE(summary.output.find("report: json -"), std::string::npos) << summary.output;
}

TEST(CheckCommand, BaselineFailsOnlyOnWhatIsNewOrFixed) {
  const std::string baseline = TempPath("mcpfuzz-baseline");
  const std::string faulty =
      "check --builtin --fault unknown-tool-is-error --only tools.unknown-name";
  // Writing a baseline records today's failures (one per revision) and says so: exit 0.
  ProcessRun written = Mcpfuzz(faulty + " --write-baseline " + baseline);
  EXPECT_EQ(written.exit_code, 0) << written.output;
  EXPECT_NE(written.output.find("baseline: 2 entries written to " + baseline), std::string::npos)
      << written.output;
  // The same failure, now known: exit 0.
  ProcessRun known = Mcpfuzz(faulty + " --baseline " + baseline);
  EXPECT_EQ(known.exit_code, 0) << known.output;
  // The failure is fixed but still listed: exit 1 until the baseline is updated.
  ProcessRun fixed = Mcpfuzz("check --builtin --only tools.unknown-name --baseline " + baseline);
  EXPECT_EQ(fixed.exit_code, 1) << fixed.output;
  EXPECT_NE(fixed.output.find("no longer failing"), std::string::npos) << fixed.output;
  std::filesystem::remove(baseline);
}

TEST(CheckCommand, StdioBuiltinServerAndFaultsThatOnlyStdioShows) {
  ProcessRun clean = Mcpfuzz("check --builtin-stdio --only stdio");
  EXPECT_EQ(clean.exit_code, 0) << clean.output;
  ProcessRun logs = Mcpfuzz("check --builtin-stdio --fault logs-on-stdout --only stdio");
  EXPECT_EQ(logs.exit_code, 1) << logs.output;
  EXPECT_NE(logs.output.find("stdio.stdout-only-jsonrpc"), std::string::npos) << logs.output;
}

TEST(CheckCommand, CouldNotRunIsExitTwoWithAReason) {
  ProcessRun unreachable = Mcpfuzz("check http://127.0.0.1:9/mcp --timeout-ms 500");
  EXPECT_EQ(unreachable.exit_code, 2) << unreachable.output;
  EXPECT_NE(unreachable.output.find("could not be reached"), std::string::npos);
  ProcessRun remote = Mcpfuzz("check http://192.0.2.1/mcp");
  EXPECT_EQ(remote.exit_code, 2) << remote.output;
  ProcessRun typo = Mcpfuzz("check --builtin --only tools.unknwon");
  EXPECT_EQ(typo.exit_code, 2) << typo.output;
  EXPECT_NE(typo.output.find("--list"), std::string::npos) << typo.output;
  // A prefix that ends inside a word selects nothing, so it is refused, not a green empty run.
  ProcessRun partial = Mcpfuzz("check --builtin --only tool");
  EXPECT_EQ(partial.exit_code, 2) << partial.output;
  EXPECT_NE(partial.output.find("no check is named 'tool'"), std::string::npos) << partial.output;
  ProcessRun bad_fault = Mcpfuzz("check --builtin --fault no-such-fault");
  EXPECT_EQ(bad_fault.exit_code, 2) << bad_fault.output;
}

// Each says on the terminal why, in one line; the JSON report is not needed to find out.
TEST(CheckCommand, AServerCommandIsStartedOnAFreePortAndEndedWithTheRun) {
  test_support::ScratchDirectory scratch("server-cmd");
  // The built-in server, started as any server would be: a shell command line with {port}.
  const std::string marker = "MCPFUZZ_SERVER_CMD_TEST=" + scratch.path().string();
  ProcessRun run =
      RunShell(ShellQuote(McpfuzzBinary()) + " check --progress never --env " + ShellQuote(marker) +
               " --server-cmd " +
               ShellQuote(ShellQuote(McpfuzzBinary()) + " refserver --http --port {port}"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("started: "), std::string::npos) << run.output;
  EXPECT_EQ(test_support::ProcessesWhoseEnvironmentNames(scratch.path().string()), 0U)
      << "the server outlived the run";

  // One that ends before it listens: what it said, and exit 2.
  run = RunShell(ShellQuote(McpfuzzBinary()) +
                 " check --server-cmd 'echo no such server on {port} >&2; exit 3'");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("ended before it listened"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("no such server on"), std::string::npos) << run.output;

  run = RunShell(ShellQuote(McpfuzzBinary()) + " check --server-cmd 'sleep 60'");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("put {port} in it"), std::string::npos) << run.output;
}

// A server started by command that a case crashes is started again on its port: the run goes on
// to its last case, the crash is re-sent against fresh servers (stable), the report says how
// often the server was started, and none of them outlives the run. Before, every session was
// lost at the crash and the run ended there.
TEST(FuzzCommand, AServerCommandACaseCrashesIsStartedAgainAndTheRunGoesOn) {
  test_support::ScratchDirectory scratch("server-cmd-crash");
  std::filesystem::create_directories(scratch.path());
  const std::string marker = "MCPFUZZ_SERVER_CMD_TEST=" + scratch.path().string();
  const std::string report = (scratch.path() / "fuzz.json").string();
  const ProcessRun run =
      RunShell(ShellQuote(McpfuzzBinary()) + " fuzz --seed 1 --cases 400 --progress never --env " +
               ShellQuote(marker) + " --report json=" + ShellQuote(report) + " --server-cmd " +
               ShellQuote(ShellQuote(McpfuzzBinary()) +
                          " refserver --http --port {port} --fault crash-on-deep-nesting"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const json::value result = ReadJson(report);
  const auto count = [&result](std::string_view path) {
    std::error_code error;
    const json::value* at = result.find_pointer(path, error);
    return at != nullptr && at->is_int64() ? at->as_int64() : -1;
  };
  EXPECT_EQ(count("/cases") + count("/skipped") + count("/generation_failures") +
                count("/big_inputs/held_back") + count("/sequences/held_back"),
            400)
      << run.output;
  bool restarted = false;
  for (const json::value& note : result.at("notes").as_array()) {
    const std::string_view text = note.as_string();
    EXPECT_EQ(text.find("was lost"), std::string_view::npos) << text;
    restarted = restarted || text.find("was started again on its port") != std::string_view::npos;
  }
  EXPECT_TRUE(restarted) << run.output;
  bool crash = false;
  for (const json::value& finding : result.at("findings").as_array()) {
    if (finding.at("check_id") != "limits.deep-nesting") continue;
    crash = true;
    EXPECT_EQ(finding.at("stable"), true) << json::serialize(finding);
    EXPECT_EQ(finding.at("reproduced"), finding.at("resends")) << json::serialize(finding);
  }
  EXPECT_TRUE(crash) << run.output;
  EXPECT_EQ(test_support::ProcessesWhoseEnvironmentNames(scratch.path().string()), 0U)
      << "a server outlived the run";
}

// `check` sends an id of 100,000 characters, which crash-on-long-id ends the server on: the
// checks after it go on against the server started again, and the report says so.
TEST(CheckCommand, AServerCommandACheckCrashesIsStartedAgainAndTheChecksGoOn) {
  const ProcessRun run =
      RunShell(ShellQuote(McpfuzzBinary()) + " check --progress never --server-cmd " +
               ShellQuote(ShellQuote(McpfuzzBinary()) +
                          " refserver --http --port {port} --fault crash-on-long-id"));
  EXPECT_EQ(run.exit_code, 0) << run.output;  // the crash's closed connection is a WARN (Z2)
  EXPECT_NE(run.output.find("limits.oversized-request"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("was started again on its port"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(" 0 fail, 0 unverified"), std::string::npos) << run.output;
}

TEST(CheckCommand, ATargetThatCouldNotBeReachedSaysWhy) {
  const struct {
    std::string target;
    std::string says;
  } cases[] = {
      {"-- no-such-command-mcpfuzz", "cannot start 'no-such-command-mcpfuzz'"},
      {"-- false", "exited with code 1"},
      {"https://example.com/mcp", "mcpfuzz --allow-remote"},
      {"http://127.0.0.1:9/mcp --timeout-ms 500", "127.0.0.1 port 9"},
  };
  for (const auto& c : cases) {
    ProcessRun run = Mcpfuzz("check " + c.target);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find(c.says), std::string::npos) << c.target << ": " << run.output;
  }
}

// Why a stdio server exited is usually on its stderr: the reason line is followed by its last
// lines, escaped (a server's text never drives the terminal) and capped.
TEST(CheckCommand, AServerThatExitedShowsTheEndOfItsStderr) {
  ProcessRun run = Mcpfuzz(
      "check -- sh -c 'for i in $(seq 1 20); do echo \"line $i\" >&2; done; "
      "printf \"boom \\033[2J %0500d\\n\" 7 >&2; exit 3'");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  const std::size_t reason = run.output.find("exited with code 3)\n");
  ASSERT_NE(reason, std::string::npos) << run.output;
  const std::string after = run.output.substr(reason);
  EXPECT_NE(after.find("\n    boom \\x1B[2J 000"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find('\x1b'), std::string::npos) << "raw ESC reached the terminal";
  EXPECT_EQ(run.output.find(std::string(300, '0')), std::string::npos) << "a line was not capped";
  // The last few lines only.
  EXPECT_NE(after.find("    line 20\n"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("line 1\n"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("line 10\n"), std::string::npos) << run.output;
}

// A wrong path or a server that wants credentials judges nothing: that is no pass for CI.
TEST(CheckCommand, NothingJudgedIsExitTwoNotAGreenRun) {
  const std::string script = std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/status_server.py";
  for (const auto& [status, says] : {std::pair<std::string, std::string>{"404", "no MCP endpoint"},
                                     {"401", "pass them with --header"}}) {
    auto server = HttpServerProcess::Start({"python3", script, status}, std::chrono::seconds(20));
    ASSERT_TRUE(server.ok()) << server.error().message;
    ProcessRun run = Mcpfuzz("check " + server->url());
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find(says), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("HTTP " + status), std::string::npos) << run.output;
  }
  ProcessRun judged = Mcpfuzz("check --builtin --only tools.unknown-name");
  EXPECT_EQ(judged.exit_code, 0) << judged.output;
}

// A server slow to open sessions (fastmcp takes 1 s per initialize) costs `check` its openings
// one after the other unless they overlap: the fixture counts the initializes that asked each
// version and how many of them it was answering at one time, so this is judged by what the
// server saw, not by the time the run took.
TEST(CheckCommand, OpensTheSessionsOfItsChecksAtOnceAndGoesOnWithTheEraProbes) {
  const ScratchDirectory scratch("slow-initialize");
  std::filesystem::create_directories(scratch.path());
  const std::filesystem::path counts = scratch.path() / "counts.json";
  const std::string script =
      std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/slow_initialize_server.py";
  auto server = HttpServerProcess::Start({"python3", script, counts.string(), "0.3"},
                                         std::chrono::seconds(20));
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto asked = [&](const char* table, const char* version) -> std::int64_t {
    const json::value read = ReadJson(counts);
    const auto* found = read.as_object().at(table).as_object().if_contains(version);
    return found != nullptr ? found->as_int64() : 0;
  };

  // The main session is the era probe's: one initialize in 2025-11-25, not two.
  ProcessRun initialize = Mcpfuzz("check " + server->url() + " --only lifecycle.initialize");
  EXPECT_EQ(initialize.exit_code, 0) << initialize.output;
  EXPECT_EQ(asked("asked", "2025-11-25"), 1);

  // The handshake control's initialize and the sessions of lifecycle.ping, pagination and
  // sessions.delete, all in 2025-11-25, are opened together.
  ProcessRun all = Mcpfuzz("check " + server->url());
  EXPECT_NE(all.output.find("lifecycle.ping"), std::string::npos) << all.output;
  EXPECT_GE(asked("most_at_once", "2025-11-25"), 2) << all.output;
}

// The checks' own sessions need the revision the era probe finds, but are opened beside the
// probe (supposing its newest handshake revision spoken), so that a server slow to open
// sessions costs one opening, not the probe's and then the checks'. The fixture answers the
// probe's 2024-11-05 initialize (no check asks it) and the unsupported-version initialize of
// version.initialize-unsupported (only that check asks it) only once both have arrived: the
// run had them in flight together, or one of them waited 3 s alone.
TEST(CheckCommand, OpensTheSessionsOfItsChecksBesideTheEraProbe) {
  const ScratchDirectory scratch("beside-probe");
  std::filesystem::create_directories(scratch.path());
  const std::filesystem::path counts = scratch.path() / "counts.json";
  const std::string script =
      std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/slow_initialize_server.py";
  auto server =
      HttpServerProcess::Start({"python3", script, counts.string(), "0.1", "2024-11-05:1900-01-01"},
                               std::chrono::seconds(20));
  ASSERT_TRUE(server.ok()) << server.error().message;
  ProcessRun run = Mcpfuzz("check " + server->url() + " --only version.initialize-unsupported");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("1 pass, 0 warn, 0 fail"), std::string::npos) << run.output;
  const json::object beside = ReadJson(counts).as_object().at("beside").as_object();
  auto was_beside = [&beside](const char* version, const char* other) {
    const auto* seen = beside.if_contains(version);
    if (seen == nullptr) return false;
    const json::array& versions = seen->as_array();
    return std::find(versions.begin(), versions.end(), json::value(other)) != versions.end();
  };
  EXPECT_TRUE(was_beside("1900-01-01", "2024-11-05") || was_beside("2024-11-05", "1900-01-01"))
      << json::serialize(beside);
}

TEST(FuzzCommand, FindsAFaultWritesACaseAndReplayReproducesIt) {
  const std::string corpus =
      (std::filesystem::temp_directory_path() / ("mcpfuzz-corpus-" + std::to_string(::getpid())))
          .string();
  ProcessRun run =
      Mcpfuzz("fuzz --builtin --fault unknown-method-200 --seed 1 --cases 2000 --corpus " + corpus);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("seed 1"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("FAIL  methods.unknown"), std::string::npos) << run.output;
  ASSERT_FALSE(std::filesystem::is_empty(corpus));
  ProcessRun still = Mcpfuzz("replay " + corpus + " --builtin --fault unknown-method-200");
  EXPECT_EQ(still.exit_code, 1) << still.output;
  ProcessRun fixed = Mcpfuzz("replay " + corpus + " --builtin");
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
  std::filesystem::remove_all(corpus);
}

// A replay probes nothing: each case file goes in the revision it names. Its reports say which
// revisions those were and where each case was sent again, instead of "speaks: no revision" and
// every place "unknown".
TEST(ReplayCommand, ReportsNameTheRevisionsAndPlacesReplayed) {
  ScratchDirectory scratch("mcpfuzz-replay-places");
  std::filesystem::create_directories(scratch.path());
  const std::string dir = scratch.path().string();
  ProcessRun run =
      Mcpfuzz("replay " + std::string(MCPFUZZ_SOURCE_DIR) +
              "/corpus/regression/refserver-error-leaks-internals --builtin --fault "
              "error-leaks-internals --report html=" +
              dir + "/r.html --report json=" + dir + "/r.json --report markdown=" + dir + "/r.md");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const std::string speaks = "speaks: not probed; replayed in 2025-11-25, 2026-07-28, 2025-03-26";
  EXPECT_NE(run.output.find(speaks), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("capabilities.unadvertised  2026-07-28/http  "), std::string::npos)
      << run.output;
  const std::string html = test_support::ReadFile(dir + "/r.html");
  EXPECT_NE(html.find(speaks), std::string::npos);
  EXPECT_EQ(html.find("no revision"), std::string::npos);
  EXPECT_EQ(html.find(">unknown<"), std::string::npos);
  for (const char* column : {"2025-11-25/http", "2026-07-28/http", "2025-03-26/http"}) {
    EXPECT_NE(html.find("<th>" + std::string(column) + "</th>"), std::string::npos) << column;
  }
  EXPECT_NE(test_support::ReadFile(dir + "/r.md").find("| not probed; replayed in 2025-11-25, "),
            std::string::npos);
  const json::value report = ReadJson(dir + "/r.json");
  for (const json::value& replayed : report.at("cases").as_array()) {
    EXPECT_NE(replayed.at("revision"), "") << json::serialize(replayed);
    EXPECT_EQ(replayed.at("transport"), "http") << json::serialize(replayed);
  }
}

// What CI cancellation and `timeout` send: the run stops after the case in flight, writes its
// summary and reports, and exits 128 + the signal.
TEST(FuzzCommand, ASigtermStopsTheRunWithItsReportsWritten) {
  const std::string report = TempPath("mcpfuzz-sigterm-report");
  const std::string html = TempPath("mcpfuzz-sigterm-html");
  const std::string log = TempPath("mcpfuzz-sigterm-log");
  const std::string script =
      "env --default-signal=INT,TERM " + ShellQuote(McpfuzzBinary()) +
      " fuzz --builtin --time 120 --seed 1 --report json=" + report + " --report html=" + html +
      " >" + log + " 2>&1 & run=$!; " +
      // The seed line is printed once the run has started; any moment after it is mid-run.
      "for i in $(seq 600); do grep -q 'seed 1' " + log + " && break; sleep 0.1; done; " +
      "kill -TERM $run; wait $run; echo \"exit=$?\"; cat " + log;
  ProcessRun run = RunShell(script);
  EXPECT_NE(run.output.find("exit=143"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("stopped by signal 15"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(" cases in "), std::string::npos) << "no summary: " << run.output;
  EXPECT_EQ(ReadJson(report).at("format"), "mcpfuzz-fuzz-report");
  // Every report written after the signal says it is partial, where people look first.
  const std::string banner = "Stopped early by SIGTERM: this report covers only what ran before it";
  EXPECT_EQ(ReadJson(report).at("stopped_by"), "SIGTERM");
  EXPECT_NE(test_support::ReadFile(html).find("role=\"alert\" data-figure=\"stopped-early\""),
            std::string::npos);
  EXPECT_NE(test_support::ReadFile(html).find(banner), std::string::npos);
  EXPECT_NE(run.output.find(banner), std::string::npos) << run.output;
  std::filesystem::remove(report);
  std::filesystem::remove(html);
  std::filesystem::remove(log);
}

TEST(FuzzCommand, OneRevisionGivenIsFuzzedWithoutTheEraProbe) {
  ProcessRun run = Mcpfuzz("fuzz --builtin --revision 2026-07-28 --cases 50 --seed 3");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("50 cases"), std::string::npos) << run.output;
}

TEST(FuzzCommand, ConformantServerHasNoFinding) {
  ProcessRun run = Mcpfuzz("fuzz --builtin --cases 500 --seed 7");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("0 finding(s)"), std::string::npos) << run.output;
}

// stderr is not a terminal here, as in CI: a run of over ten seconds logs plain progress lines,
// and --progress never none. A --time run lasts its time, so the line is owed by the clock the
// progress line itself keeps, whatever the load.
TEST(FuzzCommand, ARunLongerThanTenSecondsLogsAProgressLine) {
  // stderr alone, to the pipe the output is read from; the report on stdout is dropped.
  auto stderr_of = [](const std::string& arguments) {
    return RunShell("{ timeout -k 5 120 " + ShellQuote(McpfuzzBinary()) + " " + arguments +
                    " 2>&1 >/dev/null </dev/null; }");
  };
  const ProcessRun logged = stderr_of("fuzz --builtin --time 11 --seed 1");
  EXPECT_NE(logged.output.find("\nmcpfuzz: "), std::string::npos) << logged.output;
  EXPECT_NE(logged.output.find(" cases/s, "), std::string::npos) << logged.output;
  EXPECT_NE(logged.output.find(" elapsed, about "), std::string::npos) << logged.output;
  EXPECT_EQ(logged.output.find('\r'), std::string::npos) << "terminal codes in a log";

  const ProcessRun quiet = stderr_of("fuzz --builtin --time 11 --seed 1 --progress never");
  EXPECT_EQ(quiet.output.find(" cases/s, "), std::string::npos) << quiet.output;
}

TEST(Command, RefusesAnUnknownHelpTopicAndAnInjectedHeaderWithExitTwo) {
  ProcessRun help = Mcpfuzz("help nosuch");
  EXPECT_EQ(help.exit_code, 2) << help.output;
  EXPECT_NE(help.output.find("no help on 'nosuch'"), std::string::npos) << help.output;
  ProcessRun injected =
      Mcpfuzz("check --builtin --header \"$(printf 'X-A: b\\r\\nX-Injected: 1')\"");
  EXPECT_EQ(injected.exit_code, 2) << injected.output;
  EXPECT_NE(injected.output.find("must not contain CR, LF or NUL"), std::string::npos)
      << injected.output;
  EXPECT_EQ(Mcpfuzz("check --builtin --only=tools.unknown-name").exit_code, 0);
}

// The built-in server of the run is gone when the reproducer is pasted; the line starts its
// own (port 8931, which no other test uses) and shows the same deviation.
TEST(CheckCommand, ABuiltinRunsReproducerStillWorksAfterTheRun) {
  const std::string report = TempPath("mcpfuzz-builtin-repro");
  ProcessRun run = Mcpfuzz(
      "check --builtin --fault unknown-tool-is-error --only tools.unknown-name --revision "
      "2026-07-28 --report json=" +
      report);
  ASSERT_EQ(run.exit_code, 1) << run.output;
  std::string reproducer;
  const json::value json = ReadJson(report);
  for (const auto& check : json.at("checks").as_array()) {
    if (check.at("verdict") == "FAIL")
      reproducer = json::value_to<std::string>(check.at("reproducer"));
  }
  std::filesystem::remove(report);
  ASSERT_NE(reproducer.find("refserver --http --port 8931"), std::string::npos) << reproducer;
  ProcessRun replayed = RunShell("bash -c " + ShellQuote(reproducer));
  EXPECT_NE(replayed.output.find("\"isError\":true"), std::string::npos) << replayed.output;
}

// Code scanning matches alerts by fingerprint: the built-in server's random port must not
// make every run's alerts new ones.
TEST(CheckCommand, SarifFingerprintsOfABuiltinRunDoNotDependOnItsPort) {
  std::vector<std::string> fingerprints;
  for (int run_number = 0; run_number < 2; ++run_number) {
    const std::string report = TempPath("mcpfuzz-sarif-" + std::to_string(run_number));
    ProcessRun run = Mcpfuzz(
        "check --builtin --fault unknown-tool-is-error --only tools.unknown-name --report sarif=" +
        report);
    ASSERT_EQ(run.exit_code, 1) << run.output;
    const json::value sarif = ReadJson(report);
    std::filesystem::remove(report);
    std::string all;
    for (const auto& result : sarif.at("runs").at(0).at("results").as_array()) {
      all += json::serialize(result.at("partialFingerprints")) + "\n";
    }
    EXPECT_EQ(all.find("127.0.0.1"), std::string::npos) << all;
    EXPECT_NE(all.find("mcpfuzz%20refserver%20--http%20--fault%20unknown-tool-is-error"),
              std::string::npos)
        << all;
    fingerprints.push_back(all);
  }
  EXPECT_EQ(fingerprints[0], fingerprints[1]);
}

// Each command reads the other's case files, or names the command that does.
TEST(CaseFiles, SendTakesAFindingFileAndReplayPointsARequestCaseToSend) {
  const std::string source = MCPFUZZ_SOURCE_DIR;
  const std::string finding = source + "/corpus/regression/refserver-unknown-tool-is-error/" +
                              std::filesystem::directory_iterator(
                                  source + "/corpus/regression/refserver-unknown-tool-is-error")
                                  ->path()
                                  .filename()
                                  .string();
  ProcessRun sent = Mcpfuzz("send " + ShellQuote(finding) + " --builtin");
  EXPECT_EQ(sent.exit_code, 0) << sent.output;
  EXPECT_NE(sent.output.find("\"channel\":"), std::string::npos) << sent.output;

  const std::string seed = source + "/corpus/seed/unknown-tool-2025-11-25.json";
  ProcessRun replayed = Mcpfuzz("replay " + ShellQuote(seed) + " --builtin");
  EXPECT_EQ(replayed.exit_code, 2) << replayed.output;
  EXPECT_NE(replayed.output.find("mcpfuzz send"), std::string::npos) << replayed.output;
}

// The reproducer of the FAIL `check` reports for `check_id` against `target` in 2025-11-25,
// running the checks `only` names.
std::string FailReproducer(const std::string& check_id, const std::string& only,
                           const std::string& target) {
  const std::string report = TempPath("mcpfuzz-history-repro");
  ProcessRun run = Mcpfuzz("check --only " + only +
                           " --revision 2025-11-25 --report json=" + report + " " + target);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const std::optional<json::value> read = test_support::ReadReport(report);
  std::filesystem::remove(report);
  if (!read) return "no report: " + run.output;
  for (const auto& check : read->at("checks").as_array()) {
    if (check.at("id") == check_id.c_str() && check.at("verdict") == "FAIL") {
      return json::value_to<std::string>(check.at("reproducer"));
    }
  }
  return "no FAIL: " + run.output;
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Deafness shows only in what comes after the line that caused it: the reproducer sends that
// line and the request left unanswered after it, and the same line against the conformant
// server gets that request answered.
TEST(CheckCommand, AKeepsAnsweringReproducerSendsTheLineThatDeafenedTheServer) {
  const std::string server = ShellQuote(McpfuzzBinary()) + " refserver --stdio";
  const std::string reproducer =
      FailReproducer("stdio.keeps-answering", "stdio.keeps-answering,limits.oversized-request",
                     "-- " + server + " --fault deaf-after-big-line");
  ASSERT_NE(reproducer.find("head -c 10485"), std::string::npos) << reproducer.substr(0, 2000);
  const ProcessRun deaf = RunShell("timeout 60 bash -c " + ShellQuote(reproducer));
  EXPECT_NE(deaf.output.find("\"id\":0,\"result\""), std::string::npos) << deaf.output;
  EXPECT_EQ(deaf.output.find("mcpfuzz-sentinel"), std::string::npos) << deaf.output;
  const ProcessRun conformant = RunShell(
      "timeout 60 bash -c " + ShellQuote(Replaced(reproducer, " --fault deaf-after-big-line", "")));
  EXPECT_NE(conformant.output.find("mcpfuzz-sentinel"), std::string::npos) << conformant.output;
}

// A server deaf after the big line of stdio.keeps-answering's own probe: the reproducer sends that
// line with a sentinel ping behind it, which the deaf fixture leaves unanswered as it did in the
// run, and the conformant fixture answers. Without the sentinel the line alone left nothing to
// tell deafness from one dropped request.
TEST(CheckCommand, AKeepsAnsweringReproducerShowsTheFixtureDeafAgain) {
  const std::string fixtures = std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/";
  const std::string reproducer =
      FailReproducer("stdio.keeps-answering", "stdio.keeps-answering",
                     "--timeout-ms 1000 -- python3 " + fixtures + "deaf_after_big_line.py");
  ASSERT_NE(reproducer.find("head -c 1048576"), std::string::npos) << reproducer.substr(0, 2000);
  ASSERT_NE(reproducer.find("mcpfuzz-sentinel"), std::string::npos) << reproducer.substr(0, 2000);
  // The deaf fixture never ends by itself: `timeout` ends the pipe once the replies are out.
  const ProcessRun deaf = RunShell("timeout 10 bash -c " + ShellQuote(reproducer));
  EXPECT_NE(deaf.output.find("\"id\":0,\"result\""), std::string::npos) << deaf.output;
  EXPECT_EQ(deaf.output.find("\"id\":\"mcpfuzz-sentinel"), std::string::npos) << deaf.output;
  const ProcessRun conformant =
      RunShell("timeout 10 bash -c " +
               ShellQuote(Replaced(reproducer, "deaf_after_big_line.py", "conformant_stdio.py")));
  EXPECT_NE(conformant.output.find("\"id\":\"mcpfuzz-sentinel-1\""), std::string::npos)
      << conformant.output;
}

// A session served after its DELETE shows only after the DELETE: the reproducer opens a
// session, deletes it and sends the request, which the conformant server answers 404.
TEST(CheckCommand, ASessionDeleteReproducerDeletesTheSessionFirst) {
  auto faulty = HttpServerProcess::Start(
      {McpfuzzBinary(), "refserver", "--http", "--fault", "deleted-session-served"},
      std::chrono::seconds(20));
  ASSERT_TRUE(faulty.ok()) << faulty.error().message;
  const std::string reproducer =
      FailReproducer("sessions.delete", "sessions.delete", faulty->url());
  ASSERT_NE(reproducer.find("-X DELETE"), std::string::npos) << reproducer;
  const ProcessRun served = RunShell("timeout 60 bash -c " + ShellQuote(reproducer));
  // The last reply printed is the request's after the DELETE.
  const std::size_t last = served.output.rfind("HTTP/1.1 ");
  ASSERT_NE(last, std::string::npos) << served.output;
  EXPECT_EQ(served.output.substr(last, 12), "HTTP/1.1 200") << served.output;

  auto conformant =
      HttpServerProcess::Start({McpfuzzBinary(), "refserver", "--http"}, std::chrono::seconds(20));
  ASSERT_TRUE(conformant.ok()) << conformant.error().message;
  std::string against_conformant = reproducer;
  while (against_conformant.find(faulty->url()) != std::string::npos) {
    against_conformant = Replaced(against_conformant, faulty->url(), conformant->url());
  }
  const ProcessRun deleted = RunShell("timeout 60 bash -c " + ShellQuote(against_conformant));
  const std::size_t end = deleted.output.rfind("HTTP/1.1 ");
  ASSERT_NE(end, std::string::npos) << deleted.output;
  EXPECT_EQ(deleted.output.substr(end, 12), "HTTP/1.1 404") << deleted.output;
}

// Two servers sharing one port would split the connections between them: verdicts go flaky.
TEST(RefserverCommand, RefusesAPortAnotherServerListensOn) {
  auto first =
      HttpServerProcess::Start({McpfuzzBinary(), "refserver", "--http"}, std::chrono::seconds(20));
  ASSERT_TRUE(first.ok()) << first.error().message;
  const std::string url = first->url();  // http://127.0.0.1:PORT/mcp
  const std::string port = url.substr(url.rfind(':') + 1, url.find("/mcp") - url.rfind(':') - 1);
  // `timeout`: a second server that did bind would otherwise serve forever.
  ProcessRun second =
      RunShell("timeout 20 " + ShellQuote(McpfuzzBinary()) + " refserver --http --port " + port);
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("cannot bind 127.0.0.1:" + port), std::string::npos)
      << second.output;
}

// The args probe calls a real tool, so without the switch its verdict says how to run it: the
// flag it names must be one the command it names accepts, and must run the probe.
TEST(CheckCommand, TheArgsProbesHintNamesAFlagThatRunsIt) {
  const std::string report = TempPath("mcpfuzz-args-probe-hint");
  ProcessRun skipped =
      Mcpfuzz("check --builtin --only tools.bad-arguments --report json=" + report);
  EXPECT_EQ(skipped.exit_code, 2) << "nothing judged: " << skipped.output;
  const std::string json = test_support::ReadFile(report);
  const std::string command = "`mcpfuzz check ";
  const std::size_t at = json.find(command);
  ASSERT_NE(at, std::string::npos) << json;
  const std::size_t end = json.find('`', at + 1);
  ASSERT_NE(end, std::string::npos) << json;
  const std::string flags = json.substr(at + command.size(), end - at - command.size());
  EXPECT_TRUE(flags.starts_with("--")) << flags;

  ProcessRun probed = Mcpfuzz("check --builtin --only tools.bad-arguments " + flags);
  EXPECT_EQ(probed.exit_code, 0) << probed.output;
  EXPECT_NE(probed.output.find("2 pass"), std::string::npos) << probed.output;
  std::filesystem::remove(report);
}

TEST(CheckCommand, ListsEveryCheck) {
  ProcessRun run = Mcpfuzz("check --list");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.output.find("headers.name-mismatch"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace mcpfuzz
