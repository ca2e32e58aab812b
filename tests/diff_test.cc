// Differential runs (`mcpfuzz diff`) over reference servers with different faults: the same
// seeded cases reach every server; two conformant servers never disagree; a fault shows as
// disagreements on its own checks only, labelled by the oracle's verdicts on each side,
// deduplicated by the tuple of answers, shrunk, with one reproducer per target; the CLI's
// exit codes and its JSON report.

#include "cli/diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "campaign/differential.h"
#include "reports/writers.h"
#include "support/files.h"
#include "support/processes.h"
#include "support/reference_server.h"

namespace mcpfuzz {
namespace {

using test_support::ReadJson;

using namespace std::chrono_literals;

constexpr std::uint64_t kSeed = 7;
constexpr std::size_t kCases = 60;

struct Servers {
  std::vector<test_support::RefTarget> running;
  std::vector<DiffTarget> targets;
};

// One HTTP reference server per fault set ("" is conformant).
Servers Start(const std::vector<std::vector<std::string>>& fault_sets) {
  Servers servers;
  for (const auto& faults : fault_sets) {
    servers.running.push_back(test_support::StartRefServer(
        TransportKind::kHttp, faults, test_support::ReferenceServerLimits(3000ms, 20ms)));
    std::string name = "refserver";
    for (const auto& fault : faults) name += " --fault " + fault;
    ReproducerTarget reproducer;
    reproducer.kind = TransportKind::kHttp;
    reproducer.url = servers.running.back().http_server->url();
    servers.targets.push_back(DiffTarget{name, servers.running.back().connect, reproducer});
  }
  return servers;
}

DiffOptions Options() {
  DiffOptions options;
  options.seed = kSeed;
  options.max_cases = kCases;
  options.families = {"unknown-names", "unknown-method", "invalid-request"};
  options.revision = Revision::k2025_11_25;
  return options;
}

std::string Describe(const DiffResult& result) {
  std::string text;
  for (const Disagreement& d : result.disagreements) {
    text += d.check_id + " " + std::string(ToString(d.label)) + " x" +
            std::to_string(d.repeats + 1) + ":";
    for (const DiffCell& cell : d.cells) {
      text += " [" + ToString(cell.answer) + " " + std::string(ToString(cell.verdict.kind)) + "]";
    }
    text += "\n";
  }
  for (const auto& note : result.notes) text += "note: " + note + "\n";
  return text;
}

std::size_t DisagreeingCases(const DiffResult& result) {
  std::size_t total = 0;
  for (const DiffCheckCount& check : result.checks) total += check.disagreeing;
  return total;
}

TEST(Diff, TwoConformantServersNeverDisagree) {
  const Servers servers = Start({{}, {}});
  const DiffResult result = RunDiff(servers.targets, Options());
  EXPECT_FALSE(result.unreachable) << Describe(result);
  EXPECT_EQ(result.cases, kCases);
  EXPECT_EQ(result.incomparable, 0U);
  EXPECT_TRUE(result.disagreements.empty()) << Describe(result);
  EXPECT_FALSE(AnyWrongSide(result));
}

TEST(Diff, OneFaultDisagreesOnItsOwnCheckWithTheFaultySideWrong) {
  const Servers servers = Start({{}, {"unknown-tool-is-error"}});
  const DiffResult result = RunDiff(servers.targets, Options());
  ASSERT_FALSE(result.unreachable) << Describe(result);
  ASSERT_EQ(result.disagreements.size(), 1U) << Describe(result);
  const Disagreement& d = result.disagreements.front();
  EXPECT_EQ(d.check_id, "tools.unknown-name");
  EXPECT_EQ(d.label, DiffLabel::kSomeWrong);
  ASSERT_EQ(d.cells.size(), 2U);
  EXPECT_TRUE(d.cells[0].accepted);
  EXPECT_EQ(d.cells[0].answer.channel, Channel::kProtocolError);
  EXPECT_FALSE(d.cells[1].accepted);
  EXPECT_EQ(d.cells[1].verdict.kind, VerdictKind::kFail);
  EXPECT_EQ(d.cells[1].answer.channel, Channel::kExecutionError);
  EXPECT_TRUE(AnyWrongSide(result));
  // Deduplicated: every disagreeing case is the row or one of its repeats.
  EXPECT_EQ(d.repeats + 1, DisagreeingCases(result)) << Describe(result);
  EXPECT_GT(d.repeats, 0U);
  // Shrunk: the minimal request is no longer than the first, and keeps the tuple (the cells
  // are the minimal request's answers, still the fault's).
  // Both targets speak HTTP: one request for both, held once.
  ASSERT_EQ(d.minimal.size(), 1U);
  ASSERT_EQ(d.original_bytes.size(), 1U);
  EXPECT_LE(d.minimal[0].WireSize(), d.original_bytes[0]);
  // One reproducer per target, each sending to its own server.
  EXPECT_NE(d.cells[0].reproducer.find(servers.targets[0].reproducer.url), std::string::npos);
  EXPECT_NE(d.cells[1].reproducer.find(servers.targets[1].reproducer.url), std::string::npos);
}

TEST(Diff, ThreeServersTwoFaultsGiveExactCountsAndLabels) {
  const Servers servers = Start({{}, {"unknown-tool-is-error"}, {"unknown-tool-plain-success"}});
  const DiffResult result = RunDiff(servers.targets, Options());
  ASSERT_FALSE(result.unreachable) << Describe(result);
  ASSERT_EQ(result.disagreements.size(), 1U) << Describe(result);
  const Disagreement& d = result.disagreements.front();
  EXPECT_EQ(d.check_id, "tools.unknown-name");
  EXPECT_EQ(d.label, DiffLabel::kSomeWrong);
  EXPECT_TRUE(d.cells[0].accepted);
  EXPECT_FALSE(d.cells[1].accepted);
  EXPECT_FALSE(d.cells[2].accepted);
  EXPECT_EQ(d.cells[2].answer.channel, Channel::kSuccess);
}

TEST(Diff, TwoDifferentFaultsOnOneCheckAreBothWrong) {
  const Servers servers = Start({{"unknown-tool-is-error"}, {"unknown-tool-plain-success"}});
  const DiffResult result = RunDiff(servers.targets, Options());
  ASSERT_FALSE(result.unreachable) << Describe(result);
  ASSERT_EQ(result.disagreements.size(), 1U) << Describe(result);
  EXPECT_EQ(result.disagreements.front().label, DiffLabel::kAllWrong);
}

TEST(Diff, FaultsOfDifferentChecksDisagreeOnEach) {
  const Servers servers = Start({{}, {"unknown-tool-is-error"}, {"invalid-request-accepted"}});
  const DiffResult result = RunDiff(servers.targets, Options());
  ASSERT_FALSE(result.unreachable) << Describe(result);
  std::set<std::string> checks;
  for (const Disagreement& d : result.disagreements) {
    checks.insert(d.check_id);
    EXPECT_EQ(d.label, DiffLabel::kSomeWrong) << Describe(result);
    EXPECT_TRUE(d.cells[0].accepted) << Describe(result);  // the conformant server
  }
  EXPECT_TRUE(checks.contains("tools.unknown-name")) << Describe(result);
  EXPECT_EQ(result.disagreements.size(), 3U) << Describe(result);
  std::size_t rows_and_repeats = 0;
  for (const Disagreement& d : result.disagreements) rows_and_repeats += d.repeats + 1;
  EXPECT_EQ(rows_and_repeats, DisagreeingCases(result));
}

// HTTP and stdio side by side: each transport draws its own case from the seed, and a
// disagreement is shrunk on both at once, each side's case no longer than it was drawn.
TEST(Diff, MixedTransportsShrinkEachSidesCaseInStep) {
  Servers servers = Start({{}});
  servers.running.push_back(
      test_support::StartRefServer(TransportKind::kStdio, {"unknown-tool-is-error"},
                                   test_support::ReferenceServerLimits(3000ms, 20ms)));
  ReproducerTarget stdio;
  stdio.kind = TransportKind::kStdio;
  stdio.argv = test_support::RefServerArgv(TransportKind::kStdio, {"unknown-tool-is-error"});
  servers.targets.push_back(DiffTarget{"refserver --stdio", servers.running.back().connect, stdio});

  DiffOptions options = Options();
  options.max_cases = 30;
  const DiffResult result = RunDiff(servers.targets, options);
  ASSERT_FALSE(result.unreachable) << Describe(result);
  ASSERT_EQ(result.disagreements.size(), 1U) << Describe(result);
  const Disagreement& d = result.disagreements.front();
  EXPECT_EQ(d.check_id, "tools.unknown-name");
  EXPECT_EQ(d.label, DiffLabel::kSomeWrong);
  EXPECT_GT(d.shrink_steps, 0U) << Describe(result);
  ASSERT_EQ(d.minimal.size(), 2U);
  for (std::size_t t = 0; t < 2; ++t) {
    EXPECT_LE(d.minimal[t].WireSize(), d.original_bytes.at(t));
  }
  EXPECT_LT(d.minimal[1].WireSize(), d.original_bytes.at(1));
  EXPECT_EQ(d.minimal[0].transport, TransportKind::kHttp);
  EXPECT_EQ(d.minimal[1].transport, TransportKind::kStdio);
  EXPECT_EQ(d.cells[0].answer.http_status, 0);  // not compared across transports
}

// The reference server declares prompts, resources and logging; the conformant stdio fixture
// only tools. A case probing one of those methods is drawn from what both share, but the
// reference server, which declared it, is judged by its own capabilities: no FAIL or WARN for
// serving what it declared (issue #26).
TEST(Diff, EachTargetIsJudgedByItsOwnCapabilities) {
  Servers servers = Start({{}});
  StdioTarget fixture;
  fixture.argv = {"python3", MCPFUZZ_SOURCE_DIR "/tests/fixtures/conformant_stdio.py"};
  fixture.limits.timeout = 3000ms;
  fixture.shutdown_grace = 300ms;
  const TransportFactory connect = [fixture]() -> Result<std::unique_ptr<Transport>> {
    auto spawned = SpawnStdio(fixture);
    if (!spawned) return spawned.error();
    return std::unique_ptr<Transport>(std::move(*spawned));
  };
  ReproducerTarget stdio;
  stdio.kind = TransportKind::kStdio;
  stdio.argv = fixture.argv;
  servers.targets.push_back(DiffTarget{"conformant_stdio.py", connect, stdio});

  DiffOptions options = Options();
  options.families = {"unknown-method"};
  const DiffResult result = RunDiff(servers.targets, options);
  ASSERT_FALSE(result.unreachable) << Describe(result);
  const auto probed = std::find_if(
      result.checks.begin(), result.checks.end(),
      [](const DiffCheckCount& count) { return count.check_id == "capabilities.unadvertised"; });
  ASSERT_NE(probed, result.checks.end()) << Describe(result);
  EXPECT_GT(probed->cases, 0U);
  bool the_reference_server_was_not_probed = false;
  for (const Disagreement& d : result.disagreements) {
    if (d.check_id != "capabilities.unadvertised") continue;
    for (const DiffCell& cell : d.cells) {
      EXPECT_NE(cell.verdict.kind, VerdictKind::kFail) << Describe(result);
      EXPECT_NE(cell.verdict.kind, VerdictKind::kWarn) << Describe(result);
    }
    the_reference_server_was_not_probed =
        the_reference_server_was_not_probed ||
        d.cells.front().verdict.kind == VerdictKind::kNotApplicable;
  }
  EXPECT_TRUE(the_reference_server_was_not_probed) << Describe(result);
}

TEST(Diff, SameSeedSameDisagreements) {
  const Servers servers = Start({{}, {"unknown-tool-is-error"}});
  const DiffResult first = RunDiff(servers.targets, Options());
  const DiffResult second = RunDiff(servers.targets, Options());
  EXPECT_EQ(Describe(first), Describe(second));
}

// Blame the layer: the baseline (last) stands for the SDK, whose deviation (an unknown tool as
// an isError result) the target inherits, while accepting invalid requests is its own.
TEST(Diff, BaselineTellsInheritedDeviationsFromTheServersOwn) {
  const Servers servers =
      Start({{"unknown-tool-is-error", "invalid-request-accepted"}, {"unknown-tool-is-error"}});
  DiffOptions options = Options();
  options.last_is_baseline = true;
  const DiffResult result = RunDiff(servers.targets, options);
  ASSERT_FALSE(result.unreachable) << Describe(result);
  std::map<std::string, bool> inherited;  // check id → the target's cell inherited
  for (const Disagreement& d : result.disagreements) {
    ASSERT_EQ(d.cells.size(), 2U);
    EXPECT_FALSE(d.cells[1].inherited);  // the baseline's own cell is never marked
    inherited[d.check_id] = d.cells[0].inherited;
  }
  // The answers agree on the unknown tool (both FAIL): kept only because of the baseline.
  ASSERT_TRUE(inherited.contains("tools.unknown-name")) << Describe(result);
  EXPECT_TRUE(inherited["tools.unknown-name"]);
  for (const Disagreement& d : result.disagreements) {
    if (d.check_id == "tools.unknown-name") {
      EXPECT_EQ(d.label, DiffLabel::kAgreeing);
    }
  }
  ASSERT_TRUE(inherited.contains("jsonrpc.invalid-request.missing-jsonrpc")) << Describe(result);
  EXPECT_FALSE(inherited["jsonrpc.invalid-request.missing-jsonrpc"]);
  EXPECT_EQ(result.disagreements.size(), 3U) << Describe(result);

  // Without the baseline the same two servers only disagree on what is the target's own.
  const DiffResult plain = RunDiff(servers.targets, Options());
  for (const Disagreement& d : plain.disagreements) {
    EXPECT_NE(d.check_id, "tools.unknown-name") << Describe(plain);
  }
}

// --- the reports ---------------------------------------------------------------------------------

std::string Written(reports::Format format, const reports::Report& report) {
  std::ostringstream out;
  reports::Write(format, report, out);
  return out.str();
}

TEST(DiffReport, EveryFormatShowsTheMatrixAndTheJsonReadsBack) {
  const Servers servers = Start({{}, {"unknown-tool-is-error"}});
  const DiffOptions options = Options();
  const DiffResult result = RunDiff(servers.targets, options);
  ASSERT_EQ(result.disagreements.size(), 1U) << Describe(result);
  const reports::Report report = cli::BuildDiffReport(result, options, {"http", "http"});

  const boost::json::value json = boost::json::parse(Written(reports::Format::kJson, report));
  EXPECT_EQ(json.at("summary").at("wrong_side").as_int64(), 1);
  const auto& answers = json.at("disagreements").at(0).at("answers").as_array();
  EXPECT_TRUE(answers.at(0).at("accepted").as_bool());
  EXPECT_FALSE(answers.at(1).at("accepted").as_bool());
  EXPECT_EQ(answers.at(1).at("answer").as_string(), "execution_error (HTTP 200)");

  const std::string markdown = Written(reports::Format::kMarkdown, report);
  EXPECT_NE(
      markdown.find("| `tools.unknown-name` | some-wrong | protocol\\_error -32602 (HTTP 200) "
                    "✓ \\[PASS\\] | execution\\_error (HTTP 200) \\[FAIL\\] |"),
      std::string::npos)
      << markdown;
  const std::string junit = Written(reports::Format::kJunit, report);
  EXPECT_NE(junit.find("tests=\"1\" failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure"), std::string::npos) << junit;
  const boost::json::value sarif = boost::json::parse(Written(reports::Format::kSarif, report));
  EXPECT_EQ(sarif.at("runs").at(0).at("results").at(0).at("level").as_string(), "error");
  const std::string html = Written(reports::Format::kHtml, report);
  EXPECT_NE(html.find("<td class=\"v-pass\">protocol_error -32602 (HTTP 200) ✓"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"v-fail\">execution_error (HTTP 200) <b>FAIL"),
            std::string::npos);
  EXPECT_NE(html.find("✓ marks an answer the table accepts"), std::string::npos);
  std::ostringstream terminal;
  reports::WriteTerminal(report, terminal);
  EXPECT_NE(terminal.str().find("1 disagreement(s), 1 with a wrong side"), std::string::npos);

  // The JSON reads back into the same report: what `mcpfuzz merge` starts from.
  auto read = reports::DiffReportFromJson(json);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(boost::json::serialize(reports::ReportToJson(*read)), boost::json::serialize(json));
}

// --- the command line ---------------------------------------------------------------------------

TEST(DiffCli, ExitCodesAndJsonReport) {
  const test_support::ScratchDirectory scratch("diff-cli");
  std::filesystem::create_directories(scratch.path());
  const std::string flags =
      " --seed 7 --cases 40 --revision 2025-11-25 --timeout-ms 3000"
      " --families unknown-names,unknown-method";

  const auto agree = test_support::Mcpfuzz("diff builtin builtin" + flags);
  EXPECT_EQ(agree.exit_code, 0) << agree.output;

  const std::string json = (scratch.path() / "diff.json").string();
  const auto wrong = test_support::Mcpfuzz("diff builtin builtin:unknown-tool-is-error" + flags +
                                           " --report json=" + ShellQuote(json));
  EXPECT_EQ(wrong.exit_code, 1) << wrong.output;
  EXPECT_NE(wrong.output.find("tools.unknown-name"), std::string::npos) << wrong.output;
  const boost::json::value report = ReadJson(json);
  EXPECT_EQ(report.at("format").as_string(), "mcpfuzz-diff-report");
  EXPECT_EQ(report.at("seed").as_int64(), 7);
  EXPECT_EQ(report.at("summary").at("wrong_side").as_int64(), 1);
  const auto& row = report.at("disagreements").as_array().at(0);
  EXPECT_EQ(row.at("label").as_string(), "some-wrong");
  EXPECT_EQ(row.at("answers").as_array().size(), 2U);
  EXPECT_TRUE(row.at("answers").as_array().at(0).at("accepted").as_bool());

  const auto bad = test_support::Mcpfuzz("diff builtin nonsense" + flags);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  const auto one = test_support::Mcpfuzz("diff builtin" + flags);
  EXPECT_EQ(one.exit_code, 2) << one.output;
  const auto shard = test_support::Mcpfuzz("diff builtin builtin --shard 3/2" + flags);
  EXPECT_EQ(shard.exit_code, 2) << shard.output;
  EXPECT_NE(shard.output.find("--shard takes K/N"), std::string::npos) << shard.output;
  const auto help = test_support::Mcpfuzz("help diff");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--baseline-server"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("Exit codes: 0 no disagreement with a wrong side"), std::string::npos);
}

// The members that differ between any two runs, sharded or not: when it started and how long
// it took. Everything else must be identical.
std::string WithoutRunMembers(boost::json::value report) {
  report.as_object().erase("started_at");
  report.as_object().erase("duration_seconds");
  return boost::json::serialize(report);
}

TEST(DiffCli, TwoShardsMergedEqualTheUnshardedRun) {
  const test_support::ScratchDirectory scratch("diff-shards");
  std::filesystem::create_directories(scratch.path());
  const std::string run =
      "diff builtin builtin:unknown-tool-is-error "
      "builtin:invalid-request-accepted --seed 11 --cases 50 "
      "--revision 2025-11-25 --timeout-ms 3000 "
      "--families unknown-names,invalid-request,unknown-method";
  auto path = [&](const char* name) { return (scratch.path() / name).string(); };
  EXPECT_EQ(test_support::Mcpfuzz(run + " --report json=" + path("all.json")).exit_code, 1);
  EXPECT_EQ(test_support::Mcpfuzz(run + " --shard 1/2 --report json=" + path("1.json")).exit_code,
            1);
  // A shard may meet no wrong side at all: its exit code is its own business.
  (void)test_support::Mcpfuzz(run + " --shard 2/2 --report json=" + path("2.json"));
  const auto merged = test_support::Mcpfuzz("merge " + path("1.json") + " " + path("2.json") +
                                            " --report json=" + path("merged.json") +
                                            " --report markdown=" + path("merged.md"));
  EXPECT_EQ(merged.exit_code, 1) << merged.output;
  const boost::json::value all = ReadJson(path("all.json"));
  ASSERT_GE(all.at("disagreements").as_array().size(), 2U);
  // What each server announced is in the report, so the comparison below covers it too.
  for (const auto& target : all.at("targets").as_array()) {
    EXPECT_EQ(target.at("server_info"),
              boost::json::parse(R"({"name":"mcpfuzz-refserver","version":"0.1.0"})"));
  }
  EXPECT_EQ(WithoutRunMembers(ReadJson(path("merged.json"))), WithoutRunMembers(all));
  EXPECT_TRUE(std::filesystem::exists(path("merged.md")));
  // A shard missing or given twice is refused, as by the fuzz and survey merges.
  const auto missing = test_support::Mcpfuzz("merge " + path("1.json"));
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("shard 2/2 is missing"), std::string::npos) << missing.output;
  const auto twice = test_support::Mcpfuzz("merge " + path("1.json") + " " + path("2.json") + " " +
                                           path("2.json"));
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("shard 2/2 is given twice"), std::string::npos) << twice.output;
  // Shards of different runs are refused.
  (void)test_support::Mcpfuzz("diff builtin builtin --seed 12 --cases 4 --report json=" +
                              path("other.json"));
  EXPECT_EQ(test_support::Mcpfuzz("merge " + path("1.json") + " " + path("other.json")).exit_code,
            2);
}

}  // namespace
}  // namespace mcpfuzz
