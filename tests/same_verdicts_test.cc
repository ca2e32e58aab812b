// Issue #24: `mcpfuzz check` and `mcpfuzz fuzz` judge one live target alike, and judge its
// timing by events, not by the clock. Each fixture (tests/fixtures/) is conformant in what it
// says and differs in when it says it (a slow start, errors 200 ms late, replies out of
// order, slow answers to huge lines), or breaks on one input (dies, or stops reading):
//
// - a conformant one gets no FAIL from `check` and no FAIL finding from a short seeded `fuzz`,
//   at the default flags: no --timeout-ms raised, whatever the machine's load;
// - a dying or deaf one gets its process check FAILed by both commands, and the same stdio.*
//   checks FAILed by each: a server does not die differently because `check` rather than
//   `fuzz` met it.
//
// The binary is driven as a user runs it (like cli_end_to_end_test.cc), each run wrapped in
// `timeout` so that a hang fails the test instead of hanging it, and judged from its JSON
// report.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/reproducer.h"
#include "support/files.h"
#include "support/processes.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::ProcessRun;
using test_support::ScratchDirectory;

// A bound no run comes near unless it hangs: the slow-start fixture costs 8 s per process
// started, `check` and `fuzz` each start about a dozen, and a loaded machine is slower still.
constexpr int kRunBoundSeconds = 900;
// A short campaign at fuzz's defaults otherwise: with seed 1, 200 cases reach every default
// family, the limits family's lines over 64 KiB (where the deaf fixture stops reading) among
// them.
const std::string kFuzz = "fuzz --seed 1 --cases 200";

struct Fixture {
  std::string name;
  std::string script;
  std::string arguments = {};  // words of the shell, as written
};

std::string FixtureCommand(const Fixture& fixture) {
  return "-- python3 -S " +
         ShellQuote(std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/" + fixture.script) +
         (fixture.arguments.empty() ? "" : " " + fixture.arguments);
}

struct Judged {
  ProcessRun run;
  std::optional<json::value> report;
  std::string what;
  // The command and the end of its output, for a failure message.
  std::string Context() const {
    const std::string& output = run.output;
    return what + ": exit " + std::to_string(run.exit_code) + "\n" +
           output.substr(output.size() > 4000 ? output.size() - 4000 : 0);
  }
};

// `mcpfuzz COMMAND` against the fixture, at the default flags, with a JSON report.
Judged Run(const std::string& command, const Fixture& fixture) {
  ScratchDirectory scratch("same-verdicts-" + fixture.name);
  std::filesystem::create_directories(scratch.path());
  const std::filesystem::path report = scratch.path() / "report.json";
  Judged judged;
  judged.what = "mcpfuzz " + command + " against " + fixture.name;
  judged.run = test_support::McpfuzzWithin(
      kRunBoundSeconds,
      command + " --report json=" + ShellQuote(report.string()) + " " + FixtureCommand(fixture));
  judged.report = test_support::ReadReport(report);
  return judged;
}

std::string Text(const json::value& value) {
  return value.is_string() ? std::string(value.get_string()) : json::serialize(value);
}

// "id@revision: verdict: observed" for a check result, or "id@revision (case of id): verdict:
// observed" for a fuzz finding, whose revision is its request's.
std::string Describe(const json::object& item, const std::string& id_member) {
  std::string text = Text(item.at(id_member));
  if (const json::value* revision = item.if_contains("revision")) text += "@" + Text(*revision);
  if (const json::value* request = item.if_contains("request")) {
    text += "@" + Text(request->at("revision"));
  }
  if (const json::value* case_check = item.if_contains("case_check_id")) {
    text += " (case of " + Text(*case_check) + ")";
  }
  text += ": " + Text(item.at("verdict"));
  if (const json::value* observed = item.if_contains("observed")) {
    text += ": " + json::serialize(*observed).substr(0, 300);
  }
  return text;
}

// The check ids a report's `items` FAIL, each FAIL described: a check report's "checks", or a
// fuzz report's "findings", whose "check_id" is the check that judged it (for a process
// incident the stdio.* check, not the check of the case that met it).
std::map<std::string, std::vector<std::string>> Fails(const Judged& judged, const char* items,
                                                      const std::string& id_member) {
  std::map<std::string, std::vector<std::string>> fails;
  for (const json::value& item : judged.report->at(items).as_array()) {
    if (item.at("verdict") == "FAIL") {
      fails[Text(item.at(id_member))].push_back(Describe(item.as_object(), id_member));
    }
  }
  return fails;
}
std::map<std::string, std::vector<std::string>> CheckFails(const Judged& judged) {
  return Fails(judged, "checks", "id");
}
std::map<std::string, std::vector<std::string>> FuzzFails(const Judged& judged) {
  return Fails(judged, "findings", "check_id");
}

std::string Join(const std::map<std::string, std::vector<std::string>>& fails) {
  std::string text;
  for (const auto& [id, described] : fails) {
    for (const std::string& one : described) text += "  " + one + "\n";
  }
  return text.empty() ? "  (none)\n" : text;
}

std::set<std::string> StdioIds(const std::map<std::string, std::vector<std::string>>& fails) {
  std::set<std::string> ids;
  for (const auto& [id, described] : fails) {
    if (id.starts_with("stdio.")) ids.insert(id);
  }
  return ids;
}

const std::vector<std::string> kHandshakeRevisions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                      "2024-11-05"};

// A conformant fixture: `check` speaks every handshake revision, judges something and FAILs
// nothing; `fuzz` ends with no FAIL finding.
void ExpectNoFail(const Fixture& fixture) {
  const Judged check = Run("check", fixture);
  ASSERT_TRUE(check.report.has_value()) << "no JSON report\n" << check.Context();
  EXPECT_EQ(check.run.exit_code, 0) << check.Context();
  // A revision dropped because a probe timed out is the clock deciding, not the server.
  std::set<std::string> speaks;
  for (const json::value& revision : check.report->at("eras").at("speaks").as_array()) {
    speaks.insert(Text(revision));
  }
  for (const std::string& revision : kHandshakeRevisions) {
    EXPECT_TRUE(speaks.contains(revision))
        << revision << " is not among the revisions spoken\n"
        << json::serialize(check.report->at("eras")).substr(0, 3000) << "\n"
        << check.Context();
  }
  EXPECT_GT(check.report->at("summary").at("pass").as_int64(), 0) << check.Context();
  const auto check_fails = CheckFails(check);
  EXPECT_TRUE(check_fails.empty()) << "check FAILs a conformant server:\n"
                                   << Join(check_fails) << check.Context();

  const Judged fuzz = Run(kFuzz, fixture);
  ASSERT_TRUE(fuzz.report.has_value()) << "no JSON report\n" << fuzz.Context();
  EXPECT_NE(fuzz.run.exit_code, 2) << fuzz.Context();
  EXPECT_GT(fuzz.report->at("cases").as_int64(), 0) << fuzz.Context();
  const auto fuzz_fails = FuzzFails(fuzz);
  EXPECT_TRUE(fuzz_fails.empty()) << "fuzz has FAIL findings against a conformant server:\n"
                                  << Join(fuzz_fails) << fuzz.Context();
}

// A fixture with one real deviation of the process: both commands FAIL `process_check`, and
// FAIL the same stdio.* checks, so they agree on what kind of failure the server has.
void ExpectSameProcessFail(const Fixture& fixture, const std::string& process_check) {
  const Judged check = Run("check", fixture);
  ASSERT_TRUE(check.report.has_value()) << "no JSON report\n" << check.Context();
  EXPECT_EQ(check.run.exit_code, 1) << check.Context();
  const auto check_fails = CheckFails(check);

  const Judged fuzz = Run(kFuzz, fixture);
  ASSERT_TRUE(fuzz.report.has_value()) << "no JSON report\n" << fuzz.Context();
  EXPECT_EQ(fuzz.run.exit_code, 1) << fuzz.Context();
  const auto fuzz_fails = FuzzFails(fuzz);

  EXPECT_TRUE(check_fails.contains(process_check))
      << "check does not FAIL " << process_check << "; its FAILs:\n"
      << Join(check_fails) << check.Context();
  EXPECT_TRUE(fuzz_fails.contains(process_check))
      << "fuzz does not FAIL " << process_check << "; its FAIL findings:\n"
      << Join(fuzz_fails) << fuzz.Context();
  EXPECT_EQ(StdioIds(check_fails), StdioIds(fuzz_fails))
      << "check and fuzz FAIL different stdio checks. check's FAILs:\n"
      << Join(check_fails) << "fuzz's FAIL findings:\n"
      << Join(fuzz_fails);
}

TEST(SameVerdicts, SlowStartIsNoFailAtTheDefaultFlags) {
  ExpectNoFail({"slow-start", "slow_start.py"});
}

TEST(SameVerdicts, ErrorsWrittenLateAreNoFailAtTheDefaultFlags) {
  ExpectNoFail({"late-errors", "late_errors.py"});
}

// The first error 200 ms late, every later one 1,000 ms: what was measured of the first
// understates the rest, so a request's error with a null id comes after the next request went
// out. It is the earlier request's late reply, never the next one's answer (judged so, it was
// a FAIL for an id not echoed, in check and in fuzz alike, on a quiet machine as on a busy
// one, where errors 200 ms late come later still).
TEST(SameVerdicts, ErrorsLaterThanTheFirstAreNoFailAtTheDefaultFlags) {
  ExpectNoFail({"later-errors", "late_errors.py", "200 1000"});
}

TEST(SameVerdicts, RepliesOutOfOrderAreNoFailAtTheDefaultFlags) {
  ExpectNoFail({"out-of-order", "out_of_order.py"});
}

TEST(SameVerdicts, SlowAnswersToHugeLinesAreNoFailAtTheDefaultFlags) {
  ExpectNoFail({"slow-big-lines", "slow_big_lines.py"});
}

TEST(SameVerdicts, AServerThatDiesOnAnInputFailsNoEarlyExitInBoth) {
  ExpectSameProcessFail({"dies-on-unknown-tool", "dies_on_unknown_tool.py"}, "stdio.no-early-exit");
}

TEST(SameVerdicts, AServerThatStopsReadingFailsKeepsAnsweringInBoth) {
  ExpectSameProcessFail({"deaf-after-big-line", "deaf_after_big_line.py"}, "stdio.keeps-answering");
}

}  // namespace
}  // namespace mcpfuzz
