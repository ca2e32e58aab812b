// A survey built for dozens of servers (issue #27, item 5): over ten fixture targets, some not
// reachable, two sharing a deviation the TypeScript SDK v1 has, the page's first screen says
// how many targets were reached, FAIL and could not be judged; rows are named by the serverInfo
// each server announced; the shared deviation is attributed to SDK v1 by its fingerprint,
// while a server that merely announces SDK v1's name, or fails the same check in other words,
// is not. The page is read as headless Chromium built it. Also the page's size per server and
// the fingerprints on their own.
//
// Bounded by events, not the clock: one check (tools.unknown-name) per target; the targets
// that are not judged are refused at once (nothing listens, no such program, an error to every
// question). The stdio servers start one at a time (--parallel-starts 1): the gate must not
// deadlock a survey whose targets open several sessions.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "reports/merge.h"
#include "reports/survey.h"
#include "reports/writers.h"
#include "support/chromium.h"
#include "support/files.h"
#include "support/processes.h"
#include "support/reference_server.h"

namespace mcpfuzz::test_support {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

const std::string kFixtures = MCPFUZZ_SOURCE_DIR "/tests/fixtures/";

std::string RefLine(const std::string& server_info, const std::string& fault) {
  return "stdio: " + RefServerPath() + " --stdio --server-info " + server_info +
         (fault.empty() ? "" : " --fault " + fault) + "\n";
}

// The text of an element's content with its tags taken out and entities read back.
std::string TextOf(std::string html) {
  html = std::regex_replace(html, std::regex("<[^>]*>"), "");
  for (const auto& [entity, plain] : {std::pair<std::string, std::string>{"&lt;", "<"},
                                      {"&gt;", ">"},
                                      {"&quot;", "\""},
                                      {"&amp;", "&"}}) {
    for (auto at = html.find(entity); at != std::string::npos; at = html.find(entity, at + 1)) {
      html.replace(at, entity.size(), plain);
    }
  }
  return html;
}

// The inner HTML of the first element after `start` that opens with `open` ("<tr
// data-server=\"3\""), up to its `close` tag; elements of that name do not nest in this page's
// tables.
std::string Element(const std::string& dom, const std::string& open, const std::string& close) {
  const auto at = dom.find(open);
  if (at == std::string::npos) return "";
  const auto inner = dom.find('>', at) + 1;
  return dom.substr(inner, dom.find(close, inner) - inner);
}

// The cells of a table row, as text.
std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  const std::regex cell("<td[^>]*>([\\s\\S]*?)</td>");
  for (std::sregex_iterator it(row.begin(), row.end(), cell), end; it != end; ++it) {
    cells.push_back(TextOf((*it)[1]));
  }
  return cells;
}

class SurveyCensus : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mcpfuzz-census-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  fs::path dir_;
};

TEST_F(SurveyCensus, TenTargetsTheFirstScreenAndTheInheritedDeviation) {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    GTEST_SKIP() << "chromium is not installed; scripts/bootstrap.sh installs the Debian "
                    "packages chromium and chromium-driver";
  }
  const fs::path refuses = dir_ / "refuses.sh";
  std::ofstream(refuses) << "while read -r line; do printf '%s\\n' "
                            "'{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":"
                            "{\"code\":-32600,\"message\":\"no\"}}'; done\n";
  const fs::path targets = dir_ / "targets.txt";
  std::ofstream(targets)
      << RefLine("alpha-server/1.0.0", "")                                 // 0 PASS
      << RefLine("beta-server/2.0.0", "unknown-tool-plain-success")        // 1 FAIL, its own
      << "stdio: python3 " << kFixtures << "sdk_v1_alike.py acme-notes\n"  // 2 FAIL, SDK v1's
      << "stdio: python3 " << kFixtures
      << "sdk_v1_alike.py zeta-files\n"  // 3 FAIL, SDK v1's
      // Announces SDK v1's name and does not deviate: nothing to inherit.
      << RefLine("mcpfuzz-sdk-v1/1.32.2", "")  // 4 PASS
      // The same shape as SDK v1 (an isError result) in other words: no fingerprint matches.
      << RefLine("gamma-server/3.0.0", "unknown-tool-is-error")      // 5 FAIL, its own
      << "http://127.0.0.1:9/mcp\n"                                  // 6 refused
      << "stdio: " << (dir_ / "no-such-server").string() << "\n"     // 7 cannot start
      << "stdio: sh " << refuses.string() << "\n"                    // 8 reached, not judged
      << "stdio: python3 " << kFixtures << "conformant_stdio.py\n";  // 9 PASS
  const fs::path page = dir_ / "survey.html";
  const ProcessRun run = Mcpfuzz(
      "check --targets " + ShellQuote(targets.string()) +
      " --only tools.unknown-name --parallel 3 --parallel-starts 1 --report html=" +
      ShellQuote(page.string()) + " --report json=" + ShellQuote((dir_ / "survey.json").string()));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  // The terminal and the JSON say it in the same words.
  const std::string census = "10 targets, 8 reached, 4 with a FAIL, 3 not judged";
  EXPECT_NE(run.output.find(census), std::string::npos) << run.output;
  const json::value report = ReadJson(dir_ / "survey.json");
  EXPECT_EQ(report.at("census").at("text").as_string(), census);

  const Rendered dom =
      RunChromium(chromium, dir_ / "profile", "--dump-dom", "file://" + page.string());
  ASSERT_EQ(dom.exit_code, 0) << dom.output.substr(0, 2000);
  // The census is the first thing under the title.
  const std::string census_element = Element(dom.output, "<p class=\"census\"", "</p>");
  EXPECT_EQ(TextOf(census_element), census) << census_element;
  EXPECT_LT(dom.output.find("data-figure=\"census\""), dom.output.find("<table"));

  // One row per server, named by its serverInfo; its command is the link's title.
  const std::vector<std::string> names = {"alpha-server 1.0.0",
                                          "beta-server 2.0.0",
                                          "acme-notes 1",
                                          "zeta-files 1",
                                          "mcpfuzz-sdk-v1 1.32.2",
                                          "gamma-server 3.0.0",
                                          "http://127.0.0.1:9/mcp",
                                          "stdio: " + (dir_ / "no-such-server").string(),
                                          "stdio: sh " + refuses.string(),
                                          "conformant 1"};
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string row =
        Element(dom.output, "<tr data-server=\"" + std::to_string(i) + "\"", "</tr>");
    rows.push_back(Cells(row));
    ASSERT_EQ(rows.back().size(), 7U) << row;
    EXPECT_EQ(rows.back()[0], names[i]);
  }
  EXPECT_NE(dom.output.find("title=\"stdio: python3 " + kFixtures + "sdk_v1_alike.py acme-notes\""),
            std::string::npos);
  // Columns: server, transport, speaks, FAIL, WARN, reached, likely inherited.
  EXPECT_EQ(rows[2][3], "1");
  EXPECT_EQ(rows[2][6], "TypeScript SDK v1 (1 of 1)");
  EXPECT_EQ(rows[3][6], "TypeScript SDK v1 (1 of 1)");
  for (std::size_t i : {0U, 1U, 4U, 5U, 9U}) {
    EXPECT_EQ(rows[i][6], "") << names[i] << " inherits nothing";
    EXPECT_EQ(rows[i][5], "yes") << names[i];
  }
  EXPECT_EQ(rows[1][3], "1");
  EXPECT_EQ(rows[5][3], "1");
  EXPECT_TRUE(rows[6][5].starts_with("no; not judged: could not be reached: connection refused"))
      << rows[6][5];
  EXPECT_TRUE(rows[7][5].starts_with("no; not judged: ")) << rows[7][5];
  EXPECT_TRUE(rows[8][5].starts_with("yes; not judged: ")) << rows[8][5];

  // One row per deviating check, naming its servers, the inherited ones marked with the SDK.
  const std::string check = Element(dom.output, "<tr data-check=\"tools.unknown-name\"", "</tr>");
  const std::vector<std::string> cells = Cells(check);
  ASSERT_EQ(cells.size(), 3U) << check;
  EXPECT_EQ(cells[1],
            "4: beta-server 2.0.0, acme-notes 1 TypeScript SDK v1, zeta-files 1 TypeScript SDK "
            "v1, gamma-server 3.0.0");
  // The details of each server are folded below.
  EXPECT_NE(dom.output.find("<details id=\"target-9\">"), std::string::npos);

  // The JSON names the SDKs by their ids, per check, the lowest layer first (the servers
  // built on SDK v1 answer as it does).
  const auto& inherited = report.at("targets").at(2).at("likely_inherited").as_array();
  ASSERT_EQ(inherited.size(), 1U) << report.at("targets").at(2);
  EXPECT_EQ(inherited[0].at("check"), "tools.unknown-name");
  EXPECT_EQ(inherited[0].at("sdks").at(0), "sdk-v1");
  EXPECT_TRUE(report.at("targets").at(5).at("likely_inherited").as_array().empty());
}

// A survey's page grows by its servers' deviations only, never by exchanges or charts: a
// server that FAILs and WARNs on dozens of checks in every revision takes a few KB, so 35 take
// a few hundred.
TEST_F(SurveyCensus, ThePageStaysSmallForDozensOfServers) {
  const fs::path targets = dir_ / "targets.txt";
  std::ofstream(targets) << RefLine(
      "many-faults/1.0.0",
      "unknown-tool-is-error --fault batch-rejected-in-2025-03-26 --fault "
      "error-leaks-internals --fault parse-error-wrong-id --fault "
      "invalid-request-accepted --fault ping-method-not-found");
  const fs::path one = dir_ / "one.json";
  const ProcessRun run = Mcpfuzz("check --targets " + ShellQuote(targets.string()) +
                                 " --report json=" + ShellQuote(one.string()));
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto written = ReadReport(one);
  ASSERT_TRUE(written.has_value());
  auto read = reports::SurveyReportFromJson(*written);
  ASSERT_TRUE(read.ok()) << read.error().message;
  reports::Report survey = *read;
  const reports::TargetSection server = survey.targets.at(0);
  ASSERT_GE(reports::Count(server.items).fail + reports::Count(server.items).warn, 6);
  survey.targets.assign(35, server);
  std::ostringstream html;
  reports::WriteHtml(survey, html);
  // Measured: 8.3 KB a server like this one, 39 checks deviating in up to five revisions (the
  // SDK servers of tests/servers deviate on about 20); the survey page had been 88 KB a server.
  // The bound leaves half as much again.
  const std::size_t per_server = 12 * 1024;
  EXPECT_LT(html.str().size(), 35 * per_server) << html.str().size() << " bytes";
  EXPECT_NE(html.str().find("<span data-figure=\"census-with-fail\">35</span>"), std::string::npos);
}

TEST(SdkFingerprints, TheTableInTheRepositoryReadsAndNamesItsSdks) {
  const std::string text = ReadFile(MCPFUZZ_SOURCE_DIR "/reports/data/sdk_fingerprints.json");
  auto parsed = reports::ParseFingerprintTable(text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  // What the binary carries is the file.
  EXPECT_EQ(parsed->fingerprints, reports::KnownSdkFingerprints().fingerprints);
  std::vector<std::string> ids;
  for (const auto& sdk : parsed->sdks) ids.push_back(sdk.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"sdk-v1", "sdk-v2", "fastmcp", "everything"}));
  EXPECT_GE(parsed->fingerprints.size(), 10U);
  EXPECT_FALSE(reports::ParseFingerprintTable(
                   R"({"sdks":[],"fingerprints":[{"fingerprint":"x","sdks":["nobody"]}]})")
                   .ok());
}

TEST(SdkFingerprints, VolatileWordsAreOutAndSilenceFingerprintsNothing) {
  reports::ReportItem item;
  item.id = "http.session-unknown";
  item.verdict.kind = VerdictKind::kFail;
  item.verdict.observed.channel = Channel::kProtocolError;
  item.verdict.observed.code = -32000;
  item.verdict.observed.excerpt = "Bad Request:  No session 3f2a9c1e on port 38827";
  const std::string print = reports::Fingerprint(item);
  EXPECT_EQ(print,
            "http.session-unknown|FAIL|protocol_error|-32000|bad request: no session # on port #");
  item.verdict.observed.excerpt = "Bad Request: No session 77aa01ff on port 41000";
  EXPECT_EQ(reports::Fingerprint(item), print);
  // The code in the words is the server's, and stays.
  item.verdict.observed.excerpt = "MCP error -32602: Tool x not found";
  EXPECT_NE(reports::Fingerprint(item).find("mcp error -32602: tool x not found"),
            std::string::npos);
  // Silence matches every silent server: no fingerprint. Nor has a PASS one.
  item.verdict.observed = {};
  EXPECT_EQ(reports::Fingerprint(item), "");
  item.verdict.observed.code = -32601;
  item.verdict.kind = VerdictKind::kPass;
  EXPECT_EQ(reports::Fingerprint(item), "");
}

}  // namespace
}  // namespace mcpfuzz::test_support
