// One case-file codec: the libFuzzer harness and the fuzz campaign write the same verdict
// members for the same verdict, in the form a check takes in the JSON report, and
// `mcpfuzz replay` reads both, and files in the form case files had before.

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "campaign/finding_file.h"
#include "checks/checks.h"
#include "cli/run_reports.h"
#include "fuzz-targets/harness.h"
#include "model/case_file.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "reports/finding_file.h"
#include "reports/writers.h"

namespace mcpfuzz {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// Every part of a verdict that has a member: tolerated channels, a code, no HTTP status (null,
// not 0, in the one schema), findings, notes.
Verdict RichVerdict() {
  Verdict verdict;
  verdict.check_id = std::string(check::kUnknownTool);
  verdict.kind = VerdictKind::kFail;
  verdict.expected.text = "protocol_error -32602; tolerated: execution_error";
  verdict.expected.channels = {Channel::kProtocolError};
  verdict.expected.tolerated = {Channel::kExecutionError};
  verdict.expected.codes = {-32602};
  verdict.expected.forbidden_codes = {-32603};
  verdict.expected.data_members = {"name"};
  verdict.observed.channel = Channel::kSuccess;
  verdict.observed.code = -32000;
  verdict.observed.excerpt = "ok";
  verdict.spec_reference = "R4:server/tools.mdx";
  verdict.findings.push_back({Aspect::kChannel, Strength::kMust, "answered with a result"});
  verdict.notes.push_back("stdio");
  return verdict;
}

Request CaseRequest() {
  return MakeRequest(Revision::k2025_11_25, TransportKind::kStdio, "tools/call",
                     {{"name", "__nope__"}}, 7);
}

JudgeContext Context() {
  JudgeContext context;
  context.capability_declared = false;
  context.argument_name = "city";
  return context;
}

json::object HarnessFile() {
  fuzzing::Judged judged;
  judged.fuzz_case = {{CaseRequest(), std::string(check::kUnknownTool), Context()}, "tools"};
  judged.verdict = RichVerdict();
  return fuzzing::FindingJson(judged).as_object();
}

CampaignFinding Finding() {
  CampaignFinding finding;
  finding.check_id = std::string(check::kUnknownTool);
  finding.case_check_id = finding.check_id;
  finding.family = "unknown-names";
  finding.signature = "tools.unknown-name|FAIL|success|0";
  finding.signature_hash = "0123abcd";
  finding.context = Context();
  finding.minimal = CaseRequest();
  finding.original = finding.minimal;
  finding.verdict = RichVerdict();
  finding.reproducer = "printf … | server";
  return finding;
}

json::object CampaignFile() { return FindingToJson(RecordOf(Finding(), 9)).as_object(); }

constexpr const char* kVerdictMembers[] = {"verdict",  "strength", "expected", "observed",
                                           "spec_ref", "notes",    "findings", "summary"};

TEST(CaseFile, HarnessAndCampaignWriteTheSameVerdictMembers) {
  const json::object harness = HarnessFile();
  const json::object campaign = CampaignFile();
  for (const char* member : kVerdictMembers) {
    ASSERT_TRUE(harness.contains(member)) << member;
    EXPECT_EQ(harness.at(member), campaign.at(member)) << member;
  }
  for (const char* member : {"format", "version", "check_id", "context", "request"}) {
    EXPECT_EQ(harness.at(member), campaign.at(member)) << member;
  }
  EXPECT_EQ(harness.at("origin"), "libFuzzer");
  EXPECT_EQ(campaign.at("origin"), "fuzz seed=9 case=0");
  // Only the campaign knows how the finding was found.
  EXPECT_FALSE(harness.contains("signature"));
  EXPECT_EQ(campaign.at("signature"), "tools.unknown-name|FAIL|success|0");
  EXPECT_EQ(campaign.at("reproducer"), "printf … | server");

  // The one schema, in its details the three writers used to disagree on.
  EXPECT_EQ(campaign.at("expected").at("tolerated_channels"), json::array{"execution_error"});
  EXPECT_FALSE(campaign.at("expected").as_object().contains("tolerated"));
  EXPECT_TRUE(campaign.at("observed").at("http_status").is_null());
  EXPECT_EQ(campaign.at("observed").at("code"), -32000);
}

TEST(CaseFile, VerdictMembersAreThoseOfACheckInTheJsonReport) {
  checks::CheckRun run;
  checks::CheckResult result;
  result.verdict = RichVerdict();
  result.revision = Revision::k2025_11_25;
  result.transport = TransportKind::kStdio;
  run.results.push_back(result);
  reports::RunInfo info;
  info.reproducer_target = {TransportKind::kStdio, "", {"server"}, {}};
  const json::value report = reports::ReportToJson(cli::BuildCheckReport(info, run, nullptr));
  const json::object& check = report.at("checks").at(0).as_object();
  const json::object campaign = CampaignFile();
  for (const char* member : kVerdictMembers) {
    if (std::string_view(member) == "summary") continue;  // a case file's own line for people
    EXPECT_EQ(check.at(member), campaign.at(member)) << member;
  }
}

class CaseFileRead : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("mcpfuzz-case-file-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path Write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  static void ExpectTheCase(const Result<StoredCase>& stored) {
    ASSERT_TRUE(stored.ok()) << stored.error().message;
    EXPECT_EQ(stored->check_id, check::kUnknownTool);
    EXPECT_EQ(stored->request, CaseRequest());
    EXPECT_FALSE(stored->context.capability_declared);
    EXPECT_EQ(stored->context.argument_name, "city");
  }

  fs::path dir_;
};

TEST_F(CaseFileRead, ReadsWhatTheHarnessAndTheCampaignWrite) {
  // The harness writes one line (AbortOnFinding); the campaign through WriteCaseFile.
  ExpectTheCase(ReadCaseFile(Write("harness.json", json::serialize(HarnessFile()) + "\n")));
  const CampaignFinding finding = Finding();
  auto written = WriteCaseFile(dir_, FindingFileName(finding.check_id, finding.signature_hash),
                               FindingToJson(RecordOf(finding, 9)));
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(written->filename(), "fuzz-tools.unknown-name-0123abcd.json");
  auto stored = ReadCaseFile(*written);
  ExpectTheCase(stored);
  EXPECT_EQ(stored->signature, "tools.unknown-name|FAIL|success|0");
}

TEST_F(CaseFileRead, ReadsCaseFilesInTheFormerVerdictForm) {
  // "tolerated", a verdict inside "observed", http_status 0: how case files were written.
  json::object legacy{
      {"format", "mcpfuzz-case"},
      {"version", 1},
      {"origin", "libFuzzer"},
      {"check_id", check::kUnknownTool},
      {"context", {{"capability_declared", false}, {"argument_name", "city"}}},
      {"request", RequestToJson(CaseRequest())},
      {"expected", {{"text", "x"}, {"channels", {"protocol_error"}}, {"tolerated", {"success"}}}},
      {"observed", {{"verdict", "FAIL"}, {"outcome", "ok"}, {"http_status", 0}}},
      {"spec_reference", "R4"},
      {"signature", "old"}};
  auto stored = ReadCaseFile(Write("legacy.json", json::serialize(legacy)));
  ExpectTheCase(stored);
  EXPECT_EQ(stored->signature, "old");
}

}  // namespace
}  // namespace mcpfuzz
