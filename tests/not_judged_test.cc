// Surveys and diffs never hide a target that was not judged (issue #27): the run exits 2, and
// every report format names each such target with the precise reason (connection refused,
// TLS, a stdio server that could not start), decided by what the transport met, not by time.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/files.h"
#include "support/processes.h"
#include "support/reference_server.h"

namespace mcpfuzz::test_support {
namespace {

namespace json = boost::json;

const std::string kRefused = "could not be reached: connection refused";
const std::string kCannotStart = "cannot start '/nonexistent/mcpfuzz-no-such-server'";
const std::string kTls = "could not be reached: TLS failed";

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::size_t Occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

class NotJudged : public ::testing::Test {
 protected:
  NotJudged() : scratch_("not-judged") { std::filesystem::create_directories(scratch_.path()); }
  std::string Path(const std::string& name) const { return (scratch_.path() / name).string(); }
  ScratchDirectory scratch_;
};

TEST_F(NotJudged, ASurveyWithTargetsItCouldNotJudgeExitsTwoAndSaysWhyInEveryFormat) {
  // A plain HTTP server asked over https: the TLS handshake fails.
  RefTarget plain = StartRefServer(TransportKind::kHttp, {}, Limits{});
  ASSERT_TRUE(plain.http_server);
  std::string https = plain.http_server->url();
  https.replace(0, 4, "https");
  std::ofstream(Path("targets.txt")) << "stdio: " << RefServerPath() << " --stdio\n"
                                     << "http://127.0.0.1:9/mcp\n"
                                     << "stdio: /nonexistent/mcpfuzz-no-such-server --stdio\n"
                                     << https << "\n";
  std::string reports;
  for (const char* format : {"json", "junit", "sarif", "markdown", "html"}) {
    reports += std::string(" --report ") + format + "=" + Path(std::string("s.") + format);
  }
  const ProcessRun run = Mcpfuzz("check --targets " + Path("targets.txt") +
                                 " --only tools.unknown-name --progress never" + reports);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  // The terminal: each row, its line in the log as it ends, and a line at the end of the run.
  for (const std::string& why : {kRefused, kCannotStart, kTls}) {
    EXPECT_EQ(Occurrences(run.output, why), 3U) << why << "\n" << run.output;
  }
  EXPECT_NE(run.output.find("http://127.0.0.1:9/mcp: not judged: " + kRefused), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("3 of 4 target(s) could not be judged"), std::string::npos)
      << run.output;

  const json::value survey = ReadJson(Path("s.json"));
  const json::array& targets = survey.at("targets").as_array();
  ASSERT_EQ(targets.size(), 4U);
  EXPECT_FALSE(targets[0].as_object().contains("error")) << "the conformant server was judged";
  auto error_of = [&](std::size_t i) { return std::string(targets[i].at("error").as_string()); };
  EXPECT_NE(error_of(1).find(kRefused), std::string::npos) << error_of(1);
  EXPECT_NE(error_of(2).find(kCannotStart), std::string::npos) << error_of(2);
  EXPECT_NE(error_of(3).find(kTls), std::string::npos) << error_of(3);

  const std::string junit = Slurp(Path("s.junit"));
  EXPECT_EQ(Occurrences(junit, "type=\"not-judged\""), 3U) << junit;
  const json::value sarif = ReadJson(Path("s.sarif"));
  const json::array& notes =
      sarif.at("runs").at(0).at("invocations").at(0).at("toolExecutionNotifications").as_array();
  EXPECT_EQ(notes.size(), 3U);
  for (const std::string& why : {kRefused, kCannotStart, kTls}) {
    EXPECT_EQ(Occurrences(Slurp(Path("s.markdown")), why), 1U) << why;
  }
  const std::string html = Slurp(Path("s.html"));
  EXPECT_EQ(Occurrences(html, "data-figure=\"not-judged\">not judged: "), 3U) << html;
  // In the server's row and in its details.
  for (const std::string& why :
       {kRefused, kTls,
        std::string("cannot start &#39;/nonexistent/mcpfuzz-no-such-server&#39;")}) {
    EXPECT_EQ(Occurrences(html, why), 2U) << why;
  }
}

TEST_F(NotJudged, ADiffNamesTheTargetThatCouldNotStartAndWhy) {
  const ProcessRun run = Mcpfuzz(
      "diff builtin 'stdio:/nonexistent/mcpfuzz-no-such-server --stdio' "
      "http://127.0.0.1:9/mcp --seed 1 --cases 5 --report json=" +
      Path("d.json") + " --report junit=" + Path("d.xml") + " --report markdown=" + Path("d.md"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("not judged: could not be reached: stdio: " + kCannotStart),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("not judged: " + kRefused), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("speaks no MCP revision"), std::string::npos)
      << "a server that never started is not one that speaks no revision: " << run.output;
  const json::value diff = ReadJson(Path("d.json"));
  const json::array& targets = diff.at("targets").as_array();
  ASSERT_EQ(targets.size(), 3U);
  EXPECT_FALSE(targets[0].as_object().contains("error"));
  EXPECT_NE(std::string(targets[1].at("error").as_string()).find(kCannotStart), std::string::npos);
  EXPECT_NE(std::string(targets[2].at("error").as_string()).find(kRefused), std::string::npos);
  EXPECT_EQ(Occurrences(Slurp(Path("d.xml")), "type=\"not-judged\""), 2U);
  EXPECT_EQ(Occurrences(Slurp(Path("d.md")), "**not judged:**"), 2U);
}

// The same causes for one target, where `check` says them on the terminal.
TEST_F(NotJudged, CheckNamesTlsAndATooLargeReply) {
  RefTarget plain = StartRefServer(TransportKind::kHttp, {}, Limits{});
  ASSERT_TRUE(plain.http_server);
  std::string https = plain.http_server->url();
  https.replace(0, 4, "https");
  const ProcessRun tls = Mcpfuzz("check " + https);
  EXPECT_EQ(tls.exit_code, 2) << tls.output;
  EXPECT_NE(tls.output.find("the target " + kTls), std::string::npos) << tls.output;
  const ProcessRun large = Mcpfuzz("check --builtin --max-response-bytes 20");
  EXPECT_EQ(large.exit_code, 2) << large.output;
  EXPECT_NE(large.output.find("the reply was larger than --max-response-bytes allows"),
            std::string::npos)
      << large.output;
}

}  // namespace
}  // namespace mcpfuzz::test_support
