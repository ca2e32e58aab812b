// Issue #26 item 6, a check for the checks: against every conformant fixture, `check` and a
// 2,000-case `fuzz` at the default flags (seed 1) judge nothing wrong: no FAIL, no WARN, no
// UNVERIFIED, no finding. A new check, or a new generator family, lands only once it passes
// here, so a false alarm is caught before a server author sees it.
//
// The fixtures: the reference server in both eras and as one dual-era front, over both
// transports, and conformant_stdio.py, a server nobody wrote for mcpfuzz's oracles (Python's
// json module, made as strict as RFC 8259). Its --silent-on-depth mode drops a line nested too
// deep without a word, which row Z1 lets a stdio server do: no FAIL, and a WARN only where
// F1 tolerates the silence (a parse error left unanswered).
//
// The binary is driven as a user runs it, each run wrapped in `timeout`, judged from its JSON
// report.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "model/reproducer.h"
#include "support/files.h"
#include "support/processes.h"
#include "support/reference_server.h"
#include "transport/server_process.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::ScratchDirectory;

// A bound no run comes near unless it hangs.
constexpr int kRunBoundSeconds = 900;
const std::string kFuzz = "fuzz --seed 1 --cases 2000";

struct RunOf {
  test_support::ProcessRun process;
  json::value report;
  std::string Context() const {
    const std::string& output = process.output;
    return "exit " + std::to_string(process.exit_code) + "\n" +
           output.substr(output.size() > 4000 ? output.size() - 4000 : 0);
  }
};

// `mcpfuzz COMMAND ... TARGET` with a JSON report; TARGET is a URL or `-- argv`.
RunOf Mcpfuzz(const std::string& command, const std::string& target) {
  ScratchDirectory scratch("check-the-checks");
  std::filesystem::create_directories(scratch.path());
  const std::filesystem::path report = scratch.path() / "report.json";
  RunOf run;
  run.process = test_support::McpfuzzWithin(
      kRunBoundSeconds, command + " --report json=" + ShellQuote(report.string()) + " " + target);
  if (auto read = test_support::ReadReport(report)) run.report = std::move(*read);
  return run;
}

std::string Text(const json::value& value) {
  return value.is_string() ? std::string(value.get_string()) : json::serialize(value);
}

// The check results whose verdict is not PASS or NOT_APPLICABLE, one line each.
std::vector<std::string> Judged(const json::value& report, const std::set<std::string>& kinds) {
  std::vector<std::string> lines;
  for (const json::value& item : report.at("checks").as_array()) {
    const std::string verdict = Text(item.at("verdict"));
    if (kinds.contains(verdict)) {
      lines.push_back(Text(item.at("id")) + "@" + Text(item.at("revision")) + ": " + verdict +
                      ": " + json::serialize(item.at("observed")).substr(0, 300));
    }
  }
  return lines;
}

std::string Lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "  " + line + "\n";
  return text;
}

const std::set<std::string> kWrong = {"FAIL", "WARN", "UNVERIFIED"};

// `check` and `fuzz` against `target` find nothing wrong at all.
void ExpectNothingWrong(const std::string& target) {
  const RunOf check = Mcpfuzz("check", target);
  ASSERT_TRUE(check.report.is_object()) << "no JSON report\n" << check.Context();
  EXPECT_EQ(check.process.exit_code, 0) << check.Context();
  EXPECT_GT(check.report.at("summary").at("pass").as_int64(), 0) << check.Context();
  const std::vector<std::string> wrong = Judged(check.report, kWrong);
  EXPECT_TRUE(wrong.empty()) << "check judges a conformant server wrong:\n"
                             << Lines(wrong) << check.Context();

  const RunOf fuzz = Mcpfuzz(kFuzz, target);
  ASSERT_TRUE(fuzz.report.is_object()) << "no JSON report\n" << fuzz.Context();
  EXPECT_EQ(fuzz.process.exit_code, 0) << fuzz.Context();
  EXPECT_GT(fuzz.report.at("cases").as_int64(), 1000) << fuzz.Context();
  EXPECT_TRUE(fuzz.report.at("findings").as_array().empty())
      << "fuzz has findings against a conformant server\n"
      << fuzz.Context();
  // The one note a default run has: what --call-real-tools would add, as every fixture here
  // lists a tool.
  const json::array& notes = fuzz.report.at("notes").as_array();
  EXPECT_EQ(notes.size(), 1U) << json::serialize(notes) << "\n" << fuzz.Context();
  for (const json::value& note : notes) {
    EXPECT_TRUE(Text(note).starts_with("the tool-arguments family was left out"))
        << Text(note) << "\n"
        << fuzz.Context();
  }
}

std::string StdioTarget(const std::vector<std::string>& argv) {
  std::string target = "--";
  for (const std::string& word : argv) target += " " + ShellQuote(word);
  return target;
}

void ExpectNothingWrongOverHttp(const std::vector<std::string>& flags) {
  auto server = HttpServerProcess::Start(
      test_support::RefServerArgv(TransportKind::kHttp, {}, flags), std::chrono::seconds(30));
  ASSERT_TRUE(server.ok()) << server.error().message;
  ExpectNothingWrong(server->url());
}

TEST(CheckTheChecks, ReferenceServerOverStdio) {
  ExpectNothingWrong(StdioTarget(test_support::RefServerArgv(TransportKind::kStdio, {})));
}

TEST(CheckTheChecks, DualEraReferenceServerOverStdio) {
  ExpectNothingWrong(
      StdioTarget(test_support::RefServerArgv(TransportKind::kStdio, {}, {"--dual-era"})));
}

TEST(CheckTheChecks, ReferenceServerOverHttp) { ExpectNothingWrongOverHttp({}); }

TEST(CheckTheChecks, DualEraReferenceServerOverHttp) { ExpectNothingWrongOverHttp({"--dual-era"}); }

const std::string kConformantStdio = MCPFUZZ_SOURCE_DIR "/tests/fixtures/conformant_stdio.py";

TEST(CheckTheChecks, ConformantPythonServerOverStdio) {
  ExpectNothingWrong(StdioTarget({"python3", "-S", kConformantStdio}));
}

// Row Z1 tolerates a depth dropped without a word over stdio: neither limits.deep-nesting nor
// stdio.keeps-answering may hold it against the server. What F1 only tolerates (a parse error
// left unanswered) may WARN.
TEST(CheckTheChecks, ADepthDroppedSilentlyOverStdioIsNoFail) {
  const std::string target = StdioTarget({"python3", "-S", kConformantStdio, "--silent-on-depth"});
  const RunOf check = Mcpfuzz("check", target);
  ASSERT_TRUE(check.report.is_object()) << "no JSON report\n" << check.Context();
  EXPECT_EQ(check.process.exit_code, 0) << check.Context();
  std::size_t silences = 0;
  for (const json::value& item : check.report.at("checks").as_array()) {
    if (item.at("id") != "limits.deep-nesting") continue;
    EXPECT_EQ(item.at("verdict"), "PASS") << json::serialize(item).substr(0, 600);
    if (item.at("observed").at("channel") == "no_reply") ++silences;
  }
  EXPECT_GT(silences, 0U) << "the fixture answered every depth\n" << check.Context();
  for (const std::string& line : Judged(check.report, kWrong)) {
    EXPECT_TRUE(line.starts_with("jsonrpc.parse-error@") && line.find(": WARN: ") != line.npos)
        << line << "\n"
        << check.Context();
  }

  const RunOf fuzz = Mcpfuzz(kFuzz, target);
  ASSERT_TRUE(fuzz.report.is_object()) << "no JSON report\n" << fuzz.Context();
  EXPECT_NE(fuzz.process.exit_code, 2) << fuzz.Context();
  for (const json::value& finding : fuzz.report.at("findings").as_array()) {
    EXPECT_EQ(Text(finding.at("verdict")), "WARN") << json::serialize(finding).substr(0, 600);
    EXPECT_EQ(Text(finding.at("check_id")), "jsonrpc.parse-error")
        << json::serialize(finding).substr(0, 600);
  }
}

}  // namespace
}  // namespace mcpfuzz
