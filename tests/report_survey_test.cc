// The survey view: `mcpfuzz check --targets FILE` over several reference servers started
// here, conformant and with faults, and the combined report in the form of published surveys
// (VERIFIED / OBSERVED_RISK / UNVERIFIED and the wrong shapes). Also the targets file and the
// per-host budget and spacing on their own.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/json.hpp>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/host_limiter.h"
#include "cli/run_reports.h"
#include "cli/survey.h"
#include "cli/targets_file.h"
#include "model/reproducer.h"
#include "reports/merge.h"
#include "reports/survey.h"
#include "support/files.h"
#include "support/processes.h"
#include "support/reference_server.h"

namespace mcpfuzz::test_support {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

std::string StdioLine(const std::string& fault) {
  return "stdio: " + RefServerPath() + " --stdio --fault " + fault + "\n";
}

class Survey : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mcpfuzz-survey-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  fs::path dir_;
};

TEST_F(Survey, CountsEachServerOnceByTheShapeOfItsUnknownToolAnswer) {
  RefTarget conformant = StartRefServer(TransportKind::kHttp, {}, Limits{});
  RefTarget wrong_code = StartRefServer(TransportKind::kHttp, {"unknown-tool-wrong-code"}, {});
  // Over stdio the HTML fault is a plain-text line the transport waits past; over HTTP it is
  // the HTML page surveys meet.
  RefTarget html = StartRefServer(TransportKind::kHttp, {"unknown-tool-html"}, {});
  ASSERT_TRUE(conformant.http_server && wrong_code.http_server && html.http_server);
  const fs::path targets = dir_ / "targets.txt";
  std::ofstream(targets) << "# reference servers\n\n"
                         << conformant.http_server->url() << "\n"
                         << wrong_code.http_server->url() << "\n"
                         << StdioLine("unknown-tool-is-error")
                         << StdioLine("unknown-tool-plain-success") << html.http_server->url()
                         << "\n"
                         << "   http://127.0.0.1:9/mcp\n";
  const ProcessRun run = Mcpfuzz("check --targets " + ShellQuote(targets.string()) +
                                 " --only tools.unknown-name --parallel 3 --timeout-ms 2000" +
                                 " --report json=" + ShellQuote((dir_ / "s.json").string()) +
                                 " --report markdown=" + ShellQuote((dir_ / "s.md").string()));
  // A target that was not judged makes the survey exit 2, FAILs elsewhere or not.
  EXPECT_EQ(run.exit_code, 2) << run.output;
  const json::value report = ReadJson(dir_ / "s.json");
  EXPECT_EQ(report.at("format"), "mcpfuzz-survey-report");
  const auto& unknown = report.at("unknown_tool");
  // A JSON-RPC error is VERIFIED whatever its code, though -32601 is a WARN of the check.
  EXPECT_EQ(unknown.at("verified"), 2);
  EXPECT_EQ(unknown.at("observed_risk"), 3);
  EXPECT_EQ(unknown.at("unverified"), 0);
  EXPECT_EQ(unknown.at("not_checked"), 1);
  EXPECT_EQ(unknown.at("observed_risk_shapes").at("is_error_result"), 1);
  EXPECT_EQ(unknown.at("observed_risk_shapes").at("result_without_is_error"), 1);
  EXPECT_EQ(unknown.at("observed_risk_shapes").at("not_json_rpc"), 1);
  // Targets keep the file's order whatever order they finished in.
  const auto& entries = report.at("targets").as_array();
  ASSERT_EQ(entries.size(), 6U);
  EXPECT_EQ(entries[0].at("description").as_string().starts_with(conformant.http_server->url()),
            true);
  EXPECT_NE(std::string(entries[3].at("description").as_string()).find("plain-success"),
            std::string::npos);
  EXPECT_TRUE(entries[5].as_object().contains("error"));
  const auto& row = report.at("per_check").at(0);
  EXPECT_EQ(row.at("id"), "tools.unknown-name");
  EXPECT_EQ(row.at("servers").at("pass"), 1);
  EXPECT_EQ(row.at("servers").at("warn"), 1);
  EXPECT_EQ(row.at("servers").at("fail"), 3);
  EXPECT_NE(run.output.find("2 VERIFIED, 3 OBSERVED_RISK"), std::string::npos) << run.output;
  // The log says each target as it starts and as it ends, with its outcome.
  EXPECT_NE(run.output.find("[1/6] checking " + conformant.http_server->url()), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("[1/6] " + conformant.http_server->url()), std::string::npos);
  EXPECT_NE(run.output.find(conformant.http_server->url() + ": 0 FAIL, 0 WARN ("),
            std::string::npos)
      << run.output;
  const std::string html_ended = "] " + html.http_server->url() + ": ";
  const std::size_t html_line = run.output.find(html_ended);
  ASSERT_NE(html_line, std::string::npos) << run.output;
  const std::string outcome = run.output.substr(html_line + html_ended.size(), 2);
  EXPECT_TRUE(outcome != "0 " && std::isdigit(static_cast<unsigned char>(outcome[0])))
      << "the HTML page is a FAIL: " << run.output;
  EXPECT_NE(run.output.find("[6/6] http://127.0.0.1:9/mcp: not judged: "), std::string::npos)
      << run.output;
}

// A server that answers but agrees on no revision is not a row of blanks: it says why.
TEST_F(Survey, AServerThatSpeaksNoRevisionSaysWhy) {
  const fs::path script = dir_ / "refuses.sh";
  std::ofstream(script) << "read -r line\n"
                        << "printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":"
                           "{\"code\":-32600,\"message\":\"no\"}}'\n"
                        << "cat >/dev/null\n";
  const fs::path targets = dir_ / "targets.txt";
  std::ofstream(targets) << "stdio: sh " << script.string() << "\n";
  const ProcessRun run =
      Mcpfuzz("check --targets " + ShellQuote(targets.string()) +
              " --timeout-ms 1000 --report json=" + ShellQuote((dir_ / "s.json").string()));
  const json::value report = ReadJson(dir_ / "s.json");
  const auto& target = report.at("targets").at(0).as_object();
  EXPECT_TRUE(target.at("eras").at("speaks").as_array().empty()) << run.output;
  ASSERT_TRUE(target.contains("error")) << run.output;
  EXPECT_NE(std::string(target.at("error").as_string()).find("speaks no MCP revision"),
            std::string::npos)
      << target.at("error");
}

std::string AnnouncingLine(const std::string& server_info, const std::string& fault) {
  return "stdio: " + RefServerPath() + " --stdio --server-info " + server_info +
         (fault.empty() ? "" : " --fault " + fault) + "\n";
}

json::value ServerInfoOfTarget(const json::value& report, std::size_t index) {
  return report.at("targets").at(index).at("server_info");
}

// Rows are named by the serverInfo a server announced, its command beside it; a server that
// announced nothing is named by its URL or command. The rows survive `mcpfuzz merge`.
TEST_F(Survey, NamesEachServerByTheServerInfoItAnnounces) {
  const fs::path targets = dir_ / "targets.txt";
  std::ofstream(targets) << AnnouncingLine("alpha-sdk/1.0.0", "")
                         << AnnouncingLine("beta-sdk/2.0.0", "unknown-tool-plain-success")
                         << AnnouncingLine("alpha-sdk/1.0.0", "unknown-tool-is-error")
                         << "http://127.0.0.1:9/mcp\n"
                         << AnnouncingLine("beta-sdk/2.0.0", "unknown-tool-wrong-code");
  const std::string survey = "check --targets " + ShellQuote(targets.string()) +
                             " --only tools.unknown-name --parallel 2 --timeout-ms 2000";
  const std::string json_path = (dir_ / "s.json").string();
  const ProcessRun run = Mcpfuzz(survey + " --report json=" + ShellQuote(json_path) +
                                 " --report markdown=" + ShellQuote((dir_ / "s.md").string()));
  EXPECT_EQ(run.exit_code, 2) << run.output;  // 127.0.0.1:9 was not judged
  const json::value report = ReadJson(json_path);
  EXPECT_EQ(ServerInfoOfTarget(report, 0),
            json::parse(R"({"name":"alpha-sdk","version":"1.0.0"})"));
  EXPECT_EQ(ServerInfoOfTarget(report, 1), json::parse(R"({"name":"beta-sdk","version":"2.0.0"})"));
  EXPECT_TRUE(ServerInfoOfTarget(report, 3).is_null());
  EXPECT_EQ(report.at("census"),
            json::parse(R"({"targets":5,"reached":4,"with_fail":2,"not_judged":1,)"
                        R"("text":"5 targets, 4 reached, 2 with a FAIL, 1 not judged"})"));

  // The model, as `mcpfuzz merge` reads it back: the unreachable target announced nothing.
  auto read = reports::SurveyReportFromJson(report);
  ASSERT_TRUE(read.ok()) << read.error().message;
  const auto tables = reports::Tabulate(*read, reports::FingerprintTable{});
  ASSERT_EQ(tables.servers.size(), 5U);
  EXPECT_EQ(tables.servers[0].name, "alpha-sdk 1.0.0");
  EXPECT_EQ(tables.servers[1].name, "beta-sdk 2.0.0");
  EXPECT_EQ(tables.servers[3].name, "http://127.0.0.1:9/mcp");
  EXPECT_FALSE(tables.servers[3].reached);
  EXPECT_EQ(tables.servers[1].fail_checks, 1);
  EXPECT_EQ(tables.servers[4].warn_checks, 1);
  ASSERT_EQ(tables.deviating.size(), 1U);
  EXPECT_EQ(tables.deviating[0].id, "tools.unknown-name");
  EXPECT_EQ(tables.deviating[0].failing, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(tables.deviating[0].warning, (std::vector<std::size_t>{4}));

  const std::string markdown = ReadFile(dir_ / "s.md");
  EXPECT_NE(markdown.find("**5 targets, 4 reached, 2 with a FAIL, 1 not judged**"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| tools.unknown-name | 2: beta-sdk 2.0.0, alpha-sdk 1.0.0 | "
                          "1: beta-sdk 2.0.0 |"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| http://127.0.0.1:9/mcp | http |  | 0 | 0 | no, not judged: "),
            std::string::npos)
      << markdown;
  // The terminal: the census, then a line per server named as it announced itself, the
  // command under it.
  EXPECT_NE(run.output.find("5 targets, 4 reached, 2 with a FAIL, 1 not judged\n\nalpha-sdk 1.0.0"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("\n  stdio: " + RefServerPath() +
                            " --stdio --server-info "
                            "beta-sdk/2.0.0 --fault unknown-tool-plain-success\n"),
            std::string::npos)
      << run.output;

  // Shards merged keep each target's serverInfo, and so the rows.
  for (const char* shard : {"1/2", "2/2"}) {
    (void)Mcpfuzz(survey + " --shard " + shard + " --report json=" +
                  ShellQuote((dir_ / (std::string(shard, 1) + ".json")).string()));
  }
  const std::string merged_path = (dir_ / "merged.json").string();
  const ProcessRun merged =
      Mcpfuzz("merge " + ShellQuote((dir_ / "1.json").string()) + " " +
              ShellQuote((dir_ / "2.json").string()) + " --report json=" + ShellQuote(merged_path));
  EXPECT_EQ(merged.exit_code, 2) << merged.output;
  const json::value merged_report = ReadJson(merged_path);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(ServerInfoOfTarget(merged_report, i), ServerInfoOfTarget(report, i)) << i;
  }
  EXPECT_EQ(merged_report.at("census"), report.at("census"));
  const std::size_t rows = run.output.find("5 targets");
  const std::string server_rows =
      run.output.substr(rows, run.output.find("\n\n", rows + 20) - rows);
  EXPECT_NE(merged.output.find(server_rows), std::string::npos) << merged.output;
}

TEST_F(Survey, ABudgetPerHostStopsRequestsToThatHost) {
  RefTarget server = StartRefServer(TransportKind::kHttp, {}, Limits{});
  ASSERT_TRUE(server.http_server);
  const fs::path targets = dir_ / "targets.txt";
  std::ofstream(targets) << server.http_server->url() << "\n";
  const std::string common =
      "check --targets " + ShellQuote(targets.string()) +
      " --only tools.unknown-name --report json=" + ShellQuote((dir_ / "s.json").string());
  ASSERT_EQ(Mcpfuzz(common).exit_code, 0);
  EXPECT_GE(ReadJson(dir_ / "s.json").at("summary").at("pass").as_int64(), 1);
  // Era detection alone needs more than two requests: nothing can be checked.
  const ProcessRun starved = Mcpfuzz(common + " --host-budget 2");
  EXPECT_NE(starved.exit_code, 1) << starved.output;
  const json::value report = ReadJson(dir_ / "s.json");
  EXPECT_EQ(report.at("summary").at("pass"), 0);
  EXPECT_NE(json::serialize(report).find("request budget"), std::string::npos);
}

// One exit code for `check --targets` and `merge` of its shards: what differs is only whether
// a signal stopped the run, which merge never is.
TEST(SurveyExitCode, IsTwoWhenAnyTargetWasNotJudgedUnlessStoppedOrGivenNone) {
  reports::Report report;
  report.kind = reports::ReportKind::kSurvey;
  std::ostringstream err;
  EXPECT_EQ(cli::SurveyExitCode(report, false, err), 0) << "a shard given no target";
  report.targets.resize(2);
  report.targets[0].description = "http://127.0.0.1:9/mcp";
  report.targets[0].error = "connection refused: nothing listens at 127.0.0.1:9";
  report.targets[1].error = "could not be reached";
  EXPECT_EQ(cli::SurveyExitCode(report, false, err), 2);
  EXPECT_NE(err.str().find("2 of 2 target(s) could not be judged"), std::string::npos) << err.str();
  std::ostringstream quiet;
  EXPECT_EQ(cli::SurveyExitCode(report, true, quiet), 0) << "stopped, not unreachable";
  EXPECT_EQ(quiet.str(), "");
  // One target judged and one not: the survey is no pass, and the one left out is named.
  report.targets[1].error.clear();
  std::ostringstream one;
  EXPECT_EQ(cli::SurveyExitCode(report, false, one), 2);
  EXPECT_NE(one.str().find("http://127.0.0.1:9/mcp: not judged: connection refused"),
            std::string::npos)
      << one.str();
  report.targets[0].error.clear();
  EXPECT_EQ(cli::SurveyExitCode(report, false, quiet), 0);
  reports::ReportItem warning;
  warning.verdict.kind = VerdictKind::kWarn;
  report.targets[1].items.push_back(warning);
  cli::ApplyExitPolicy(report, reports::FailOn::kFail, nullptr);
  EXPECT_EQ(cli::SurveyExitCode(report, false, quiet), 0) << "a WARN alone";
  cli::ApplyExitPolicy(report, reports::FailOn::kWarn, nullptr);
  EXPECT_EQ(cli::SurveyExitCode(report, false, quiet), 1);
  reports::ReportItem failing;
  failing.verdict.kind = VerdictKind::kFail;
  report.targets[1].items.push_back(failing);
  cli::ApplyExitPolicy(report, reports::FailOn::kFail, nullptr);
  EXPECT_EQ(cli::SurveyExitCode(report, false, quiet), 1);
}

TEST(TargetsFile, ReadsUrlsAndCommandsAndNamesTheBadLine) {
  cli::TargetSpec defaults;
  defaults.extra_headers = {{"Authorization", "Bearer t"}};
  auto targets = cli::ParseTargetsFile(
      "# two\n  http://127.0.0.1:1/mcp  \n\nstdio:  node  server.js --stdio\n", defaults);
  ASSERT_TRUE(targets.ok()) << targets.error().message;
  ASSERT_EQ(targets->size(), 2U);
  EXPECT_EQ((*targets)[0].kind, cli::TargetSpec::Kind::kHttpUrl);
  EXPECT_EQ((*targets)[0].url, "http://127.0.0.1:1/mcp");
  EXPECT_EQ((*targets)[0].extra_headers, defaults.extra_headers);
  EXPECT_EQ((*targets)[1].argv, (std::vector<std::string>{"node", "server.js", "--stdio"}));
  auto bad = cli::ParseTargetsFile("http://127.0.0.1:1/mcp\nftp://x\n", defaults);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("line 2"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(cli::ParseTargetsFile("# nothing\n", defaults).ok());
  EXPECT_FALSE(cli::ParseTargetsFile("stdio:\n", defaults).ok());
}

TEST(HostLimiter, SpacesRequestsToOneHostAndKeepsItsBudget) {
  cli::HostLimiter limiter(3, std::chrono::milliseconds(40));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(limiter.Acquire("a"));
  EXPECT_TRUE(limiter.Acquire("b"));  // another host: no wait, its own budget
  EXPECT_TRUE(limiter.Acquire("a"));
  EXPECT_TRUE(limiter.Acquire("a"));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(80));
  EXPECT_FALSE(limiter.Acquire("a"));
  EXPECT_TRUE(limiter.Acquire("b"));
  EXPECT_EQ(cli::HostLimiter::HostOf("http://user@127.0.0.1:8080/mcp"), "127.0.0.1");
  EXPECT_EQ(cli::HostLimiter::HostOf("https://[::1]:3000/x"), "[::1]");
  EXPECT_EQ(cli::HostLimiter::HostOf("http://localhost/mcp?x"), "localhost");
}

}  // namespace
}  // namespace mcpfuzz::test_support
