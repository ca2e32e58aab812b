#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <sstream>

#include "cli/run_reports.h"
#include "model/request_builder.h"
#include "reports/baseline.h"
#include "reports/terminal.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

using cli::BaselineOf;
using cli::BuildCheckReport;
using cli::Compare;

namespace json = boost::json;

checks::CheckResult Result(std::string id, VerdictKind kind, Revision revision,
                           TransportKind transport = TransportKind::kHttp) {
  checks::CheckResult result;
  result.verdict.check_id = std::move(id);
  result.verdict.kind = kind;
  result.revision = revision;
  result.transport = transport;
  return result;
}

// A run with one finding whose server text is hostile, and a request carrying a credential.
checks::CheckRun HostileRun() {
  checks::CheckRun run;
  run.eras.speaks = {Revision::k2025_11_25};
  checks::CheckResult failing =
      Result("tools.unknown-name", VerdictKind::kFail, Revision::k2025_11_25);
  failing.verdict.expected.text = "protocol_error -32602";
  failing.verdict.observed.channel = Channel::kExecutionError;
  failing.verdict.observed.excerpt = "<script>alert(1)</script>\x1b[2J]]>\xFF\xFE";
  failing.verdict.findings.push_back(
      {Aspect::kChannel, Strength::kMust, "answered with an isError result \x1b]0;pwned\x07"});
  failing.verdict.spec_reference = "R4:server/tools.mdx";
  Request request = MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, "tools/call",
                                {{"name", "__nope__"}}, 3);
  request.headers.push_back({"Authorization", "Bearer hunter2"});
  Observation observation;
  observation.http_status = 200;
  observation.http_headers = {{"Set-Cookie", "session=secret-cookie"}};
  observation.body = std::string("\xFF\x00", 2);
  failing.exchanges.push_back({request, observation, "sid"});
  run.results.push_back(failing);
  run.results.push_back(Result("methods.unknown", VerdictKind::kPass, Revision::k2025_11_25));
  run.results.push_back(
      Result("discover.result", VerdictKind::kNotApplicable, Revision::k2025_11_25));
  return run;
}

RunInfo Info() {
  RunInfo info;
  info.tool_version = "test";
  info.target = "http://127.0.0.1:1/mcp";
  info.reproducer_target = {TransportKind::kHttp, "http://127.0.0.1:1/mcp", {}, {}};
  return info;
}

TEST(CheckReportJson, IsVersionedCountsVerdictsAndCarriesAReproducer) {
  json::value report = ReportToJson(BuildCheckReport(Info(), HostileRun(), nullptr));
  // The report must survive a round trip through a strict parser despite the invalid UTF-8.
  json::value reparsed = json::parse(json::serialize(report));
  EXPECT_EQ(reparsed.at("format"), "mcpfuzz-check-report");
  EXPECT_EQ(reparsed.at("version"), 1);
  EXPECT_EQ(reparsed.at("summary").at("fail"), 1);
  EXPECT_EQ(reparsed.at("summary").at("pass"), 1);
  EXPECT_EQ(reparsed.at("summary").at("not_applicable"), 1);
  const auto& check = reparsed.at("checks").at(0);
  EXPECT_EQ(check.at("id"), "tools.unknown-name");
  EXPECT_EQ(check.at("verdict"), "FAIL");
  EXPECT_EQ(check.at("revision"), "2025-11-25");
  EXPECT_EQ(check.at("spec_ref"), "R4:server/tools.mdx");
  EXPECT_NE(std::string(check.at("reproducer").as_string()).find("curl"), std::string::npos);
}

// What happened to the run as a whole (a target given up on) is in the JSON report too, not
// only in the terminal, Markdown, JUnit and HTML ones.
TEST(CheckReportJson, CarriesTheRunNotes) {
  checks::CheckRun run = HostileRun();
  run.notes.push_back("gave up on the target in 2025-11-25: 3 requests in a row went unanswered");
  const json::value report = ReportToJson(BuildCheckReport(Info(), run, nullptr));
  ASSERT_TRUE(report.as_object().contains("notes")) << json::serialize(report);
  const json::array& notes = report.at("notes").as_array();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes.at(0).as_string(), run.notes.front());
  EXPECT_TRUE(
      ReportToJson(BuildCheckReport(Info(), HostileRun(), nullptr)).at("notes").as_array().empty());
}

TEST(CheckReportJson, RedactsCredentialsBothWays) {
  std::string text = json::serialize(ReportToJson(BuildCheckReport(Info(), HostileRun(), nullptr)));
  EXPECT_EQ(text.find("hunter2"), std::string::npos);
  EXPECT_EQ(text.find("secret-cookie"), std::string::npos);
  EXPECT_NE(text.find("<redacted>"), std::string::npos);
}

TEST(CheckReportTerminal, EscapesServerTextAndShowsTheFinding) {
  std::ostringstream out;
  WriteTerminal(BuildCheckReport(Info(), HostileRun(), nullptr), out);
  const std::string text = out.str();
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << "raw ESC reached the terminal";
  EXPECT_EQ(text.find('\x07'), std::string::npos);
  EXPECT_EQ(text.find("hunter2"), std::string::npos);
  EXPECT_NE(text.find("FAIL  tools.unknown-name"), std::string::npos) << text;
  EXPECT_NE(text.find("1 pass, 0 warn, 1 fail, 0 unverified, 1 not applicable"), std::string::npos)
      << text;
}

ReportItem Finding(std::string id, VerdictKind kind, std::string replay = "") {
  ReportItem item;
  item.id = std::move(id);
  item.verdict.kind = kind;
  if (!replay.empty()) item.facts.emplace_back("replay", std::move(replay));
  return item;
}

std::vector<std::string> Order(const TargetSection& section) {
  std::vector<std::string> order;
  for (const ReportItem& item : section.items) {
    order.push_back(item.id + " " + std::string(ToString(item.verdict.kind)));
  }
  return order;
}

// Found in this order, a run's one FAIL was listed eighth of eleven: now first, a crash judged
// UNVERIFIED beside it, then the WARNs by check, each check's in the order found.
TEST(OrderByStrength, ListsFailsFirstThenWarnsByCheck) {
  TargetSection fuzz;
  fuzz.items = {Finding("tools.unknown-name", VerdictKind::kWarn),
                Finding("methods.unknown", VerdictKind::kWarn),
                Finding("tools.missing-name", VerdictKind::kFail),
                Finding("stdio.no-early-exit", VerdictKind::kUnverified),
                Finding("methods.unknown", VerdictKind::kWarn)};
  fuzz.items[1].title = "first found";
  OrderByStrength(ReportKind::kFuzz, fuzz);
  EXPECT_EQ(Order(fuzz),
            (std::vector<std::string>{"stdio.no-early-exit UNVERIFIED", "tools.missing-name FAIL",
                                      "methods.unknown WARN", "methods.unknown WARN",
                                      "tools.unknown-name WARN"}));
  EXPECT_EQ(fuzz.items[2].title, "first found");

  TargetSection replay;
  replay.items = {Finding("a.fixed", VerdictKind::kPass, "fixed"),
                  Finding("b.unsent", VerdictKind::kUnverified, "error"),
                  Finding("c.warns", VerdictKind::kWarn, "still warns"),
                  Finding("d.fails", VerdictKind::kFail, "still fails")};
  OrderByStrength(ReportKind::kReplay, replay);
  EXPECT_EQ(Order(replay), (std::vector<std::string>{"d.fails FAIL", "c.warns WARN", "a.fixed PASS",
                                                     "b.unsent UNVERIFIED"}));
}

TEST(Baseline, NewFailuresAndFixedEntriesBothCount) {
  checks::CheckRun run;
  run.results.push_back(Result("a", VerdictKind::kFail, Revision::k2025_11_25));
  run.results.push_back(Result("b", VerdictKind::kFail, Revision::k2026_07_28));
  run.results.push_back(Result("c", VerdictKind::kWarn, Revision::k2026_07_28));
  Baseline baseline;
  baseline.known_failures = {{"a", Revision::k2025_11_25, TransportKind::kHttp, ""},
                             {"c", Revision::k2026_07_28, TransportKind::kHttp, ""}};
  BaselineComparison comparison = Compare(run, baseline);
  ASSERT_EQ(comparison.new_failures.size(), 1U);
  EXPECT_EQ(ToString(comparison.new_failures[0]), "b@2026-07-28/http");
  ASSERT_EQ(comparison.no_longer_failing.size(), 1U);
  EXPECT_EQ(comparison.no_longer_failing[0].id, "c");
  ASSERT_EQ(comparison.still_failing.size(), 1U);
  EXPECT_FALSE(comparison.Clean());

  EXPECT_TRUE(Compare(run, BaselineOf(run)).Clean());
}

// A baseline from a full run, compared with a run of fewer checks (`--only`) or revisions:
// what was not judged is not run, never fixed, and does not fail CI.
TEST(Baseline, EntriesNotJudgedAreNotRunNotFixed) {
  checks::CheckRun run;
  run.results.push_back(Result("a", VerdictKind::kFail, Revision::k2025_11_25));
  run.results.push_back(Result("u", VerdictKind::kUnverified, Revision::k2025_11_25));
  run.results.push_back(Result("n", VerdictKind::kNotApplicable, Revision::k2025_11_25));
  Baseline baseline;
  baseline.known_failures = {{"a", Revision::k2025_11_25, TransportKind::kHttp, ""},
                             {"absent", Revision::k2025_11_25, TransportKind::kHttp, ""},
                             {"a", Revision::k2026_07_28, TransportKind::kHttp, ""},
                             {"a", Revision::k2025_11_25, TransportKind::kStdio, ""},
                             {"u", Revision::k2025_11_25, TransportKind::kHttp, ""},
                             {"n", Revision::k2025_11_25, TransportKind::kHttp, ""}};
  BaselineComparison comparison = Compare(run, baseline);
  EXPECT_TRUE(comparison.no_longer_failing.empty());
  EXPECT_EQ(comparison.not_run.size(), 5U);
  EXPECT_EQ(comparison.still_failing.size(), 1U);
  EXPECT_TRUE(comparison.Clean());

  std::ostringstream out;
  WriteTerminal(BuildCheckReport(Info(), run, &comparison), out);
  EXPECT_EQ(out.str().find("fixed"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("not run: absent@2025-11-25/http"), std::string::npos) << out.str();
}

TEST(Baseline, RoundTripsAndRejectsMalformedFiles) {
  checks::CheckRun run;
  run.results.push_back(
      Result("a", VerdictKind::kFail, Revision::k2025_03_26, TransportKind::kStdio));
  Baseline baseline = BaselineOf(run);
  auto decoded = BaselineFromJson(json::parse(json::serialize(BaselineToJson(baseline))));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded->known_failures, baseline.known_failures);
  for (const char* bad :
       {R"([])", R"({"format":"x","version":1,"known_failures":[]})",
        R"({"format":"mcpfuzz-baseline","version":2,"known_failures":[]})",
        R"({"format":"mcpfuzz-baseline","version":1,"known_failures":[{"id":"a"}]})"}) {
    EXPECT_FALSE(BaselineFromJson(json::parse(bad)).ok()) << bad;
  }
}

TEST(Terminal, EscapesControlCharactersEscapeSequencesAndInvalidUtf8) {
  EXPECT_EQ(EscapeForTerminal("ok é"), "ok é");
  EXPECT_EQ(EscapeForTerminal("\x1b[2Jboom"), "\\x1B[2Jboom");
  EXPECT_EQ(EscapeForTerminal("a\nb\tc\r"), "a\\nb\\tc\\x0D");
  EXPECT_EQ(EscapeForTerminal(std::string("\xFF\xC3", 2)), "\\xFF\\xC3");
  EXPECT_EQ(EscapeForTerminal("\xC2\x9B"
                              "31m"),
            "\\u009B31m");
  EXPECT_EQ(EscapeForTerminal("abcdef", 3), "abc…");
}

}  // namespace
}  // namespace mcpfuzz::reports
