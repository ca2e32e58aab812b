// Scale-out (issue #14): `--shard K/N` splits a fuzz campaign's case indices and a survey's
// targets, and `mcpfuzz merge` joins the shards' JSON reports into the report the unsharded run
// writes. A seeded campaign against the reference server with faults (so there are findings)
// is run whole and in 2 and 3 shards; the merged report must equal the whole run's byte for
// byte, less the members that measure the run rather than the target. Merge refuses shards that
// do not make one run. Reports read back from their JSON write every format as the original.

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "campaign/campaign.h"
#include "cli/run_reports.h"
#include "model/text.h"
#include "reports/diff.h"
#include "reports/merge.h"
#include "reports/writers.h"
#include "support/files.h"
#include "support/processes.h"
#include "support/reference_server.h"
#include "support/report_fixtures.h"

namespace mcpfuzz::test_support {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// What differs between any two runs, sharded or not, or measures the work of the run rather
// than the target: when it started, how long it took (and the rate and time breakdown that
// follow from it), and for a campaign the sessions it opened, the stdio server restarts and
// the cases sent in pipelined windows (each shard opens its own sessions, and restarts the
// server for the findings it investigates itself). Everything else must be identical.
std::string WithoutRunMembers(json::value report) {
  json::object& out = report.as_object();
  for (const char* member :
       {"started_at", "duration_seconds", "elapsed_seconds", "cases_per_second", "timing",
        "sessions_opened", "pipelined", "restarts", "warm_restarts"}) {
    out.erase(member);
  }
  // A survey's exchanges carry how long each took.
  if (auto* targets = out.if_contains("targets"); targets != nullptr && targets->is_array()) {
    for (json::value& target : targets->as_array()) {
      for (json::value& check : target.as_object()["checks"].as_array()) {
        for (json::value& exchange : check.as_object()["exchanges"].as_array()) {
          auto& observation = exchange.as_object()["observation"];
          if (observation.is_object()) observation.as_object().erase("elapsed_ms");
        }
      }
    }
  }
  // curl's own words about a refused connection carry a duration too ("after 1 ms").
  return std::regex_replace(json::serialize(report), std::regex(R"(after [0-9]+ ms)"),
                            "after N ms");
}

class Shards : public ::testing::Test {
 protected:
  Shards() : scratch_("shards") { fs::create_directories(scratch_.path()); }
  std::string Path(const std::string& name) const { return (scratch_.path() / name).string(); }
  ScratchDirectory scratch_;
};

// Two faults, so the findings are of several signatures and come back in several shards.
const std::string kFaults =
    "fuzz --builtin-stdio --fault unknown-tool-is-error --fault invalid-request-accepted "
    "--resends 1 --timeout-ms 3000 --families unknown-names,invalid-request,unknown-method";
const std::string kCampaign = kFaults + " --seed 5 --cases 90";

TEST_F(Shards, FuzzShardsMergedEqualTheUnshardedCampaign) {
  const ProcessRun whole = Mcpfuzz(kCampaign + " --report json=" + Path("all.json"));
  ASSERT_EQ(whole.exit_code, 1) << whole.output;
  const json::value all = ReadJson(Path("all.json"));
  const json::array& findings = all.at("findings").as_array();
  ASSERT_GE(findings.size(), 2U) << whole.output;
  // What the server announced is in the report, so the comparison below covers it too.
  EXPECT_EQ(all.at("server_info"),
            json::parse(R"({"name":"mcpfuzz-refserver","version":"0.1.0"})"));
  // The test means something only when some signature is met more than once.
  std::int64_t repeats = 0;
  for (const json::value& finding : findings) repeats += finding.at("repeats").as_int64();
  ASSERT_GT(repeats, 0);

  for (int count : {2, 3}) {
    std::string inputs;
    for (int index = 1; index <= count; ++index) {
      const std::string name = std::to_string(index) + "of" + std::to_string(count) + ".json";
      // A shard may meet no finding at all: its exit code is its own business.
      (void)Mcpfuzz(kCampaign + " --shard " + std::to_string(index) + "/" + std::to_string(count) +
                    " --report json=" + Path(name));
      const json::value shard = ReadJson(Path(name));
      EXPECT_EQ(shard.at("shard").as_string(), std::to_string(index) + "/" + std::to_string(count));
      inputs += " " + Path(name);
    }
    const std::string merged_name = "merged" + std::to_string(count);
    const ProcessRun merged =
        Mcpfuzz("merge" + inputs + " --report json=" + Path(merged_name + ".json") +
                " --report html=" + Path(merged_name + ".html") +
                " --report sarif=" + Path(merged_name + ".sarif"));
    EXPECT_EQ(merged.exit_code, whole.exit_code) << merged.output;
    EXPECT_EQ(WithoutRunMembers(ReadJson(Path(merged_name + ".json"))), WithoutRunMembers(all))
        << count << " shards";
    EXPECT_FALSE(ReadJson(Path(merged_name + ".json")).as_object().contains("shard"));
    EXPECT_TRUE(fs::exists(Path(merged_name + ".html")));
    EXPECT_NE(merged.output.find("finding"), std::string::npos) << merged.output;
  }
}

TEST_F(Shards, MergeRefusesShardsThatAreNotOneRun) {
  const std::string run = kFaults + " --seed 5 --cases 12";
  for (const char* shard : {"1/2", "2/2"}) {
    (void)Mcpfuzz(run + " --shard " + shard +
                  " --report json=" + Path(std::string(shard, 1) + ".json"));
  }
  (void)Mcpfuzz(kFaults +
                " --seed 6 --cases 12 --shard 2/2 --report json=" + Path("other-seed.json"));
  (void)Mcpfuzz(run + " --shard 2/3 --report json=" + Path("of3.json"));
  (void)Mcpfuzz(run + " --report json=" + Path("whole.json"));
  (void)Mcpfuzz("diff builtin builtin --seed 5 --cases 4 --report json=" + Path("diff.json"));
  const std::string one = Path("1.json");
  const std::string two = Path("2.json");
  struct Refusal {
    std::string inputs;
    std::string why;
  };
  for (const Refusal& refusal : std::vector<Refusal>{
           {one, "shard 2/2 is missing"},
           {one + " " + one + " " + two, "shard 1/2 is given twice"},
           {one + " " + Path("other-seed.json"), "seed or the target differs"},
           {one + " " + Path("of3.json"), "split differently"},
           {one + " " + Path("whole.json"), "names no --shard"},
           {one + " " + Path("diff.json"), "merge joins the shards of one run"},
       }) {
    const ProcessRun merged = Mcpfuzz("merge " + refusal.inputs);
    EXPECT_EQ(merged.exit_code, 2) << refusal.inputs << "\n" << merged.output;
    EXPECT_NE(merged.output.find(refusal.why), std::string::npos) << merged.output;
  }
  // The two shards of one run are accepted; one unsharded report merges into itself.
  EXPECT_NE(Mcpfuzz("merge " + one + " " + two).exit_code, 2);
  EXPECT_NE(Mcpfuzz("merge " + Path("whole.json")).exit_code, 2);
}

std::string StdioLine(const std::string& fault) {
  return "stdio: " + RefServerPath() + " --stdio" + (fault.empty() ? "" : " --fault " + fault) +
         "\n";
}

TEST_F(Shards, SurveyShardsMergedEqualTheUnshardedSurvey) {
  std::ofstream(Path("targets.txt"))
      << "# reference servers\n"
      << StdioLine("") << StdioLine("unknown-tool-is-error") << "http://127.0.0.1:9/mcp\n"
      << StdioLine("unknown-tool-plain-success") << StdioLine("unknown-tool-wrong-code");
  const std::string survey = "check --targets " + Path("targets.txt") +
                             " --only tools.unknown-name --parallel 2 --timeout-ms 2000";
  const ProcessRun whole = Mcpfuzz(survey + " --report json=" + Path("all.json"));
  ASSERT_EQ(whole.exit_code, 2) << whole.output;  // 127.0.0.1:9 was not judged
  for (const char* shard : {"1/2", "2/2"}) {
    (void)Mcpfuzz(survey + " --shard " + shard +
                  " --report json=" + Path(std::string(shard, 1) + ".json"));
  }
  // Target j of the file is in shard j % 2 + 1.
  EXPECT_EQ(ReadJson(Path("1.json")).at("targets").as_array().size(), 3U);
  EXPECT_EQ(ReadJson(Path("2.json")).at("targets").as_array().size(), 2U);
  const ProcessRun merged =
      Mcpfuzz("merge " + Path("2.json") + " " + Path("1.json") +
              " --report json=" + Path("merged.json") + " --report markdown=" + Path("merged.md"));
  EXPECT_EQ(merged.exit_code, whole.exit_code) << merged.output;
  EXPECT_EQ(WithoutRunMembers(ReadJson(Path("merged.json"))),
            WithoutRunMembers(ReadJson(Path("all.json"))));
  EXPECT_NE(merged.output.find("OBSERVED_RISK"), std::string::npos) << merged.output;
  EXPECT_EQ(Mcpfuzz("merge " + Path("1.json")).exit_code, 2);
  // check takes --shard with --targets only.
  const ProcessRun alone = Mcpfuzz("check --builtin --shard 1/2");
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.output.find("--targets FILE only"), std::string::npos) << alone.output;
}

void MakeValidUtf8(std::optional<ServerInfo>& info) {
  if (!info) return;
  for (std::string* text : {&info->name, &info->version, &info->title}) *text = ToValidUtf8(*text);
}

// JSON strings are valid UTF-8: the writer replaces invalid bytes with U+FFFD, so text a
// server sent with invalid bytes comes back so. The fixtures' hostile text has some, in the
// target names, notes and serverInfo (the other texts are already JSON in the model).
void MakeTextValidUtf8(reports::Report& report) {
  for (reports::TargetSection& target : report.targets) {
    target.description = ToValidUtf8(target.description);
    target.stable_name = ToValidUtf8(target.stable_name);
    for (std::string& note : target.notes) note = ToValidUtf8(note);
    MakeValidUtf8(target.server_info);
  }
  if (report.diff) {
    for (reports::DiffTargetReport& target : report.diff->targets) {
      target.name = ToValidUtf8(target.name);
      MakeValidUtf8(target.server_info);
    }
    for (std::string& note : report.diff->notes) note = ToValidUtf8(note);
  }
}

// Every format written from a report read back from its JSON equals the original's: what a
// merged report rests on. Copied over: titles (they come from checks/) and a check item's
// seconds (not in the JSON).
void ExpectSameFormats(reports::Report original, reports::Report read) {
  MakeTextValidUtf8(original);
  ASSERT_EQ(read.targets.size(), original.targets.size());
  for (std::size_t t = 0; t < read.targets.size(); ++t) {
    ASSERT_EQ(read.targets[t].items.size(), original.targets[t].items.size());
    for (std::size_t i = 0; i < read.targets[t].items.size(); ++i) {
      read.targets[t].items[i].title = original.targets[t].items[i].title;
      read.targets[t].items[i].seconds = original.targets[t].items[i].seconds;
    }
  }
  for (reports::Format format :
       {reports::Format::kJson, reports::Format::kJunit, reports::Format::kSarif,
        reports::Format::kMarkdown, reports::Format::kHtml}) {
    std::ostringstream want;
    std::ostringstream got;
    reports::Write(format, original, want);
    reports::Write(format, read, got);
    EXPECT_EQ(got.str(), want.str()) << "format " << static_cast<int>(format);
  }
  std::ostringstream want;
  std::ostringstream got;
  reports::WriteTerminal(original, want);
  reports::WriteTerminal(read, got);
  EXPECT_EQ(got.str(), want.str());
}

// `report` written as JSON and read back by the reader of its kind, as `mcpfuzz merge` reads it.
Result<reports::Report> ReadBack(const reports::Report& report) {
  std::ostringstream written;
  reports::WriteJson(report, written);
  const json::value value = json::parse(written.str());
  switch (report.kind) {
    case reports::ReportKind::kDiff:
      return reports::DiffReportFromJson(value);
    case reports::ReportKind::kSurvey:
      return reports::SurveyReportFromJson(value);
    default:
      return reports::FuzzReportFromJson(value);
  }
}

TEST(ReportReadBack, FuzzReportWritesEveryFormatAsTheOriginal) {
  reports::Report original = HostileFuzzReport();
  // A campaign's duration is its elapsed time; the fixture sets only the duration.
  original.fuzz->elapsed_ms = std::llround(original.duration_seconds * 1000.0);
  auto read = ReadBack(original);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ExpectSameFormats(original, std::move(*read));
}

TEST(ReportReadBack, SurveyReportWritesEveryFormatAsTheOriginal) {
  const reports::Report original = HostileSurveyReport();
  auto read = ReadBack(original);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ExpectSameFormats(original, std::move(*read));
}

TEST(ReportReadBack, DiffReportWritesEveryFormatAsTheOriginal) {
  const reports::Report original = HostileDiffReport();
  auto read = ReadBack(original);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_TRUE(read->diff->targets.at(1).server_info.has_value());
  ExpectSameFormats(original, std::move(*read));
}

// The shards of the fixture reports, read back from their JSON as `mcpfuzz merge` reads them.
reports::Report Shard(reports::Report report, const std::string& label) {
  (report.diff ? report.diff->shard : report.shard) = label;
  auto read = ReadBack(report);
  EXPECT_TRUE(read.ok()) << read.error().message;
  return read.ok() ? std::move(*read) : reports::Report{};
}

// What a target announced survives the merge, from whichever shard saw it.
TEST(MergedReports, KeepWhatTheTargetsAnnounced) {
  const reports::Report fuzz = HostileFuzzReport();
  reports::Report silent = Shard(fuzz, "1/2");
  silent.targets.front().server_info.reset();
  auto merged_fuzz = reports::MergeFuzzReports({silent, Shard(fuzz, "2/2")});
  ASSERT_TRUE(merged_fuzz.ok()) << merged_fuzz.error().message;
  EXPECT_EQ(reports::ReportToJson(*merged_fuzz).at("server_info"),
            reports::ReportToJson(fuzz).at("server_info"));

  const reports::Report diff = HostileDiffReport();
  reports::Report first = Shard(diff, "1/2");
  first.diff->targets.at(1).server_info.reset();
  auto merged_diff = reports::MergeDiffReports({first, Shard(diff, "2/2")});
  ASSERT_TRUE(merged_diff.ok()) << merged_diff.error().message;
  const json::value targets = reports::ReportToJson(*merged_diff).at("targets");
  EXPECT_EQ(targets, reports::ReportToJson(diff).at("targets"));
  EXPECT_TRUE(targets.at(0).at("server_info").is_null());
  EXPECT_TRUE(targets.at(1).at("server_info").is_object());
}

// A run of which any shard a signal stopped covers only what ran before it, as that shard
// does: the merged report is stopped early, by the first such shard's signal (in the order
// given), whichever kind it is; shards that all ended by themselves merge into a report that
// is not. The mark survives being read back, as every merge reads it.
TEST(MergedReports, AreStoppedEarlyWhenAnyShardWas) {
  for (const reports::Report& whole :
       {HostileFuzzReport(), HostileSurveyReport(), HostileDiffReport()}) {
    SCOPED_TRACE(std::string(reports::ToString(whole.kind)) + " report");
    reports::Report stopped = whole;
    stopped.stopped_by = "SIGTERM";
    reports::Report read = Shard(stopped, "");
    EXPECT_EQ(read.stopped_by, "SIGTERM") << "read back";
    // A survey's targets split as `check --targets FILE --shard K/2` splits them.
    const bool survey = whole.kind == reports::ReportKind::kSurvey;
    auto shard = [&](const reports::Report& report, const std::string& label) {
      reports::Report part = report;
      if (survey) {
        const std::size_t first = label == "1/2" ? 0 : 1;
        part.targets.clear();
        for (std::size_t j = first; j < report.targets.size(); j += 2) {
          part.targets.push_back(report.targets[j]);
        }
      }
      return Shard(part, label);
    };
    auto merge = [&](const std::vector<reports::Report>& shards) {
      switch (whole.kind) {
        case reports::ReportKind::kDiff:
          return reports::MergeDiffReports(shards);
        case reports::ReportKind::kSurvey:
          return reports::MergeSurveyReports(shards);
        default:
          return reports::MergeFuzzReports(shards);
      }
    };
    reports::Report interrupted = stopped;
    interrupted.stopped_by = "SIGINT";
    for (const auto& [first, second, by] :
         {std::tuple{whole, stopped, "SIGTERM"}, std::tuple{interrupted, stopped, "SIGINT"},
          std::tuple{stopped, whole, "SIGTERM"}, std::tuple{whole, whole, ""}}) {
      auto merged = merge({shard(first, "1/2"), shard(second, "2/2")});
      ASSERT_TRUE(merged.ok()) << merged.error().message;
      EXPECT_EQ(merged->stopped_by, by);
      const json::value written = reports::ReportToJson(*merged);
      EXPECT_EQ(written.as_object().contains("stopped_early"), std::string(by) != "");
    }
  }
}

// The diff merge takes the shards as the fuzz and survey merges do (ShardProblem).
TEST(MergedReports, DiffRefusesAMissingOrDuplicateShard) {
  const reports::Report diff = HostileDiffReport();
  const reports::Report one = Shard(diff, "1/3");
  const reports::Report two = Shard(diff, "2/3");
  const reports::Report three = Shard(diff, "3/3");
  EXPECT_TRUE(reports::MergeDiffReports({three, one, two}).ok());
  EXPECT_TRUE(reports::MergeDiffReports({diff}).ok()) << "one unsharded report merges into itself";
  auto missing = reports::MergeDiffReports({one, three});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "shard 2/3 is missing");
  auto twice = reports::MergeDiffReports({one, two, two, three});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "shard 2/3 is given twice");
  EXPECT_FALSE(reports::MergeDiffReports({one, diff}).ok()) << "an unsharded report among shards";
}

// Each loop of the campaign (serial, serial with cases drawn ahead, --concurrency 2) over
// HTTP: shard K of 3 sends exactly the unsharded run's cases i with i % 3 == K-1, in order, and
// the shards' reports merge into the unsharded run's.
TEST(ShardedCampaign, EachLoopSendsItsShareAndMergesToTheWholeRun) {
  const RefTarget target = StartRefServer(
      TransportKind::kHttp, {"unknown-method-200", "unknown-tool-is-error", "parse-error-wrong-id"},
      ReferenceServerLimits(std::chrono::milliseconds(3000), std::chrono::milliseconds(20)));
  struct Loop {
    const char* name;
    bool pipeline;
    std::size_t concurrency;
  };
  for (const Loop& loop :
       {Loop{"serial", false, 1}, Loop{"drawn ahead", true, 1}, Loop{"concurrency 2", true, 2}}) {
    CampaignOptions options;
    options.seed = 20261202;
    options.max_cases = 300;
    options.record_cases = true;
    options.resends = 1;
    options.pipeline = loop.pipeline;
    options.concurrency = loop.concurrency;
    // A shard spends its own big-input budget, so with it on the merged counts may differ
    // from the whole run's; with every big input sent, each shard sends exactly its share.
    options.big_input_every = 1;
    const CampaignResult whole = RunCampaign(target.connect, options);
    ASSERT_GE(whole.findings.size(), 3U) << loop.name;
    const reports::RunInfo info = FixedRunInfo();
    std::vector<reports::Report> shards;
    for (std::size_t index = 1; index <= 3; ++index) {
      options.shard_index = index;
      options.shard_count = 3;
      const CampaignResult shard = RunCampaign(target.connect, options);
      std::vector<std::string> expected;
      for (std::size_t i = index - 1; i < whole.case_log.size(); i += 3) {
        expected.push_back(whole.case_log[i]);
      }
      EXPECT_EQ(shard.case_log, expected) << loop.name << ", shard " << index;
      shards.push_back(cli::BuildFuzzReport(info, options, shard));
    }
    options.shard_index = 1;
    options.shard_count = 1;
    auto merged = reports::MergeFuzzReports(shards);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    cli::ApplyExitPolicy(*merged, reports::FailOn::kFail, nullptr);  // as `mcpfuzz merge` does
    EXPECT_EQ(WithoutRunMembers(reports::ReportToJson(*merged)),
              WithoutRunMembers(reports::ReportToJson(cli::BuildFuzzReport(info, options, whole))))
        << loop.name;
  }
}

TEST(ShardProblem, NamesTheMissingAndTheDuplicateShard) {
  EXPECT_EQ(reports::ShardProblem({"1/3", "3/3", "2/3"}), "");
  EXPECT_EQ(reports::ShardProblem({""}), "");
  EXPECT_EQ(reports::ShardProblem({"1/3", "3/3"}), "shard 2/3 is missing");
  EXPECT_EQ(reports::ShardProblem({"1/2", "1/2", "2/2"}), "shard 1/2 is given twice");
  EXPECT_NE(reports::ShardProblem({"1/2", "2/3", "3/3"}), "");
  EXPECT_NE(reports::ShardProblem({"", ""}), "");
}

}  // namespace
}  // namespace mcpfuzz::test_support
