// One exit-code and severity policy for every command (issue #27): `--fail-on fail|warn|never`,
// JUnit and SARIF by the same rule, and baselines for fuzz and replay, run as a user runs them
// against the built-in reference server. Its fault error-leaks-internals gives WARN findings
// only (error texts that leak internals are a SHOULD), unknown-method-200 a FAIL.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/files.h"
#include "support/processes.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::Mcpfuzz;
using test_support::ProcessRun;
using test_support::ReadJson;
using test_support::ScratchDirectory;

// The same cases every time: the findings of one run are those of the next.
const std::string kWarnsOnly =
    "fuzz --builtin --fault error-leaks-internals --seed 1 --cases 60 --resends 1 "
    "--progress never";

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class ExitPolicy : public ::testing::Test {
 protected:
  ExitPolicy() : scratch_("exit-policy") { std::filesystem::create_directories(scratch_.path()); }
  std::string Path(const std::string& name) const { return (scratch_.path() / name).string(); }
  ScratchDirectory scratch_;
};

TEST_F(ExitPolicy, WarnOnlyFuzzFindingsExitZeroByDefaultAndOneUnderFailOnWarn) {
  const ProcessRun by_default =
      Mcpfuzz(kWarnsOnly + " --report junit=" + Path("d.xml") +
              " --report sarif=" + Path("d.sarif") + " --report json=" + Path("d.json"));
  EXPECT_EQ(by_default.exit_code, 0) << by_default.output;
  EXPECT_TRUE(Contains(by_default.output, "\nWARN  ")) << by_default.output;  // listed
  EXPECT_TRUE(Contains(by_default.output, "0 fail the run (--fail-on fail)")) << by_default.output;
  const std::string junit = Slurp(Path("d.xml"));
  EXPECT_FALSE(Contains(junit, "<failure")) << junit;
  EXPECT_TRUE(Contains(junit, "does not fail the run under --fail-on fail")) << junit;
  // SARIF levels follow the verdict: a WARN is a warning.
  const json::value sarif = ReadJson(Path("d.sarif"));
  const json::array& results = sarif.at("runs").at(0).at("results").as_array();
  ASSERT_FALSE(results.empty());
  for (const json::value& result : results) EXPECT_EQ(result.at("level"), "warning");
  const json::value report = ReadJson(Path("d.json"));
  EXPECT_EQ(report.at("fail_on"), "fail");
  EXPECT_EQ(report.at("findings").at(0).at("fails_run"), false);

  const ProcessRun strict = Mcpfuzz(kWarnsOnly + " --fail-on warn --report junit=" + Path("w.xml"));
  EXPECT_EQ(strict.exit_code, 1) << strict.output;
  EXPECT_TRUE(Contains(Slurp(Path("w.xml")), "<failure")) << Slurp(Path("w.xml"));

  const ProcessRun never = Mcpfuzz(
      "fuzz --builtin --fault unknown-method-200 --seed 1 --cases 60 --resends 1 --fail-on never");
  EXPECT_EQ(never.exit_code, 0) << never.output;
  EXPECT_TRUE(Contains(never.output, "\nFAIL  ")) << never.output;
}

TEST_F(ExitPolicy, AWarnOnlyCheckAndDiffPassUnlessFailOnWarn) {
  const std::string check =
      "check --builtin --fault error-leaks-internals --only jsonrpc.parse-error";
  const ProcessRun warns = Mcpfuzz(check + " --report junit=" + Path("c.xml"));
  EXPECT_EQ(warns.exit_code, 0) << warns.output;
  EXPECT_TRUE(Contains(warns.output, "WARN  jsonrpc.parse-error")) << warns.output;
  EXPECT_FALSE(Contains(Slurp(Path("c.xml")), "<failure")) << Slurp(Path("c.xml"));
  EXPECT_EQ(Mcpfuzz(check + " --fail-on warn").exit_code, 1);

  // The faulty side WARNs (-32601 for an unknown tool) where the conformant one passes: merely
  // different, unless WARNs count.
  const std::string diff =
      "diff builtin builtin:unknown-tool-wrong-code --seed 1 --cases 40 --families unknown-names";
  const ProcessRun different = Mcpfuzz(diff);
  EXPECT_EQ(different.exit_code, 0) << different.output;
  EXPECT_EQ(Mcpfuzz(diff + " --fail-on warn").exit_code, 1);
}

TEST_F(ExitPolicy, AFuzzBaselineKnowsTodaysFindingsAndReportsNewAndStaleOnes) {
  const std::string strict = kWarnsOnly + " --fail-on warn";
  const ProcessRun written = Mcpfuzz(strict + " --write-baseline " + Path("known.json"));
  EXPECT_EQ(written.exit_code, 0) << written.output;
  const json::value baseline = ReadJson(Path("known.json"));
  const std::size_t entries = baseline.at("known_findings").as_array().size();
  ASSERT_GE(entries, 1U);
  EXPECT_TRUE(Contains(written.output, "baseline: " + std::to_string(entries) +
                                           " entries written to " + Path("known.json")))
      << written.output;

  const ProcessRun known = Mcpfuzz(strict + " --baseline " + Path("known.json"));
  EXPECT_EQ(known.exit_code, 0) << known.output;
  EXPECT_TRUE(Contains(known.output, "baseline: 0 new, " + std::to_string(entries) + " known"))
      << known.output;

  // Another fault: its FAIL is new, and what the baseline lists is not seen (stale).
  const ProcessRun other = Mcpfuzz(
      "fuzz --builtin --fault unknown-method-200 --seed 1 --cases 60 --resends 1 --fail-on warn "
      "--report json=" +
      Path("other.json") + " --baseline " + Path("known.json"));
  EXPECT_EQ(other.exit_code, 1) << other.output;
  EXPECT_TRUE(Contains(other.output, "  new: methods.unknown | FAIL")) << other.output;
  EXPECT_TRUE(Contains(other.output, "  stale: jsonrpc.parse-error | WARN")) << other.output;
  const json::value compared = ReadJson(Path("other.json")).at("baseline");
  EXPECT_GE(compared.at("new_failures").as_array().size(), 1U);
  EXPECT_GE(compared.at("stale").as_array().size(), 1U);
}

TEST_F(ExitPolicy, ReplaySaysStillWarnsAndFixedAndTakesABaseline) {
  // A baseline written by fuzz keys findings as replay does: it serves the replay of its cases.
  const ProcessRun found = Mcpfuzz(kWarnsOnly + " --corpus " + Path("cases") +
                                   " --fail-on warn --write-baseline " + Path("fuzz-known.json"));
  ASSERT_EQ(found.exit_code, 0) << found.output;
  const std::string replay = "replay " + Path("cases") + " --builtin";

  const ProcessRun warns = Mcpfuzz(replay + " --fault error-leaks-internals");
  EXPECT_EQ(warns.exit_code, 0) << warns.output;
  EXPECT_TRUE(Contains(warns.output, "still warns")) << warns.output;
  EXPECT_FALSE(Contains(warns.output, "still fails")) << warns.output;
  EXPECT_EQ(Mcpfuzz(replay + " --fault error-leaks-internals --fail-on warn").exit_code, 1);

  const ProcessRun fixed = Mcpfuzz(replay);
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
  EXPECT_TRUE(Contains(fixed.output, "fixed  ")) << fixed.output;
  EXPECT_FALSE(Contains(fixed.output, "still fails")) << fixed.output;

  const std::string strict = replay + " --fault error-leaks-internals --fail-on warn";
  const ProcessRun fuzz_known = Mcpfuzz(strict + " --baseline " + Path("fuzz-known.json"));
  EXPECT_EQ(fuzz_known.exit_code, 0) << fuzz_known.output;
  EXPECT_TRUE(Contains(fuzz_known.output, "baseline: 0 new,")) << fuzz_known.output;

  const ProcessRun written = Mcpfuzz(strict + " --write-baseline " + Path("known.json"));
  EXPECT_EQ(written.exit_code, 0) << written.output;
  EXPECT_TRUE(Contains(written.output, "written to " + Path("known.json"))) << written.output;
  const ProcessRun known = Mcpfuzz(strict + " --baseline " + Path("known.json"));
  EXPECT_EQ(known.exit_code, 0) << known.output;
  EXPECT_TRUE(Contains(known.output, "still warns (known)")) << known.output;
}

// A run that could not judge its target must not replace a good baseline with an empty one.
TEST_F(ExitPolicy, ARunThatJudgedNothingLeavesTheBaselineAsItWas) {
  const std::string known = Path("known.json");
  ASSERT_EQ(Mcpfuzz(kWarnsOnly + " --fail-on warn --write-baseline " + known).exit_code, 0);
  const std::string before = Slurp(known);
  ASSERT_NE(before.find("known_findings"), std::string::npos) << before;
  for (const std::string& command : {std::string("fuzz --cases 5"), std::string("check")}) {
    const ProcessRun unreachable =
        Mcpfuzz(command + " http://127.0.0.1:9/mcp --write-baseline " + known);
    EXPECT_EQ(unreachable.exit_code, 2) << unreachable.output;
    EXPECT_EQ(Slurp(known), before) << command;
  }
}

}  // namespace
}  // namespace mcpfuzz
